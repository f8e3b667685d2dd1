"""The JSON API of finding people: play now (seeks), challenges and blocks."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from jackpot.engine import MAX_SPARES
from jackpot.web.accounts import blocks
from jackpot.web.base.clock import utcnow
from jackpot.web.base.edge.field_rules import CLIENT_SEED, MINIMUM_SETTING, one_of
from jackpot.web.base.edge.http import check_same_site, current_actor, db_of, settings_of
from jackpot.web.base.edge.ping_stream import ping_stream
from jackpot.web.base.live.stream_caps import EventStream
from jackpot.web.base.settings import MAX_DEADLINE_SECONDS
from jackpot.web.people import challenges, seeks
from jackpot.web.people.kinds import waiting_kinds
from jackpot.web.people.live import seek_stream
from jackpot.web.people.rules import require_account
from jackpot.web.play.seating import MAX_SEATS

router = APIRouter(prefix="/api")
STRICT = ConfigDict(extra="forbid")
DEADLINE: dict[str, Any] = {
    MINIMUM_SETTING: "min_deadline_seconds",
    "maximum": MAX_DEADLINE_SECONDS,
}
SPARES = (
    "spare deadlines each seat is given: a missed deadline uses one (the deadline starts "
    "again) before it puts the seat out; 0 to 5 (seeks pair only with equal spares)"
)
SPARES_RANGE: dict[str, Any] = {"minimum": 0, "maximum": MAX_SPARES}


#: The two fields every body that seats a person carries (play/parts.py).
SEED_DOC = "your client seed, made on your side (1-64 chars); without it the server makes one"
PART_DOC = (
    "the commitment POST /api/commitments gave you before you chose client_seed: its seed "
    "is your part of the match's server seed (409 commitment_unknown if it was used or has "
    "expired); without it the server makes your part"
)


class NewSeek(BaseModel):
    model_config = STRICT
    client_seed: str | None = Field(None, description=SEED_DOC, json_schema_extra=CLIENT_SEED)
    commitment: str | None = Field(None, description=PART_DOC)
    variant: str = Field("jackpot", json_schema_extra=one_of("jackpot", "classic"))
    deadline_seconds: int = Field(
        description="seconds for each throw", strict=True, json_schema_extra=DEADLINE
    )
    seats: int = Field(
        2, description="people in the match: 2 to 4", strict=True,
        json_schema_extra={"minimum": 2, "maximum": MAX_SEATS},
    )
    spares: int = Field(0, description=SPARES, strict=True, json_schema_extra=SPARES_RANGE)


class NewChallenge(BaseModel):
    model_config = STRICT
    client_seed: str | None = Field(None, description=SEED_DOC, json_schema_extra=CLIENT_SEED)
    commitment: str | None = Field(None, description=PART_DOC)
    to: str = Field(description="the name of the player challenged", min_length=1, max_length=64)
    variant: str = Field("jackpot", json_schema_extra=one_of("jackpot", "classic"))
    deadline_seconds: int = Field(
        86400, description="seconds for each throw", strict=True, json_schema_extra=DEADLINE
    )
    spares: int = Field(0, description=SPARES, strict=True, json_schema_extra=SPARES_RANGE)


class Acceptance(BaseModel):
    model_config = STRICT
    client_seed: str | None = Field(None, description=SEED_DOC, json_schema_extra=CLIENT_SEED)
    commitment: str | None = Field(None, description=PART_DOC)


@router.post("/seeks", status_code=201)
async def new_seek(body: NewSeek, request: Request) -> Response:
    """Look for people to play now: 201 ``{"id", "status": "waiting"}``, or
    ``"paired"`` with the ``match`` when the seek completed a group at once."""
    check_same_site(request)
    actor = require_account(await current_actor(request))
    async with db_of(request).write() as conn:
        made = await seeks.create(
            conn,
            actor,
            settings_of(request),
            variant=body.variant,
            deadline_seconds=body.deadline_seconds,
            seats=body.seats,
            now=utcnow(),
            client_seed=body.client_seed,
            commitment=body.commitment,
            spares=body.spares,
        )
    return JSONResponse(made, status_code=201)


@router.get("/seeks")
async def open_seeks(request: Request) -> dict[str, Any]:
    """The seeks waiting now, by kind, without who (each kind says whether the caller
    waits in it: ``"yours"``); the caller's own waiting ones."""
    actor = await current_actor(request)
    async with db_of(request).read() as conn:
        kinds, mine = await waiting_kinds(conn, actor, utcnow())
    return {"kinds": kinds, "mine": mine}


@router.get("/seeks/events", response_class=EventStream)
async def seeks_events(request: Request) -> Response:
    """Server-Sent Events: an ``event: seeks`` frame whenever the waiting seeks may
    have changed (one per burst); the page then reads ``GET /api/seeks`` again."""
    return await ping_stream(request, seeks.SEEKS, "seeks")


@router.get("/seeks/{seek_id}")
async def get_seek(seek_id: str, request: Request) -> dict[str, Any]:
    actor = require_account(await current_actor(request))
    async with db_of(request).read() as conn:
        return await seeks.own_seek(conn, actor.user_id, seek_id, utcnow())


@router.delete("/seeks/{seek_id}")
async def cancel_seek(seek_id: str, request: Request) -> dict[str, Any]:
    check_same_site(request)
    actor = require_account(await current_actor(request))
    async with db_of(request).write() as conn:
        return await seeks.cancel(conn, actor.user_id, seek_id, utcnow())


@router.get("/seeks/{seek_id}/events", response_class=EventStream)
async def seek_events(seek_id: str, request: Request) -> Response:
    """Server-Sent Events: ``event: seek`` with ``{"id", "status", "match"}`` now and
    when it changes. A seek for less than an hour a throw is cancelled when its
    stream closes."""
    actor = require_account(await current_actor(request))
    return await seek_stream(request, actor, seek_id, utcnow())


@router.post("/challenges", status_code=201)
async def new_challenge(body: NewChallenge, request: Request) -> Response:
    """Challenge a player to a two-seat match: 201 ``{"id"}``."""
    check_same_site(request)
    actor = require_account(await current_actor(request))
    await blocks.count_name_lookup(request)
    async with db_of(request).write() as conn:
        made = await challenges.create(
            conn,
            actor,
            settings_of(request),
            to=body.to,
            variant=body.variant,
            deadline_seconds=body.deadline_seconds,
            now=utcnow(),
            client_seed=body.client_seed,
            commitment=body.commitment,
            spares=body.spares,
        )
    return JSONResponse({"id": made}, status_code=201)


@router.get("/challenges")
async def list_challenges(request: Request) -> dict[str, Any]:
    """``{"incoming": [...], "outgoing": [...]}``: the open challenges to and from
    the caller, with the other player's name and rating."""
    actor = require_account(await current_actor(request))
    async with db_of(request).read() as conn:
        return await challenges.listed(conn, actor.user_id, utcnow())


@router.post("/challenges/{challenge_id}/accept")
async def accept_challenge(
    challenge_id: str, request: Request, body: Acceptance | None = None
) -> dict[str, Any]:
    """Accept a challenge made to you: the match starts, ``{"match"}``."""
    check_same_site(request)
    actor = require_account(await current_actor(request))
    async with db_of(request).write() as conn:
        match_id = await challenges.accept(
            conn,
            actor,
            settings_of(request),
            challenge_id,
            utcnow(),
            client_seed=body.client_seed if body else None,
            commitment=body.commitment if body else None,
        )
    return {"match": match_id}


@router.post("/challenges/{challenge_id}/decline")
async def decline_challenge(challenge_id: str, request: Request) -> dict[str, Any]:
    check_same_site(request)
    actor = require_account(await current_actor(request))
    async with db_of(request).write() as conn:
        await challenges.decline(conn, actor, challenge_id, utcnow())
    return {"id": challenge_id, "status": "declined"}


@router.delete("/challenges/{challenge_id}")
async def withdraw_challenge(challenge_id: str, request: Request) -> dict[str, Any]:
    check_same_site(request)
    actor = require_account(await current_actor(request))
    async with db_of(request).write() as conn:
        await challenges.withdraw(conn, actor, challenge_id, utcnow())
    return {"id": challenge_id, "status": "withdrawn"}


@router.get("/blocks")
async def list_blocks(request: Request) -> dict[str, Any]:
    actor = require_account(await current_actor(request))
    async with db_of(request).read() as conn:
        return {"blocked": await blocks.blocked_names(conn, actor.user_id)}


@router.put("/blocks/{name}")
async def block_player(name: str, request: Request) -> dict[str, Any]:
    """Block a player: they cannot challenge you, join your matches or be paired
    with you (nor you with them)."""
    check_same_site(request)
    actor = require_account(await current_actor(request))
    await blocks.count_name_lookup(request)
    async with db_of(request).write() as conn:
        shown = await blocks.block(
            conn, actor.user_id, name, utcnow(), settings_of(request).blocks_per_account
        )
    return {"blocked": shown}


@router.delete("/blocks/{name}")
async def unblock_player(name: str, request: Request) -> dict[str, Any]:
    check_same_site(request)
    actor = require_account(await current_actor(request))
    await blocks.count_name_lookup(request)
    async with db_of(request).write() as conn:
        await blocks.unblock(conn, actor.user_id, name)
    return {"unblocked": name}
