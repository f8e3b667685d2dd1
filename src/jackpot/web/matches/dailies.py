"""A player's daily entries: their history, their best, and their days in a row.

Read from the daily deal's tables (base/tables/daily.py) for the pages that show a
player (the profile, My matches) and for the daily deal's own pages. An entry's
place is the one fixed when its day closed, or, before that, its place so far among
the deal's finished entries: more jackpots first, then the lower total, equal
results sharing a place. An entry's match (its dice) is shown to others only once
its day has ended: until then everyone else may still be playing the same dice.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.sql.selectable import Alias, TableClause

from jackpot.web.base.clock import iso
from jackpot.web.base.tables.daily import daily_deals, daily_entries
from jackpot.web.matches.disclosure import entry_shown

#: Entries a player's page lists (the newest).
RECENT = 14


def ranks_above(e: Alias | TableClause) -> ColumnElement[int]:
    """How many finished entries of ``e``'s deal rank strictly above ``e``."""
    other = daily_entries.alias("above")
    return (
        select(func.count())
        .select_from(other)
        .where(
            other.c.day == e.c.day,
            other.c.variant == e.c.variant,
            other.c.finished.is_(True),
            or_(
                other.c.jackpots > e.c.jackpots,
                and_(other.c.jackpots == e.c.jackpots, other.c.total < e.c.total),
            ),
        )
        .scalar_subquery()
    )


def place_of(e: Alias | TableClause) -> ColumnElement[int | None]:
    """``e``'s place: fixed when its day closed, else so far (None while played)."""
    return func.coalesce(e.c.place, case((e.c.finished.is_(True), ranks_above(e) + 1)))


def entries_of_deal(e: Alias | TableClause) -> ColumnElement[int]:
    """How many entries ``e``'s deal has."""
    other = daily_entries.alias("all_entries")
    return (
        select(func.count())
        .select_from(other)
        .where(other.c.day == e.c.day, other.c.variant == e.c.variant)
        .scalar_subquery()
    )


def days_in_a_row(days: list[str], today: str) -> int:
    """Consecutive UTC days with an entry, counted back from today (or from yesterday
    while today has none yet: a run is not lost before the day is over)."""
    have = set(days)
    day = date.fromisoformat(today)
    if today not in have:
        day -= timedelta(days=1)
    run = 0
    while day.isoformat() in have:
        run += 1
        day -= timedelta(days=1)
    return run


def entry_view(r: Any, viewer_id: int | None, now: datetime) -> dict[str, Any]:
    """One entry as the pages show it; its match only to its player until its day
    has ended."""
    return {
        "date": r.day,
        "variant": r.variant,
        "match": r.match_id if entry_shown(r.closes_at, r.user_id, viewer_id, now) else None,
        "finished": bool(r.finished),
        "ending": r.ending,
        "jackpots": r.jackpots,
        "total": r.total,
        "place": r.place_now,
        "entries": r.entries,
        "closed": r.closed_at is not None,
        "closes_at": iso(r.closes_at),
    }


def _entries_select() -> Any:
    e = daily_entries
    return select(
        e.c.match_id,
        e.c.day,
        e.c.variant,
        e.c.user_id,
        e.c.finished,
        e.c.ending,
        e.c.jackpots,
        e.c.total,
        place_of(e).label("place_now"),
        entries_of_deal(e).label("entries"),
        daily_deals.c.closes_at,
        daily_deals.c.closed_at,
    ).join(
        daily_deals,
        and_(daily_deals.c.day == e.c.day, daily_deals.c.variant == e.c.variant),
    )


async def player_dailies(
    conn: AsyncConnection, user_id: int, viewer_id: int | None, now: datetime
) -> dict[str, Any]:
    """The player's dailies: days in a row, the best entry of each variant, and the
    newest entries; a handful of queries, however long the history."""
    e = daily_entries
    days = [
        d
        for (d,) in (
            await conn.execute(
                select(e.c.day).where(e.c.user_id == user_id).distinct().order_by(e.c.day.desc())
            )
        ).all()
    ]
    recent = (
        await conn.execute(
            _entries_select()
            .where(e.c.user_id == user_id)
            .order_by(e.c.day.desc(), e.c.variant.desc())
            .limit(RECENT)
        )
    ).all()
    best = []
    for variant in ("jackpot", "classic"):
        top = (
            await conn.execute(
                _entries_select()
                .where(e.c.user_id == user_id, e.c.variant == variant, e.c.finished.is_(True))
                .order_by(e.c.jackpots.desc(), e.c.total, e.c.day)
                .limit(1)
            )
        ).first()
        if top is not None:
            best.append(entry_view(top, viewer_id, now))
    today = now.astimezone(UTC).date().isoformat()
    return {
        "days_in_a_row": days_in_a_row(days, today),
        "days": len(days),
        "played_today": today in days,
        "best": best,
        "recent": [entry_view(r, viewer_id, now) for r in recent],
    }
