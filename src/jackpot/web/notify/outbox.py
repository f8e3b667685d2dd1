"""The mail outboxes' shared rules: a worker's lease, the backoff, the leased send loop.

Used by the turn mails (lease and backoff), the push sender and the reset and
confirmation mails (the whole loop).

Each outbox row is claimed with a conditional UPDATE before its mail goes, so
several sweepers may run at once and none sends a row another holds; a worker that
dies mid-send lets its lease run out and the row is sent again (at least once). One
row's failure is logged and the batch goes on.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Table, func, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.env_values import Rate
from jackpot.web.base.storage.db import Database

LEASE = timedelta(minutes=5)
MAX_ATTEMPTS = 8
#: Rows a worker takes from one outbox in one pass.
BATCH = 50

log = logging.getLogger("jackpot.outbox")


def backoff(attempts: int) -> timedelta:
    """Wait after the ``attempts``-th failure: 1, 2, 4 ... minutes, at most an hour."""
    return timedelta(seconds=min(60 * 2 ** max(attempts - 1, 0), 3600))


def unleased(table: Table, now: datetime) -> ColumnElement[bool]:
    """Rows no worker holds at ``now``."""
    return or_(table.c.lease_until.is_(None), table.c.lease_until < now)


async def queue(
    conn: AsyncConnection, table: Table, user_id: int, limit: Rate | None, now: datetime,
    **values: Any,
) -> bool:
    """A row for the account's next mail, unless ``limit`` rows were queued for it
    within the limit's window already; True if one was queued."""
    if limit is not None:
        since = now - timedelta(seconds=limit.window)
        recent = (
            await conn.execute(
                select(func.count())
                .select_from(table)
                .where(table.c.user_id == user_id, table.c.created_at > since)
            )
        ).scalar_one()
        if recent >= limit.count:
            return False
    await conn.execute(
        insert(table).values(
            user_id=user_id, created_at=now, status="pending", attempts=0, send_after=now,
            **values,
        )
    )
    return True


async def claim(db: Database, table: Table, row_id: int, now: datetime) -> bool:
    """Take a pending row for this worker until the lease ends; False if another has it."""
    async with db.write() as conn:
        res = await conn.execute(
            update(table)
            .where(table.c.id == row_id, table.c.status == "pending", unleased(table, now))
            .values(lease_until=now + LEASE)
        )
        return res.rowcount == 1


def failed_send(attempts: int, exc: Exception, now: datetime) -> dict[str, Any]:
    """A row's new values after its ``attempts``-th send failed: retried later, or
    given up after ``MAX_ATTEMPTS``."""
    return {
        "attempts": attempts,
        "lease_until": None,
        "send_after": now + backoff(attempts),
        "status": "failed" if attempts >= MAX_ATTEMPTS else "pending",
        "error": str(exc)[:200],
    }


async def mark_sent(db: Database, table: Table, row_id: int, attempts: int) -> None:
    async with db.write() as conn:
        await conn.execute(
            update(table)
            .where(table.c.id == row_id)
            .values(status="sent", lease_until=None, attempts=attempts)
        )


async def send_due(
    db: Database,
    table: Table,
    now: datetime,
    send_one: Callable[[int], Awaitable[bool]],
    what: str,
) -> int:
    """Run ``send_one`` on each row that is due and unleased, oldest first; how many
    it sent."""
    async with db.read() as conn:
        due = (
            await conn.execute(
                select(table.c.id)
                .where(table.c.status == "pending", table.c.send_after <= now, unleased(table, now))
                .order_by(table.c.id)
                .limit(BATCH)
            )
        ).all()
    sent = 0
    for (row_id,) in due:
        try:
            sent += await send_one(row_id)
        except Exception:  # one mail's trouble must not stop the others
            log.exception("%s %s failed", what, row_id)
    return sent
