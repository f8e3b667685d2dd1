"""The JSON API of matches: create, list, join, move, resign, record, seats, events.

The match page uses it too; OpenAPI at /api/openapi.json.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from jackpot.engine import MAX_SPARES
from jackpot.i18n import N_
from jackpot.web.accounts.credentials import GUEST_DAYS, new_guest
from jackpot.web.base.clock import iso, utcnow
from jackpot.web.base.edge.client import client_bucket
from jackpot.web.base.edge.field_rules import CLIENT_SEED, MINIMUM_SETTING, one_of
from jackpot.web.base.edge.http import (
    check_same_site,
    current_actor,
    db_of,
    remember_actor,
    require_actor,
    set_session_cookie,
    settings_of,
)
from jackpot.web.base.edge.ping_stream import ping_stream
from jackpot.web.base.identity import Actor
from jackpot.web.base.limits import counters_of, take
from jackpot.web.base.live.stream_caps import EventStream
from jackpot.web.base.quotas import active_cap
from jackpot.web.base.settings import (
    DEFAULT_EXPIRY_SECONDS,
    MAX_DEADLINE_SECONDS,
    MAX_EXPIRY_SECONDS,
    MIN_EXPIRY_SECONDS,
)
from jackpot.web.matches.listing import lobby_matches, my_matches
from jackpot.web.matches.seats import match_seats, seat_links
from jackpot.web.matches.store import check_match_id, shown_match_row
from jackpot.web.matches.views import load_record, load_state, public_state
from jackpot.web.play import actions, commitments, seating
from jackpot.web.play.edge.sse import event_stream
from jackpot.web.play.lobby import LOBBY
from jackpot.web.play.moves import STRICT, CoverBody, ThrowBody, move
from jackpot.web.play.outcome import Outcome
from jackpot.web.play.phrases import PHRASES, said_of, say
from jackpot.web.play.watchers import watchers_of

router = APIRouter(prefix="/api")


class CreateMatch(BaseModel):
    model_config = STRICT
    variant: str = Field("jackpot", json_schema_extra=one_of("jackpot", "classic"))
    # Strict: true is not a seat count, nor 2.5; "2" is text, not a number.
    seats: int = Field(2, description="1 (solo practice) to 4", strict=True,
                       json_schema_extra={"minimum": 1, "maximum": 4})
    bots: int = Field(1, description="how many of the seats are bots: 0 to seats-1", strict=True,
                      json_schema_extra={"minimum": 0, "maximum": 3})
    deadline_seconds: int = Field(86400, strict=True, json_schema_extra={
        MINIMUM_SETTING: "min_deadline_seconds", "maximum": MAX_DEADLINE_SECONDS})
    client_seed: str | None = Field(None, json_schema_extra=CLIENT_SEED)
    commitment: str | None = Field(
        None,
        description="the commitment POST /api/commitments gave, shown to the player before "
        "they chose client_seed: the match gets that server seed (409 commitment_unknown "
        "if it was used or has expired); without it the server makes one",
    )
    # Strict too: 1 and "yes" are not true, "3600" and 3600.0 are not seconds.
    private: bool = Field(False, strict=True)
    expiry_seconds: int = Field(
        DEFAULT_EXPIRY_SECONDS,
        description="how long it waits for players before it is called off: 3600 to 2592000",
        strict=True,
        json_schema_extra={"minimum": MIN_EXPIRY_SECONDS, "maximum": MAX_EXPIRY_SECONDS},
    )
    spares: int = Field(
        0,
        description="spare deadlines each seat is given: a missed deadline uses one (the "
        "deadline starts again) before it puts the seat out; 0 to 5, and 0 unless two or "
        "more people play",
        strict=True,
        json_schema_extra={"minimum": 0, "maximum": MAX_SPARES},
    )


class JoinMatch(BaseModel):
    model_config = STRICT
    client_seed: str | None = Field(None, json_schema_extra=CLIENT_SEED)


class AutoplayBody(BaseModel):
    """Which forced moves the server makes for the caller (docs/autoplay.md)."""

    model_config = STRICT

    throws: bool = Field(description="throw when the throw is no choice", strict=True)
    single_covers: bool = Field(description="cover when only one cover is possible", strict=True)


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
    # Playing the bot needs no account: a caller without one becomes a guest,
    # remembered by a cookie.
    actor = await current_actor(request)
    settings = settings_of(request)
    token = None
    async with db_of(request).write() as conn:
        if actor is None:
            actor, token = await new_guest(request, conn)
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
            max_active=active_cap(settings, actor.is_guest),
            expiry_seconds=body.expiry_seconds,
            commitment=body.commitment,
            spares=body.spares,
        )
    if token is not None:
        set_session_cookie(response, settings, token, GUEST_DAYS)
        remember_actor(request, actor)
    return await _state(request, out.match_id, actor)


@router.post("/commitments", status_code=201)
async def new_commitment(request: Request) -> dict[str, str | None]:
    """A server seed for a match not made yet: its commitment, to show the player
    before they choose a client seed, and until when it waits (24 hours). Name it as
    ``commitment`` when creating the match; it is good for one match."""
    check_same_site(request)
    await take(
        counters_of(request),
        "commitments:" + client_bucket(request),
        settings_of(request).commitment_limit,
        N_("too many match seeds asked for from your address"),
    )
    async with db_of(request).write() as conn:
        pending = await commitments.issue(conn, utcnow())
    return {"commitment": pending.commitment, "expires_at": iso(pending.expires_at)}


@router.get("/matches")
async def list_matches(request: Request) -> dict[str, Any]:
    """The lobby: open public matches waiting for players."""
    async with db_of(request).read() as conn:
        return {"matches": await lobby_matches(conn)}


@router.get("/lobby/events", response_class=EventStream)
async def lobby_events(request: Request) -> Response:
    """A ping each time the lobby's list may have changed (play/lobby.py)."""
    return await ping_stream(request, LOBBY, "lobby")


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
        out = await seating.join_match(
            conn,
            actor,
            match_id,
            body.client_seed,
            max_active=active_cap(settings_of(request), actor.is_guest),
        )
    return await _answer(request, out, actor)


@router.post("/matches/{match_id}/throw")
async def throw(match_id: str, request: Request, body: ThrowBody | None = None) -> dict[str, Any]:
    return await move(request, match_id, body)


@router.post("/matches/{match_id}/cover")
async def cover(match_id: str, body: CoverBody, request: Request) -> dict[str, Any]:
    return await move(request, match_id, body)


@router.put("/matches/{match_id}/autoplay")
async def autoplay(match_id: str, body: AutoplayBody, request: Request) -> dict[str, Any]:
    """Switch autoplay for the caller's seat in this match; forced moves now due are
    made at once, and the answer is the new state."""
    actor = await require_actor(request)
    async with db_of(request).write() as conn:
        out = await actions.set_autoplay(conn, actor, match_id, body.throws, body.single_covers)
    assert out.row is not None and out.seat_rows is not None
    return public_state(out.row, out.seat_rows, actor.user_id)


@router.post("/matches/{match_id}/resign")
async def resign(match_id: str, request: Request) -> dict[str, Any]:
    actor = await require_actor(request)
    async with db_of(request).write() as conn:
        out = await actions.resign(conn, actor, match_id)
    if out.refusal is not None:
        raise out.refusal
    return await _answer(request, out, actor)


class SayBody(BaseModel):
    model_config = STRICT

    phrase: str = Field(
        description="one of the phrases' keys; each reader's page words it in their language",
        max_length=40,
        json_schema_extra=one_of(*PHRASES),
    )


@router.post("/matches/{match_id}/say", status_code=204)
async def say_phrase(match_id: str, body: SayBody, request: Request) -> Response:
    """Say a phrase from the caller's seat: the ``said`` event goes out on the match's
    live stream and socket, and it is kept with the match (``GET .../said``)."""
    actor = await require_actor(request)
    await say(db_of(request), actor, match_id, body.phrase, settings_of(request))
    return Response(status_code=204)


@router.get("/matches/{match_id}/said")
async def said(match_id: str, request: Request) -> dict[str, Any]:
    """Everything said in the match, oldest first, as the ``said`` events were."""
    check_match_id(match_id)
    actor = await current_actor(request)
    async with db_of(request).read() as conn:
        await shown_match_row(conn, match_id, actor.user_id if actor else None)
        return {"said": await said_of(conn, match_id)}


@router.get("/matches/{match_id}/watching")
async def watching(match_id: str, request: Request) -> dict[str, int]:
    """How many watch the match: the open live connections of readers without a seat
    in it, in every server process (play/watchers.py)."""
    check_match_id(match_id)
    actor = await current_actor(request)
    async with db_of(request).read() as conn:
        await shown_match_row(conn, match_id, actor.user_id if actor else None)
    return {"watching": await watchers_of(request).count(match_id)}


@router.get("/matches/{match_id}/record")
async def record(match_id: str, request: Request, download: bool = False) -> Response:
    actor = await current_actor(request)
    async with db_of(request).read() as conn:
        await shown_match_row(conn, match_id, actor.user_id if actor else None)
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
        await shown_match_row(conn, match_id, actor.user_id if actor else None)
        found = await match_seats(conn, match_id, actor.user_id if actor else None)
    return {"seats": seat_links(found)}


@router.get("/matches/{match_id}/events", response_class=EventStream)
async def events(match_id: str, request: Request) -> Response:
    """Server-Sent Events; resumes after ``Last-Event-ID`` (or ``?last_event_id=``)."""
    return await event_stream(request, match_id)
