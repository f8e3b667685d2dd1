"""The JSON API (the pages use it too). OpenAPI at /api/openapi.json."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy import select, update

from jackpot.web import actions, auth
from jackpot.web import models as t
from jackpot.web.actions import Actor
from jackpot.web.deps import (
    bus_of,
    clear_session_cookie,
    client_address,
    current_actor,
    db_of,
    require_account,
    same_origin,
    set_session_cookie,
    settings_of,
)
from jackpot.web.errors import ApiError, forbidden, unauthorized
from jackpot.web.listing import lobby_matches, my_matches
from jackpot.web.resets import confirm_reset, request_reset
from jackpot.web.sse import event_stream
from jackpot.web.views import load_record, load_state, public_state

router = APIRouter(prefix="/api")


class CreateMatch(BaseModel):
    variant: str = "jackpot"
    seats: int = Field(2, description="1 (solo practice) to 4")
    bots: int = Field(1, description="how many of the seats are bots: 0 to seats-1")
    deadline_seconds: int = 86400
    client_seed: str | None = None
    private: bool = False


class JoinMatch(BaseModel):
    client_seed: str | None = None


class ThrowBody(BaseModel):
    dice: int | None = Field(None, description="1 or 2 (one die only in Classic with 7-9 down)")


class CoverBody(BaseModel):
    tiles: list[int]


class SignUp(BaseModel):
    email: str
    password: str
    name: str


class LogIn(BaseModel):
    email: str
    password: str


class NewToken(BaseModel):
    label: str | None = Field(None, max_length=80)


class AccountChange(BaseModel):
    name: str | None = None
    password: str | None = None
    current_password: str | None = None
    leaderboard: bool | None = None


class ResetRequest(BaseModel):
    email: str


class ResetConfirm(BaseModel):
    token: str
    password: str


def _check_origin(request: Request) -> None:
    if not same_origin(request):
        raise forbidden("this request was sent from another site", "cross_site")


async def _actor_or_guest(request: Request, response: Response) -> Actor:
    """The caller, or a new guest remembered by a cookie (playing the bot needs no account)."""
    actor = await current_actor(request)
    if actor is not None:
        return actor
    async with db_of(request).write() as conn:
        actor, token = await auth.create_guest(conn)
    set_session_cookie(response, settings_of(request), token, auth.GUEST_DAYS)
    request.scope["jackpot.actor"] = actor
    return actor


async def _state(request: Request, match_id: str, actor: Actor | None) -> dict[str, Any]:
    async with db_of(request).read() as conn:
        return await load_state(conn, match_id, actor.user_id if actor else None)


async def _answer(request: Request, out: actions.Outcome, actor: Actor) -> dict[str, Any]:
    """The state after a move: built from the rows the action wrote, or read back."""
    if out.row is not None and out.seat_rows is not None:
        return public_state(out.row, out.seat_rows, actor.user_id)
    return await _state(request, out.match_id, actor)


async def _seated_actor(request: Request) -> Actor:
    actor = await current_actor(request)
    if actor is None:
        raise unauthorized("sign in first, or play from the browser that started the match")
    return actor


@router.get("/health")
async def health() -> dict[str, str]:
    return {"status": "ok"}


@router.post("/matches", status_code=201)
async def create_match(body: CreateMatch, request: Request, response: Response) -> dict[str, Any]:
    _check_origin(request)
    actor = await _actor_or_guest(request, response)
    settings = settings_of(request)
    async with db_of(request).write() as conn:
        out = await actions.create_match(
            conn,
            actor,
            variant=body.variant,
            seats=body.seats,
            bots_count=body.bots,
            deadline_seconds=body.deadline_seconds,
            client_seed=body.client_seed,
            private=body.private,
            min_deadline=settings.min_deadline_seconds,
        )
    await bus_of(request).publish(out.match_id, out.events)
    return await _state(request, out.match_id, actor)


@router.get("/matches")
async def list_matches(request: Request) -> dict[str, Any]:
    """The lobby: open public matches waiting for players."""
    async with db_of(request).read() as conn:
        return {"matches": await lobby_matches(conn)}


@router.get("/my/matches")
async def list_my_matches(request: Request) -> dict[str, Any]:
    actor = await _seated_actor(request)
    async with db_of(request).read() as conn:
        return {"matches": await my_matches(conn, actor.user_id)}


@router.get("/matches/{match_id}")
async def get_match(match_id: str, request: Request) -> dict[str, Any]:
    return await _state(request, match_id, await current_actor(request))


@router.post("/matches/{match_id}/join")
async def join_match(match_id: str, body: JoinMatch, request: Request) -> dict[str, Any]:
    _check_origin(request)
    actor = await require_account(request)
    async with db_of(request).write() as conn:
        out = await actions.join_match(conn, actor, match_id, body.client_seed)
    await bus_of(request).publish(out.match_id, out.events)
    return await _answer(request, out, actor)


async def move(
    request: Request, match_id: str, body: ThrowBody | CoverBody | None
) -> dict[str, Any]:
    """A cover (with a ``CoverBody``) or a throw, for the two routes below and for
    fast_moves.py, which serves the same requests without the framework's routing."""
    _check_origin(request)
    actor = await _seated_actor(request)
    async with db_of(request).write() as conn:
        if isinstance(body, CoverBody):
            out = await actions.cover(conn, actor, match_id, body.tiles)
        else:
            out = await actions.throw(conn, actor, match_id, body.dice if body else None)
    await bus_of(request).publish(out.match_id, out.events)
    return await _answer(request, out, actor)


@router.post("/matches/{match_id}/throw")
async def throw(match_id: str, request: Request, body: ThrowBody | None = None) -> dict[str, Any]:
    return await move(request, match_id, body)


@router.post("/matches/{match_id}/cover")
async def cover(match_id: str, body: CoverBody, request: Request) -> dict[str, Any]:
    return await move(request, match_id, body)


@router.post("/matches/{match_id}/resign")
async def resign(match_id: str, request: Request) -> dict[str, Any]:
    _check_origin(request)
    actor = await _seated_actor(request)
    async with db_of(request).write() as conn:
        out = await actions.resign(conn, actor, match_id)
    await bus_of(request).publish(out.match_id, out.events)
    return await _answer(request, out, actor)


@router.get("/matches/{match_id}/record")
async def record(match_id: str, request: Request, download: bool = False) -> Response:
    async with db_of(request).read() as conn:
        rec = await load_record(conn, match_id)
    headers = {}
    if download:
        headers["Content-Disposition"] = f'attachment; filename="jackpot-{match_id}.json"'
    return JSONResponse(rec, headers=headers)


@router.get("/matches/{match_id}/events")
async def events(match_id: str, request: Request) -> Response:
    """Server-Sent Events; resumes after ``Last-Event-ID`` (or ``?last_event_id=``)."""
    return await event_stream(request, match_id)


# -- accounts ----------------------------------------------------------------


def _me(actor: Actor, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"id": actor.user_id, "name": actor.name, "guest": actor.is_guest, **(extra or {})}


@router.post("/account", status_code=201)
async def sign_up(body: SignUp, request: Request, response: Response) -> dict[str, Any]:
    _check_origin(request)
    guest = await current_actor(request)
    async with db_of(request).write() as conn:
        actor, token = await auth.sign_up(conn, body.email, body.password, body.name, guest)
    set_session_cookie(response, settings_of(request), token, auth.SESSION_DAYS)
    return _me(actor)


@router.get("/account")
async def get_account(request: Request) -> dict[str, Any]:
    actor = await _seated_actor(request)
    async with db_of(request).read() as conn:
        row = (
            await conn.execute(
                select(t.users.c.email, t.users.c.leaderboard).where(t.users.c.id == actor.user_id)
            )
        ).one()
    return _me(actor, {"email": row.email, "leaderboard": bool(row.leaderboard)})


@router.patch("/account")
async def change_account(body: AccountChange, request: Request) -> dict[str, Any]:
    _check_origin(request)
    actor = await require_account(request)
    values: dict[str, Any] = {}
    async with db_of(request).write() as conn:
        if body.password is not None:
            if not await auth.verify_password(conn, actor.user_id, body.current_password or ""):
                raise ApiError(403, "bad_password", "the current password is not right")
            auth.check_password_strength(body.password)
            values["password_hash"] = auth.hash_password(body.password)
        if body.name is not None:
            name = auth.check_name(body.name)
            taken = (
                await conn.execute(
                    select(t.users.c.id).where(
                        t.users.c.name_key == name.lower(), t.users.c.id != actor.user_id
                    )
                )
            ).first()
            if taken:
                raise ApiError(409, "name_taken", "that display name is taken")
            values.update(name=name, name_key=name.lower())
        if body.leaderboard is not None:
            values["leaderboard"] = body.leaderboard
            from jackpot.web.ratings import set_listed

            await set_listed(conn, actor.user_id, body.leaderboard)
        if values:
            await conn.execute(
                update(t.users).where(t.users.c.id == actor.user_id).values(**values)
            )
    request.scope["jackpot.actor"] = False
    return await get_account(request)


@router.post("/session")
async def log_in(body: LogIn, request: Request, response: Response) -> dict[str, Any]:
    _check_origin(request)
    address = client_address(request)
    async with db_of(request).write() as conn:
        done = await auth.log_in(conn, body.email, body.password, address)
    if done is None:
        async with db_of(request).write() as conn:
            await auth.record_login_failure(conn, body.email, address)
        raise ApiError(401, "bad_login", "that email and password do not match an account")
    actor, token = done
    set_session_cookie(response, settings_of(request), token, auth.SESSION_DAYS)
    return _me(actor)


@router.delete("/session")
async def log_out(request: Request, response: Response) -> dict[str, Any]:
    _check_origin(request)
    cookie = request.cookies.get(auth.SESSION_COOKIE)
    if cookie:
        async with db_of(request).write() as conn:
            await auth.revoke(conn, cookie)
    clear_session_cookie(response)
    return {"signed_out": True}


@router.post("/tokens", status_code=201)
async def new_token(request: Request, body: NewToken | None = None) -> dict[str, Any]:
    """A bearer token for a program: ``Authorization: Bearer <token>``."""
    _check_origin(request)
    actor = await require_account(request)
    async with db_of(request).write() as conn:
        token = await auth.new_credential(
            conn, actor.user_id, "token", None, body.label if body else None
        )
    return {"token": token, "type": "bearer"}


@router.post("/password-reset", status_code=202)
async def password_reset(body: ResetRequest, request: Request) -> dict[str, Any]:
    _check_origin(request)
    await request_reset(request, body.email)
    return {"sent": "if an account has that address, a link is on its way"}


@router.post("/password-reset/confirm")
async def password_reset_confirm(
    body: ResetConfirm, request: Request, response: Response
) -> dict[str, Any]:
    _check_origin(request)
    actor, token = await confirm_reset(request, body.token, body.password)
    set_session_cookie(response, settings_of(request), token, auth.SESSION_DAYS)
    return _me(actor)
