"""The tournaments' JSON API: create, list, get, enter, withdraw, start early, export, pings.

A table, once paired, is a match like any other for the match API
(``/api/matches/{id}``: throw, cover, resign, its events and record).
"""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from sqlalchemy.exc import IntegrityError

from jackpot.web.base.clock import utcnow
from jackpot.web.base.edge.http import check_same_site, current_actor, db_of, settings_of
from jackpot.web.base.edge.ping_stream import ping_stream
from jackpot.web.base.errors import forbidden
from jackpot.web.tournaments.entries import (
    already_entered,
    create,
    enter,
    require_account,
    start_early,
    withdraw,
)
from jackpot.web.tournaments.export import export_of
from jackpot.web.tournaments.live import TOURNAMENTS, tournament_stream
from jackpot.web.tournaments.rules import EntryBody, NewTournamentBody, check_new
from jackpot.web.tournaments.store import load, tournament_row
from jackpot.web.tournaments.views import full_view, listing

router = APIRouter(prefix="/api/tournaments")
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
        t = await load(conn, tournament_id, cached=True)
        view = await full_view(conn, t, actor.user_id if actor else None, utcnow())
    # orjson, as the boards: a thousand players' standings.
    return Response(orjson.dumps(view), media_type="application/json")


@router.get("/{tournament_id}/events")
async def tournament_events(tournament_id: str, request: Request) -> Response:
    """A ping each time the tournament's standings or tables may have changed."""
    async with db_of(request).read() as conn:
        await tournament_row(conn, tournament_id)  # 404 for none
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
