"""The JSON API of matches: create, list, join, move, resign, record, seats, events.

The match page uses it too; OpenAPI at /api/openapi.json.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from jackpot.web.accounts.credentials import GUEST_DAYS, create_guest
from jackpot.web.base.http import (
    bus_of,
    check_same_site,
    current_actor,
    db_of,
    remember_actor,
    require_actor,
    set_session_cookie,
    settings_of,
)
from jackpot.web.base.identity import Actor
from jackpot.web.matches.listing import lobby_matches, my_matches
from jackpot.web.matches.seats import match_seats, seat_links
from jackpot.web.matches.store import check_match_id
from jackpot.web.matches.views import load_record, load_state, public_state
from jackpot.web.play import actions, seating
from jackpot.web.play.sse import event_stream
from jackpot.web.play.transaction import Outcome

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


async def _actor_or_guest(request: Request, response: Response) -> Actor:
    """The caller, or a new guest remembered by a cookie (playing the bot needs no account)."""
    actor = await current_actor(request)
    if actor is not None:
        return actor
    async with db_of(request).write() as conn:
        actor, token = await create_guest(conn)
    set_session_cookie(response, settings_of(request), token, GUEST_DAYS)
    remember_actor(request, actor)
    return actor


async def _state(request: Request, match_id: str, actor: Actor | None) -> dict[str, Any]:
    async with db_of(request).read() as conn:
        return await load_state(conn, match_id, actor.user_id if actor else None)


async def _answer(request: Request, out: Outcome, actor: Actor) -> dict[str, Any]:
    """The state after an action: built from the rows the action wrote, or read back."""
    if out.row is not None and out.seat_rows is not None:
        return public_state(out.row, out.seat_rows, actor.user_id)
    return await _state(request, out.match_id, actor)


@router.post("/matches", status_code=201)
async def create_match(body: CreateMatch, request: Request, response: Response) -> dict[str, Any]:
    check_same_site(request)
    actor = await _actor_or_guest(request, response)
    settings = settings_of(request)
    async with db_of(request).write() as conn:
        out = await seating.create_match(
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
    actor = await require_actor(request, same_site=False)
    async with db_of(request).read() as conn:
        return {"matches": await my_matches(conn, actor.user_id)}


@router.get("/matches/{match_id}")
async def get_match(match_id: str, request: Request) -> dict[str, Any]:
    return await _state(request, match_id, await current_actor(request))


@router.post("/matches/{match_id}/join")
async def join_match(match_id: str, body: JoinMatch, request: Request) -> dict[str, Any]:
    actor = await require_actor(request, account=True)
    async with db_of(request).write() as conn:
        out = await seating.join_match(conn, actor, match_id, body.client_seed)
    await bus_of(request).publish(out.match_id, out.events)
    return await _answer(request, out, actor)


async def move(
    request: Request, match_id: str, body: ThrowBody | CoverBody | None
) -> dict[str, Any]:
    """A cover (with a ``CoverBody``) or a throw, for the two routes below and for
    fast_moves.py, which serves the same requests without the framework's routing."""
    db, bus = db_of(request), bus_of(request)
    actor = await require_actor(request)
    async with db.write() as conn:
        if isinstance(body, CoverBody):
            out = await actions.cover(conn, actor, match_id, body.tiles)
        else:
            out = await actions.throw(conn, actor, match_id, body.dice if body else None)
    await bus.publish(out.match_id, out.events)
    # A move keeps the rows it wrote, so it answers without reading them back.
    assert out.row is not None and out.seat_rows is not None
    return public_state(out.row, out.seat_rows, actor.user_id)


@router.post("/matches/{match_id}/throw")
async def throw(match_id: str, request: Request, body: ThrowBody | None = None) -> dict[str, Any]:
    return await move(request, match_id, body)


@router.post("/matches/{match_id}/cover")
async def cover(match_id: str, body: CoverBody, request: Request) -> dict[str, Any]:
    return await move(request, match_id, body)


@router.post("/matches/{match_id}/resign")
async def resign(match_id: str, request: Request) -> dict[str, Any]:
    actor = await require_actor(request)
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


@router.get("/matches/{match_id}/seats")
async def seats(match_id: str, request: Request) -> dict[str, Any]:
    """Per seat, the profile its name links to and a bot's strength once the match is
    over. Not part of the match state (the live events do not carry them): the match
    page asks again after a join, a leave or the end, which is when they change."""
    check_match_id(match_id)
    actor = await current_actor(request)
    async with db_of(request).read() as conn:
        found = await match_seats(conn, match_id, actor.user_id if actor else None)
    return {"seats": seat_links(found)}


@router.get("/matches/{match_id}/events")
async def events(match_id: str, request: Request) -> Response:
    """Server-Sent Events; resumes after ``Last-Event-ID`` (or ``?last_event_id=``)."""
    return await event_stream(request, match_id)
