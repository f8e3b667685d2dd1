"""The day's board and today's deals, as the API and the pages show them.

The board lists a deal's finished entries best first (more jackpots, then the lower
total; equal results share a place: standard competition ranking, as
engine.daily_places), then the entries still being played, unplaced. A page of it
is one index range (base/tables/daily.py's ``ix_daily_entries_board``), and its
places follow from one count of the entries above its first row, so a page costs
what it shows, not the deal's size (bench/daily_board.py measures it). Nothing here
tells the dice before the day ends: entries' matches are linked once it has.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.engine import TURNS, DailyResult, versus_par
from jackpot.web.base.clock import iso
from jackpot.web.base.storage.snapshots import match_of
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.daily import daily_deals, daily_entries
from jackpot.web.daily.deals import VARIANTS, closes_at, day_of
from jackpot.web.matches.dailies import place_of
from jackpot.web.matches.disclosure import deal_seed, entry_shown

e = daily_entries
#: The board's order: more jackpots first, then the lower total; the earlier entry
#: first among equal results (they share a place either way).
BOARD_ORDER = (e.c.jackpots.desc(), e.c.total, e.c.entered_at, e.c.match_id)


def so_far(turn_scores: Sequence[int]) -> dict[str, Any]:
    """A result so far: the finished turns' scores, their jackpots and their sum."""
    scores = [int(s) for s in turn_scores]
    return {"turn_scores": scores, "jackpots": scores.count(0), "total": sum(scores)}


def _row(
    r: Any, place: int | None, closes_at: datetime, viewer_id: int | None, now: datetime
) -> dict[str, Any]:
    playing = None if r.finished else match_of(r._mapping)
    result = (
        {"turn_scores": r.turn_scores, "jackpots": r.jackpots, "total": r.total}
        if playing is None
        else so_far(list(playing.turn_scores))
    )
    you = viewer_id is not None and r.user_id == viewer_id
    return {
        "name": r.name,
        "place": place,
        **result,
        "finished": bool(r.finished),
        "ending": r.ending,
        "match": r.match_id if entry_shown(closes_at, r.user_id, viewer_id, now) else None,
        "you": you,
    }


def places(rows: Sequence[Any], offset: int, above: int) -> list[int]:
    """The places of a page of the board (in its order, from position ``offset``) whose
    first entry has ``above`` entries ranked strictly above it: an entry whose result
    differs from the one before it has every entry before it above it, so its place is
    its position; an equal result shares the place before."""
    keys = [(r.jackpots, r.total) for r in rows]
    out: list[int] = []
    for i, key in enumerate(keys):
        if i and key == keys[i - 1]:
            out.append(out[-1])
        else:
            out.append(above + 1 if i == 0 else offset + i + 1)
    return out


async def ranked_above(conn: AsyncConnection, deal: Any, entry: Any) -> int:
    """How many finished entries of ``deal`` have a better result than ``entry``: one
    range of the board's index."""
    jackpots, total = entry.jackpots, entry.total
    return int(
        (
            await conn.execute(
                select(func.count()).where(
                    e.c.day == deal["day"],
                    e.c.variant == deal["variant"],
                    e.c.finished.is_(True),
                    (e.c.jackpots > jackpots) | ((e.c.jackpots == jackpots) & (e.c.total < total)),
                )
            )
        ).scalar_one()
    )


def _columns() -> list[Any]:
    return [
        e.c.match_id,
        e.c.name,
        e.c.user_id,
        e.c.finished,
        e.c.ending,
        e.c.jackpots,
        e.c.total,
        e.c.turn_scores,
    ]


async def board(
    conn: AsyncConnection,
    deal: Any,
    viewer_id: int | None,
    now: datetime,
    offset: int = 0,
    limit: int = 100,
) -> dict[str, Any]:
    """Entries ``offset`` to ``offset + limit`` of ``deal``'s board (``deal``: read with
    its counts, deals.deal_row's ``counted``), with the deal, par once the day has
    closed, and the viewer's own entry wherever it stands."""
    mine = (e.c.day == deal["day"]) & (e.c.variant == deal["variant"])
    total, finished = int(deal["entries"]), int(deal["finished"])
    rows: list[dict[str, Any]] = []
    if offset < finished and limit:
        placed = (
            await conn.execute(
                select(*_columns())
                .where(mine, e.c.finished.is_(True))
                .order_by(*BOARD_ORDER)
                .offset(offset)
                .limit(limit)
            )
        ).all()
        # The first page's first entry has nobody above it.
        above = await ranked_above(conn, deal, placed[0]) if offset else 0
        rows += [
            _row(r, place, deal["closes_at"], viewer_id, now)
            for r, place in zip(placed, places(placed, offset, above), strict=True)
        ]
    if len(rows) < limit and offset + len(rows) < total:
        playing = (
            select(*_columns(), t.matches.c.state)
            .join(t.matches, t.matches.c.id == e.c.match_id)
            .where(mine, e.c.finished.is_(False))
            .order_by(e.c.entered_at, e.c.match_id)
            .offset(max(0, offset - finished))
            .limit(limit - len(rows))
        )
        rows += [
            _row(r, None, deal["closes_at"], viewer_id, now)
            for r in (await conn.execute(playing)).all()
        ]
    closed = deal["closed_at"] is not None
    you = await own_entry(conn, deal["day"], deal["variant"], viewer_id)
    if closed and you is not None and you["result"] is not None and deal["par"]:
        par = DailyResult.from_dict(deal["par"])
        you["versus_par"] = asdict(versus_par(DailyResult.from_dict(you["result"]), par))
    return {
        "date": deal["day"],
        "variant": deal["variant"],
        "commitment": deal["commitment"],
        "server_seed": deal_seed(deal),
        "closes_at": iso(deal["closes_at"]),
        "closed": closed,
        "count": total,
        "finished": finished,
        "offset": offset,
        "entries": rows,
        "par": deal["par"] if closed else None,
        "you": you,
    }


async def own_entry(
    conn: AsyncConnection, day: str, variant: str, viewer_id: int | None
) -> dict[str, Any] | None:
    """The viewer's entry in a deal: its match, where it stands, and its place (so far,
    or final once the day closed); None if they have none."""
    if viewer_id is None:
        return None
    r = (
        await conn.execute(
            select(*_columns(), place_of(e).label("place"), t.matches.c.state)
            .join(t.matches, t.matches.c.id == e.c.match_id)
            .where(e.c.day == day, e.c.variant == variant, e.c.user_id == viewer_id)
        )
    ).first()
    if r is None:
        return None
    state = r.state or {}
    return {
        "match": r.match_id,
        "finished": bool(r.finished),
        "ending": r.ending,
        "result": (
            {"turn_scores": r.turn_scores, "jackpots": r.jackpots, "total": r.total}
            if r.finished
            else None
        ),
        "so_far": so_far(state.get("turn_scores", [])),
        "turn": int(state.get("round", 1)),
        "place": r.place,
    }


async def overview(conn: AsyncConnection, viewer_id: int | None, now: datetime) -> dict[str, Any]:
    """Today's deals (each with its entries and the viewer's own entry) and the deals
    of the days ahead, whose commitments are out before they begin."""
    today = day_of(now)
    deals = (
        (
            await conn.execute(
                select(daily_deals)
                .where(daily_deals.c.day >= today)
                .order_by(daily_deals.c.day, daily_deals.c.variant)
            )
        )
        .mappings()
        .all()
    )
    counts = {
        variant: int(n)
        for variant, n in (
            await conn.execute(
                select(e.c.variant, func.count()).where(e.c.day == today).group_by(e.c.variant)
            )
        ).all()
    }
    order = [v.value for v in VARIANTS]
    today_deals = sorted(
        (d for d in deals if d["day"] == today), key=lambda d: order.index(d["variant"])
    )
    return {
        "date": today,
        "closes_at": iso(closes_at(today)),
        "deals": [
            {
                "variant": d["variant"],
                "turns": TURNS,
                "commitment": d["commitment"],
                # When the seed was really made (its commitment shown from then on).
                "made_at": iso(d["created_at"]),
                "entries": int(counts.get(d["variant"], 0)),
                "entry": await own_entry(conn, today, d["variant"], viewer_id),
            }
            for d in today_deals
        ],
        "next": [
            {
                "date": d["day"],
                "variant": d["variant"],
                "commitment": d["commitment"],
                "made_at": iso(d["created_at"]),
            }
            for d in deals
            if d["day"] > today
        ],
    }


async def recent_days(conn: AsyncConnection, before: str, days: int) -> list[str]:
    """The latest ``days`` days before ``before`` that had deals, newest first."""
    return [
        d
        for (d,) in (
            await conn.execute(
                select(daily_deals.c.day)
                .where(daily_deals.c.day < before)
                .distinct()
                .order_by(daily_deals.c.day.desc())
                .limit(days)
            )
        ).all()
    ]
