"""The day's deals: their days in UTC, their seeds made ahead, and looking one up.

A deal's server seed is made, and its commitment shown, at least 24 hours before its
day begins: on day D the step makes the deals of D + 2 (and, on a site started for
the first time, of D and D + 1 at once). The client seed is fixed by the date and
the variant (fair.daily_client_seed), so once the commitment is out the operator
picks nothing more.
"""

from __future__ import annotations

import secrets
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import func, select, true
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot import fair
from jackpot.engine import Variant
from jackpot.i18n.formats import variant_name
from jackpot.web.base.errors import invalid, not_found
from jackpot.web.base.storage.db import Database, publish_on_commit
from jackpot.web.base.tables.daily import daily_deals, daily_entries

#: Every deal's variants, in the order the pages show them.
VARIANTS = (Variant.JACKPOT, Variant.CLASSIC)
#: Days ahead whose deals exist: today's, tomorrow's, and the one after, whose
#: commitment is out a whole day before it begins.
DAYS_AHEAD = 2
#: The bus channel that tells the daily pages to look again (daily/live.py).
DAILY = "daily"


def day_of(now: datetime) -> str:
    """The UTC day ``now`` falls in, written ``YYYY-MM-DD``."""
    return now.astimezone(UTC).date().isoformat()


def closes_at(day: str) -> datetime:
    """The end of ``day``: 00:00 UTC of the next day."""
    return datetime.combine(date.fromisoformat(day) + timedelta(days=1), time(0), UTC)


def shift(day: str, days: int) -> str:
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def check_variant(value: str) -> Variant:
    """The variant a path names, or 422."""
    try:
        return Variant(value)
    except ValueError:
        raise invalid(
            "variant must be 'jackpot' or 'classic', not %(given)s", given=repr(value)
        ) from None


def check_day(value: str) -> str:
    """A day a path names (``YYYY-MM-DD``, one the calendar has), or 422."""
    try:
        return fair.check_daily_date(value)
    except ValueError:
        raise invalid(
            "a day is written YYYY-MM-DD, like 2026-12-06, not %(given)s", given=repr(value)
        ) from None


def ping_daily(conn: AsyncConnection) -> None:
    """Tell the daily pages to look again, once this transaction commits."""
    publish_on_commit(conn, DAILY, [{"type": "daily"}])


async def deal_row(
    conn: AsyncConnection, day: str, variant: Variant, *, counted: bool = False
) -> Any:
    """The deal of ``day`` in ``variant``, or 404; ``counted``: with its number of
    entries (``entries``) and of those finished (``finished``), in the same query."""
    query = select(daily_deals).where(
        daily_deals.c.day == day, daily_deals.c.variant == variant.value
    )
    if counted:
        # One pass over the deal's part of the board's index counts both.
        e = daily_entries
        counts = (
            select(
                func.count().label("entries"),
                func.count().filter(e.c.finished.is_(True)).label("finished"),
            )
            .where(e.c.day == day, e.c.variant == variant.value)
            .subquery()
        )
        query = query.add_columns(counts.c.entries, counts.c.finished).join(counts, true())
    row = (await conn.execute(query)).mappings().first()
    if row is None:
        raise not_found(
            "there is no %(variant)s deal for %(day)s", variant=variant_name(variant.value), day=day
        )
    return row


async def make_deals(db: Database, now: datetime) -> int:
    """Make every deal from today's to the one ``DAYS_AHEAD`` days on that does not
    exist yet; returns how many were missing. Safe in several processes at once: a
    deal another made first is skipped, and its seed stays the one committed to."""
    today = day_of(now)
    rows = [
        {
            "day": day,
            "variant": v.value,
            "server_seed": seed,
            "commitment": fair.commitment(seed),
            "created_at": now,
            "closes_at": closes_at(day),
            # Every deal made from now on: a throw follows the turn and the open tiles,
            # so an entry seen early tells only the throws of the positions it reached.
            "dice": fair.BY_POSITION,
        }
        for day in (shift(today, k) for k in range(DAYS_AHEAD + 1))
        for v in VARIANTS
        for seed in (secrets.token_hex(32),)
    ]
    async with db.read() as conn:
        have = {
            (r.day, r.variant)
            for r in (
                await conn.execute(
                    select(daily_deals.c.day, daily_deals.c.variant).where(
                        daily_deals.c.day >= today
                    )
                )
            ).all()
        }
    missing = [r for r in rows if (r["day"], r["variant"]) not in have]
    if not missing:
        return 0
    async with db.write() as conn:
        insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
        await conn.execute(
            insert(daily_deals).on_conflict_do_nothing(index_elements=["day", "variant"]),
            missing,
        )
        if missing[0]["day"] == today:
            ping_daily(conn)  # today's deals are there now
    return len(missing)
