"""The matches anyone may watch now: public, between people, under way.

Not a match with a bot or played alone (practice, a daily entry, whose dice must stay
unseen until the day ends), nor a private one (an invitation's). Newest first, at
most ``limit`` (JACKPOT_WATCH_LIST_SIZE), with each person's rating beside their name
(matches/seats.py) and the round being played.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import exists, select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.clock import iso
from jackpot.web.base.storage.snapshots import match_of
from jackpot.web.base.tables import core as t
from jackpot.web.matches.seats import seats_of


async def live_matches(
    conn: AsyncConnection, viewer_id: int | None, limit: int
) -> list[dict[str, Any]]:
    """Public matches between people being played now, newest first, with their seats."""
    bot_seat = exists().where(t.seats.c.match_id == t.matches.c.id, t.seats.c.is_bot.is_(True))
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
                t.matches.c.private.is_(False),
                t.matches.c.seat_count >= 2,
                t.matches.c.seed_hidden_until.is_(None),
                ~bot_seat,
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
