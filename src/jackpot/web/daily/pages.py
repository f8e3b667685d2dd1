"""The daily deal's pages: today's deals and boards, yesterday's with par, any day's board.

``/daily`` follows its boards live (static/daily.js fetches it again on each ping of
``/api/daily/events`` and puts in its ``#daily-boards``); entering is a form that
leads to the entry's match page.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from sqlalchemy.exc import IntegrityError

from jackpot.web.base.clock import utcnow
from jackpot.web.base.edge.forms import read_form, see_other
from jackpot.web.base.edge.http import current_actor, db_of, settings_of
from jackpot.web.base.edge.templates import render
from jackpot.web.base.errors import ApiError
from jackpot.web.daily.board import board, overview, recent_days
from jackpot.web.daily.deals import VARIANTS, check_day, check_variant, day_of, deal_row
from jackpot.web.daily.entries import already_entered, enter
from jackpot.web.matches.dailies import player_dailies

router = APIRouter(include_in_schema=False)

#: Entries each board on /daily shows; the whole board is a link away.
TOP = 10


@router.get("/daily")
async def daily_page(request: Request) -> Response:
    return await render(request, "daily.html", await _daily_context(request))


async def _daily_context(request: Request, error: str | None = None) -> dict[str, Any]:
    actor = await current_actor(request)
    viewer = actor.user_id if actor else None
    now = utcnow()
    today = day_of(now)
    async with db_of(request).read() as conn:
        summary = await overview(conn, viewer, now)
        boards = {}
        for deal in summary["deals"]:
            row = await deal_row(conn, today, check_variant(deal["variant"]), counted=True)
            boards[deal["variant"]] = await board(conn, row, viewer, now, limit=TOP)
        before = await recent_days(conn, today, 1)
        yesterday = []
        for day in before:
            for v in VARIANTS:
                try:
                    row = await deal_row(conn, day, v, counted=True)
                except ApiError:
                    continue
                yesterday.append(await board(conn, row, viewer, now, limit=TOP))
        mine = (
            await player_dailies(conn, actor.user_id, viewer, now)
            if actor is not None and not actor.is_guest
            else None
        )
    return {
        "summary": summary,
        "boards": boards,
        "yesterday": yesterday,
        "mine": mine,
        "error": error,
    }


@router.post("/daily/{variant}")
async def enter_form(variant: str, request: Request) -> Response:
    """The page's "Play today's deal": to the entry's match page, or the page again
    with what went wrong."""
    await read_form(request)
    actor = await current_actor(request)
    if actor is None or actor.is_guest:
        return see_other("/signup?next=/daily")
    try:
        chosen = check_variant(variant)
        try:
            async with db_of(request).write() as conn:
                match_id = await enter(conn, actor, chosen, utcnow())
        except IntegrityError:
            raise already_entered() from None
    except ApiError as exc:
        ctx = await _daily_context(request, exc.message)
        return await render(request, "daily.html", ctx, status=exc.status)
    return see_other(f"/matches/{match_id}")


@router.get("/daily/{day}/{variant}")
async def board_page(
    day: str,
    variant: str,
    request: Request,
    page: int = Query(1, ge=1, le=100_000),
) -> Response:
    """A day's whole board, a page at a time, with par and the seed once it closed."""
    chosen = check_variant(variant)
    day = check_day(day)
    size = settings_of(request).daily_board_page
    actor = await current_actor(request)
    async with db_of(request).read() as conn:
        deal = await deal_row(conn, day, chosen, counted=True)
        data = await board(
            conn,
            deal,
            actor.user_id if actor else None,
            utcnow(),
            offset=(page - 1) * size,
            limit=size,
        )
    pages = max(1, -(-data["count"] // size))
    # A deal of a day still to come is shown by its commitment alone: nobody plays it yet.
    ahead = day > day_of(utcnow())
    return await render(
        request, "daily_board.html", {"b": data, "page": page, "pages": pages, "ahead": ahead}
    )
