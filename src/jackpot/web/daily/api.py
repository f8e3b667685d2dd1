"""The daily deal's JSON API: today's deals, entering one, a day's board, its live pings.

An entry, once made, is a match like any other for the match API (``/api/matches/
{id}``: throw, cover, resign to give up, its events and record).
"""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from sqlalchemy.exc import IntegrityError

from jackpot.web.base.clock import utcnow
from jackpot.web.base.edge.http import check_same_site, current_actor, db_of, settings_of
from jackpot.web.base.errors import invalid
from jackpot.web.base.live.stream_caps import EventStream
from jackpot.web.daily.board import board, overview
from jackpot.web.daily.deals import check_day, check_variant, deal_row
from jackpot.web.daily.entries import already_entered, enter, require_account
from jackpot.web.daily.live import daily_stream

router = APIRouter(prefix="/api/daily")


@router.get("")
async def today(request: Request) -> dict[str, Any]:
    """Today's deals (UTC), each with its number of entries and the caller's own
    entry, and the commitments of the deals ahead."""
    actor = await current_actor(request)
    async with db_of(request).read() as conn:
        return await overview(conn, actor.user_id if actor else None, utcnow())


@router.get("/events", response_class=EventStream)
async def daily_events(request: Request) -> Response:
    """A ping each time a board may have changed (daily/live.py)."""
    return await daily_stream(request)


@router.post("/{variant}", status_code=201)
async def enter_today(variant: str, request: Request) -> Response:
    """The caller's entry in today's deal of ``variant``: 201 with its match id. An
    account is needed (403 ``account_required``); one entry per deal (409
    ``already_entered``)."""
    check_same_site(request)
    chosen = check_variant(variant)
    actor = require_account(await current_actor(request))
    try:
        async with db_of(request).write() as conn:
            match_id = await enter(conn, actor, chosen, utcnow())
    except IntegrityError:
        # The same account entered at the same moment in another request.
        raise already_entered() from None
    return JSONResponse({"match": match_id}, status_code=201)


@router.get("/{day}/{variant}", response_class=JSONResponse)
async def day_board(
    day: str, variant: str, request: Request, offset: int = 0, limit: int | None = None
) -> Response:
    """A day's board, best first: ``limit`` entries (at most JACKPOT_DAILY_BOARD_PAGE,
    the default) from ``offset``; the seed and par once the day has closed."""
    chosen = check_variant(variant)
    day = check_day(day)
    page = settings_of(request).daily_board_page
    size = page if limit is None else limit
    if not 1 <= size <= page:
        raise invalid("limit must be from 1 to %(most)s, not %(given)s", most=page, given=size)
    if not 0 <= offset <= 10_000_000:
        raise invalid("offset must be 0 or more, not %(given)s", given=offset)
    actor = await current_actor(request)
    async with db_of(request).read() as conn:
        deal = await deal_row(conn, day, chosen, counted=True)
        data = await board(
            conn, deal, actor.user_id if actor else None, utcnow(), offset=offset, limit=size
        )
    # Encoded by orjson, as the moves' answers are: a page of a board is a hundred rows.
    return Response(orjson.dumps(data), media_type="application/json")
