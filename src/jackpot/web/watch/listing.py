"""The matches anyone may watch now: those made to be listed (``on_watch``), under way.

Whatever makes a match says whether it is listed (matches/origin.py): a public
match between people is; a match with a bot or played alone (practice, a daily
entry, whose dice must stay unseen until the day ends) and a private one (an
invitation's) are not. Newest first, at most ``limit`` (JACKPOT_WATCH_LIST_SIZE),
with each person's rating beside their name (matches/seats.py) and the round being
played.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.clock import iso
from jackpot.web.base.storage.snapshots import match_of
from jackpot.web.base.tables import core as t
from jackpot.web.matches.seats import seats_of


async def live_matches(
    conn: AsyncConnection, viewer_id: int | None, limit: int
) -> list[dict[str, Any]]:
    """Public matches between people being played now, newest first, with their seats."""
    rows = (
        await conn.execute(
            select(
                t.matches.c.id,
                t.matches.c.variant,
                t.matches.c.deadline_seconds,
                t.matches.c.started_at,
                t.matches.c.state,
            )
            .where(
                t.matches.c.status == "playing",
                t.matches.c.on_watch.is_(True),
            )
            .order_by(t.matches.c.started_at.desc(), t.matches.c.id)
            .limit(limit)
        )
    ).all()
    seats = await seats_of(conn, [r.id for r in rows], viewer_id)
    return [
        {
            "id": r.id,
            "variant": r.variant,
            "round": m.round if (m := match_of(r._mapping)) is not None else 0,
            "deadline_seconds": r.deadline_seconds,
            "started": iso(r.started_at),
            "seats": [
                {"name": s["name"], "profile": s["profile"], "rating": s["rating"]}
                for s in seats[r.id]
            ],
        }
        for r in rows
    ]
