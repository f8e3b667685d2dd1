"""The day's close at 00:00 UTC, and the daily deal's background steps.

When a day ends, every entry still being played ends through play/'s action for
a throw whose time ran out (``actions.timeout``: an entry's one clock is its day's
close, so its unfinished turn and every later one score 45), so its events, its
record and its end (the board's row, by the end listener) are what any other ending
makes. Then par (the
best bot on the same dice, from the seed now public) and the final places are
fixed, and the deal is marked closed. Every step claims its rows with a
conditional UPDATE, so several processes may run it at once; ``now`` is the
caller's, so a test can move the clock.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from functools import partial
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot import fair
from jackpot.engine import DailyResult, daily_places
from jackpot.fair.par import daily_par
from jackpot.web.base.clock import utcnow
from jackpot.web.base.errors import ApiError
from jackpot.web.base.settings import Settings
from jackpot.web.base.steps import Step
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.daily import daily_deals, daily_entries
from jackpot.web.daily.deals import make_deals, ping_daily
from jackpot.web.play import actions

#: Deals, or entries of a deal, one pass takes on.
BATCH = 200
#: Seconds between two passes that make the deals ahead (one a day is needed).
DEALS_EVERY = 600.0


async def playing_entries(db: Database, day: str, variant: str) -> list[Any]:
    """Up to ``BATCH`` entries of the deal still being played: (match id, version)."""
    async with db.read() as conn:
        return list(
            (
                await conn.execute(
                    select(t.matches.c.id, t.matches.c.version)
                    .join(daily_entries, daily_entries.c.match_id == t.matches.c.id)
                    .where(
                        daily_entries.c.day == day,
                        daily_entries.c.variant == variant,
                        t.matches.c.status == "playing",
                    )
                    .limit(BATCH)
                )
            ).all()
        )


async def end_entries(db: Database, day: str, variant: str, now: datetime) -> bool:
    """End up to ``BATCH`` entries of the deal still being played, each in its own
    transaction; True once none is left (else another process, or the next pass,
    takes the rest)."""
    for match_id, version in await playing_entries(db, day, variant):
        try:
            async with db.write() as conn:
                await actions.timeout(conn, match_id, version, now)
        except ApiError:
            continue  # the player (or another process) moved it first: seen next pass
    return not await playing_entries(db, day, variant)


async def fix_board(conn: AsyncConnection, deal: Any, par: DailyResult, now: datetime) -> bool:
    """Par and the final places of a deal whose entries have all ended, and the deal
    marked closed; False if another process closed it first."""
    claimed = await conn.execute(
        update(daily_deals)
        .where(
            daily_deals.c.day == deal.day,
            daily_deals.c.variant == deal.variant,
            daily_deals.c.closed_at.is_(None),
        )
        .values(closed_at=now, par=par.to_dict())
    )
    if claimed.rowcount != 1:
        return False
    e = daily_entries
    rows = (
        await conn.execute(
            select(e.c.match_id, e.c.jackpots, e.c.total).where(
                e.c.day == deal.day, e.c.variant == deal.variant, e.c.finished.is_(True)
            )
        )
    ).all()
    places = daily_places([DailyResult((), r.jackpots, r.total) for r in rows])
    if rows:
        await conn.execute(
            update(e).where(e.c.match_id == bindparam("entry")).values(place=bindparam("at")),
            [{"entry": r.match_id, "at": p} for r, p in zip(rows, places, strict=True)],
        )
    ping_daily(conn)
    return True


async def close_days(db: Database, now: datetime | None = None) -> int:
    """Close every deal whose day ended by ``now``; returns how many this call closed."""
    now = now or utcnow()
    async with db.read() as conn:
        due = (
            await conn.execute(
                select(
                    daily_deals.c.day,
                    daily_deals.c.variant,
                    daily_deals.c.server_seed,
                    daily_deals.c.dice,
                )
                .where(daily_deals.c.closed_at.is_(None), daily_deals.c.closes_at <= now)
                .order_by(daily_deals.c.closes_at, daily_deals.c.variant)
                .limit(BATCH)
            )
        ).all()
    closed = 0
    for deal in due:
        if not await end_entries(db, deal.day, deal.variant, now):
            continue  # more entries than a pass ends: the next pass closes it
        # Worked out before the write transaction, which must not wait on anything
        # while it holds SQLite's one writer.
        par = await asyncio.to_thread(
            partial(daily_par, by_position=deal.dice == fair.BY_POSITION),
            deal.server_seed,
            deal.day,
            deal.variant,
        )
        async with db.write() as conn:
            closed += await fix_board(conn, deal, par.result, now)
    return closed


def daily_steps(db: Database, settings: Settings) -> list[Step]:
    """The daily deal's background steps: the deals ahead made (at once on start-up,
    then every ten minutes), and each day closed when it ends."""

    async def deals() -> int:
        return await make_deals(db, utcnow())

    return [
        Step("daily deals", DEALS_EVERY, deals),
        Step("daily close", settings.sweep_interval, lambda: close_days(db)),
    ]
