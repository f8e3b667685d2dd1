"""Turn notices that moves write, rematch notices, and the matches awaiting a player.

A move writes its notices in its own transaction, when a person's throw becomes due.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.engine import Match
from jackpot.web.base import models as t
from jackpot.web.base.clock import iso
from jackpot.web.base.db import insert_ignore
from jackpot.web.base.models_notify import notices

#: A turn mail waits this long, so a player who is on the page moves first.
GRACE = timedelta(seconds=60)
#: Reminders only for deadlines of at least this many seconds, a fifth before the end.
REMIND_MIN_DEADLINE = 3600


def due_notices(
    row: Any,
    seat_rows: list[Any],
    m: Match,
    due_at: datetime | None,
    became_turn: bool,
    now: datetime,
) -> tuple[bool, list[dict[str, Any]]]:
    """What a player must be told now that a new throw of theirs is due: whether to
    drop the match's pending reminder, and the ``notices`` rows to add (skipping
    any whose key exists; the reminder last, which the caller may rewrite the
    pending one into instead).

    The move that made the throw due writes them in its own transaction
    (``MoveTx.save`` in play/transaction.py). Only matches between people count: against bots the
    player is the one who just moved, so "it is your throw" would be no news.
    """
    turn = m.turn
    if turn is None or due_at is None:
        return False, []
    seat = seat_rows[turn.seat]
    if seat["is_bot"] or seat["user_id"] is None:
        return False, []
    if sum(1 for s in seat_rows if not s["is_bot"]) < 2:
        return False, []
    match_id = row["id"]
    deadline = int(row["deadline_seconds"])
    base = {
        "user_id": seat["user_id"],
        "match_id": match_id,
        "seat": turn.seat,
        "round": m.round,
        "due_at": due_at,
        "status": "pending",
        "attempts": 0,
        "created_at": now,
    }
    rows = []
    if became_turn:
        rows.append(
            {
                **base,
                "key": f"turn:{match_id}:{m.round}:{turn.seat}",
                "kind": "turn",
                "send_after": now + GRACE,
            }
        )
    drop_reminder = deadline >= REMIND_MIN_DEADLINE
    if drop_reminder:
        # One reminder waits per match: the throw before this one has been made.
        rows.append(
            {
                **base,
                "key": f"remind:{match_id}:{m.throws}:{turn.seat}",
                "kind": "reminder",
                "send_after": due_at - timedelta(seconds=deadline / 5),
            }
        )
    return drop_reminder, rows


async def note_rematch(
    conn: AsyncConnection, match_id: str, seat_rows: list[Any], by: int, version: int, now: datetime
) -> None:
    """A fresh rematch offer: tell the other people of the match (they may have left
    its page long ago). One notice per seat per offer; it is dropped unsent if the
    seat accepts or the offer closes first."""
    rows = [
        {
            "key": f"rematch:{match_id}:{version}:{s['seat']}",
            "user_id": s["user_id"],
            "match_id": match_id,
            "seat": s["seat"],
            "kind": "rematch",
            "round": version,
            "due_at": None,
            "status": "pending",
            "attempts": 0,
            "created_at": now,
            "send_after": now + GRACE,
        }
        for s in seat_rows
        if not s["is_bot"] and s["user_id"] is not None and s["seat"] != by
    ]
    if rows:
        await conn.execute(insert_ignore(conn, notices, "key"), rows)


async def waiting_turns(conn: AsyncConnection, user_id: int) -> list[dict[str, Any]]:
    """Matches between people where it is this player's throw (for the tab title and
    the browser's notifications)."""
    h = t.seats.alias("h")
    humans = (
        select(func.count())
        .select_from(h)
        .where(and_(h.c.match_id == t.matches.c.id, h.c.is_bot.is_(False)))
        .scalar_subquery()
    )
    rows = (
        await conn.execute(
            select(t.matches.c.id, t.matches.c.variant, t.matches.c.due_at)
            .join(t.seats, t.seats.c.match_id == t.matches.c.id)
            .where(
                t.seats.c.user_id == user_id,
                t.seats.c.is_bot.is_(False),
                t.matches.c.status == "playing",
                t.matches.c.turn_seat == t.seats.c.seat,
                humans >= 2,
            )
            .order_by(t.matches.c.due_at)
            .limit(50)
        )
    ).all()
    return [{"id": r.id, "variant": r.variant, "due_at": iso(r.due_at)} for r in rows]
