"""The tournaments' JSON API: create, list, get, enter, withdraw, start early, export, pings.

A table, once paired, is a match like any other for the match API
(``/api/matches/{id}``: throw, cover, resign, its events and record).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import orjson
from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import IntegrityError

from jackpot.engine import Variant
from jackpot.web.base.clock import utcnow
from jackpot.web.base.edge.field_rules import CLIENT_SEED, MINIMUM_SETTING, one_of
from jackpot.web.base.edge.http import check_same_site, current_actor, db_of, settings_of
from jackpot.web.base.edge.ping_stream import ping_stream
from jackpot.web.base.errors import forbidden, invalid
from jackpot.web.base.settings import MAX_DEADLINE_SECONDS, Settings
from jackpot.web.tournaments.entries import (
    NewTournament,
    already_entered,
    create,
    enter,
    require_account,
    start_early,
    withdraw,
)
from jackpot.web.tournaments.export import export_of
from jackpot.web.tournaments.live import TOURNAMENTS, tournament_stream
from jackpot.web.tournaments.store import check_tournament_id, load
from jackpot.web.tournaments.views import full_view, listing

router = APIRouter(prefix="/api/tournaments")
STRICT = ConfigDict(extra="forbid")

#: The longest a round may last: 60 days.
MAX_ROUND_SECONDS = 60 * 86400
MAX_ROUNDS = 15
MAX_SPARES = 5


class NewTournamentBody(BaseModel):
    model_config = STRICT
    name: str = Field("", description="the tournament's name (empty: one is made)", max_length=80)
    variant: str = Field("jackpot", json_schema_extra=one_of("jackpot", "classic"))
    table_size: int = Field(
        2,
        strict=True,
        description="seats at a table: 2 to 4",
        json_schema_extra={"minimum": 2, "maximum": 4},
    )
    rounds: int = Field(
        3,
        strict=True,
        description="rounds: 1 to 15",
        json_schema_extra={"minimum": 1, "maximum": MAX_ROUNDS},
    )
    deadline_seconds: int = Field(
        86400,
        strict=True,
        description="seconds for each throw",
        json_schema_extra={
            MINIMUM_SETTING: "min_deadline_seconds",
            "maximum": MAX_DEADLINE_SECONDS,
        },
    )
    spares: int = Field(
        2,
        strict=True,
        description="spare deadlines per seat and match: 0 to 5",
        json_schema_extra={"minimum": 0, "maximum": MAX_SPARES},
    )
    round_seconds: int = Field(
        7 * 86400,
        strict=True,
        description="the longest a round may last, in seconds",
        json_schema_extra={"minimum": 60, "maximum": MAX_ROUND_SECONDS},
    )
    starts_at: str = Field(description="when round 1 is paired: ISO 8601, UTC", max_length=40)
    max_players: int = Field(
        16,
        strict=True,
        description="the most players it takes",
        json_schema_extra={"minimum": 2},
    )
    private: bool = Field(False, strict=True, description="by invitation: not listed")


class EntryBody(BaseModel):
    model_config = STRICT
    client_seed: str = Field(
        "", description="your part of every table's client seed", json_schema_extra=CLIENT_SEED
    )
    commitment: str = Field(
        description="the commitment of your part of the server seed (POST /api/commitments)",
        max_length=64,
    )


def check_new(body: NewTournamentBody, settings: Settings, creator: str) -> NewTournament:
    """The body's choices, each refused by name when out of range (422)."""
    try:
        variant = Variant(body.variant)
    except ValueError:
        raise invalid(
            "variant must be 'jackpot' or 'classic', not %(given)s", given=repr(body.variant)
        ) from None
    ranges = (
        ("table_size", body.table_size, 2, 4),
        ("rounds", body.rounds, 1, MAX_ROUNDS),
        (
            "deadline_seconds",
            body.deadline_seconds,
            settings.min_deadline_seconds,
            MAX_DEADLINE_SECONDS,
        ),
        ("spares", body.spares, 0, MAX_SPARES),
        ("round_seconds", body.round_seconds, 60, MAX_ROUND_SECONDS),
        ("max_players", body.max_players, 2, settings.tournament_max_players),
    )
    for name, value, least, most in ranges:
        if not least <= value <= most:
            raise invalid(
                "%(field)s must be from %(least)s to %(most)s, not %(given)s",
                field=name,
                least=least,
                most=most,
                given=value,
            )
    if body.round_seconds < body.deadline_seconds:
        raise invalid(
            "round_seconds must be at least deadline_seconds: a round gives every throw its time",
            "round_too_short",
        )
    return NewTournament(
        name=body.name.strip() or f"{creator} Swiss",
        variant=variant,
        table_size=body.table_size,
        rounds=body.rounds,
        deadline_seconds=body.deadline_seconds,
        spares=body.spares,
        round_seconds=body.round_seconds,
        starts_at=parse_start(body.starts_at),
        max_players=body.max_players,
        private=body.private,
    )


def parse_start(text: str) -> datetime:
    """An ISO 8601 time in UTC (``Z`` or ``+00:00``), else 422 naming the field."""
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        when = None
    if when is None or when.utcoffset() is None or when.utcoffset().total_seconds() != 0:  # type: ignore[union-attr]
        raise invalid(
            "starts_at must be a time in ISO 8601 UTC, like 2026-12-24T18:00:00Z", "bad_start"
        )
    return when.astimezone(UTC)


@router.post("", status_code=201)
async def new_tournament(body: NewTournamentBody, request: Request) -> Response:
    """A new tournament: 201 ``{"id", ...}``. A confirmed account is needed (403)."""
    check_same_site(request)
    actor = require_account(await current_actor(request))
    settings = settings_of(request)
    new = check_new(body, settings, actor.name)
    now = utcnow()
    async with db_of(request).write() as conn:
        tournament_id = await create(conn, actor, new, settings, now)
        view = await full_view(conn, await load(conn, tournament_id), actor.user_id, now)
    return JSONResponse(view, status_code=201)


@router.get("")
async def tournaments_list(request: Request) -> dict[str, Any]:
    """Public tournaments: ``upcoming``, ``running`` and ``finished``, each with the
    number entered."""
    async with db_of(request).read() as conn:
        return await listing(conn)


@router.get("/events")
async def list_events(request: Request) -> Response:
    """A ping each time the list may have changed."""
    return await ping_stream(request, TOURNAMENTS, "tournaments")


@router.get("/{tournament_id}")
async def get_tournament(tournament_id: str, request: Request) -> Response:
    """Settings, ``status``, ``round``, ``standings`` in order, ``pairings`` by round,
    and the caller's ``next`` step."""
    actor = await current_actor(request)
    async with db_of(request).read() as conn:
        t = await load(conn, tournament_id)
        view = await full_view(conn, t, actor.user_id if actor else None, utcnow())
    # orjson, as the boards: a thousand players' standings.
    return Response(orjson.dumps(view), media_type="application/json")


@router.get("/{tournament_id}/events")
async def tournament_events(tournament_id: str, request: Request) -> Response:
    """A ping each time the tournament's standings or tables may have changed."""
    check_tournament_id(tournament_id)
    return await tournament_stream(request, tournament_id)


@router.get("/{tournament_id}/export")
async def tournament_export(tournament_id: str, request: Request) -> Response:
    """The tournament as ``jackpot-tournament/1`` (docs/tournaments.md), which
    ``jackpot verify-tournament`` and the Verify page check."""
    async with db_of(request).read() as conn:
        t = await load(conn, tournament_id)
        if t.row["status"] == "entering":
            raise forbidden(
                "the tournament has not started: there is nothing to export yet", "not_started"
            )
        data = await export_of(conn, t)
    return Response(orjson.dumps(data), media_type="application/json")


@router.post("/{tournament_id}/entries", status_code=201)
async def enter_tournament(tournament_id: str, body: EntryBody, request: Request) -> Response:
    """Enter with a client seed and the commitment of your part: 201."""
    check_same_site(request)
    actor = require_account(await current_actor(request))
    now = utcnow()
    try:
        async with db_of(request).write() as conn:
            await enter(conn, actor, tournament_id, body.client_seed, body.commitment, now)
            view = await full_view(conn, await load(conn, tournament_id), actor.user_id, now)
    except IntegrityError:
        raise already_entered() from None
    return JSONResponse(view, status_code=201)


@router.delete("/{tournament_id}/entries/me")
async def withdraw_entry(tournament_id: str, request: Request) -> Response:
    """Withdraw: before the start the entry goes; later your match in play is resigned."""
    check_same_site(request)
    actor = require_account(await current_actor(request))
    now = utcnow()
    async with db_of(request).write() as conn:
        await withdraw(conn, actor, tournament_id, now)
        view = await full_view(conn, await load(conn, tournament_id), actor.user_id, now)
    return Response(orjson.dumps(view), media_type="application/json")


@router.post("/{tournament_id}/start")
async def start_tournament(tournament_id: str, request: Request) -> Response:
    """The creator's early start, with at least two entered: round 1 is paired now."""
    check_same_site(request)
    actor = require_account(await current_actor(request))
    now = utcnow()
    async with db_of(request).write() as conn:
        await start_early(conn, actor, tournament_id, now)
        view = await full_view(conn, await load(conn, tournament_id), actor.user_id, now)
    return Response(orjson.dumps(view), media_type="application/json")
