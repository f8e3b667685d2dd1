"""Turn, match-end and rematch notices: their rows, their timing, the matches awaiting a player.

A move writes its notices in its own transaction, when a person's throw becomes due,
when a seat goes out on time (for it), and when the match ends, for every person but
the one whose own action ended it (listeners.py plans them from what play/ tells):
a player put out by the clock, or one at their own pace with days for a throw, is by
then usually away.
A reminder is written when a turn begins; for each later throw of the same turn the
move rewrites it only if it is close to going out (the news planner, listeners.py,
knows when it goes), and otherwise the workers move it on to the throw then due when its time comes
(``move_early_reminders``): under play, most throws follow the last within seconds,
and rewriting the reminder on each was the dearest statement of a move.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.engine import Match
from jackpot.web.base.clock import iso
from jackpot.web.base.storage.db import Database, insert_ignore
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.notify import notices

#: A turn mail waits this long, so a player who is on the page moves first...
GRACE = timedelta(seconds=60)
#: ...but never more than this share of the throw's time (1/GRACE_SHARE), or with a
#: deadline of a minute the mail would come when the time is up: it must leave time
#: to act on it.
GRACE_SHARE = 5
#: Reminders only for deadlines of at least this many seconds, a fifth before the end.
REMIND_MIN_DEADLINE = 3600
#: A move leaves the pending reminder to the workers only while it goes out later
#: than this from the move's ``now``: the workers' clocks and the move's commit
#: must not catch up with it in between.
REMINDER_LEEWAY = timedelta(minutes=5)
#: Early reminders moved on per pass.
MOVE_BATCH = 100
#: The kinds of news of a match's end: "out" for the seat the clock put out, "ended"
#: for the others when the match ended (listeners.py says who). They stay
#: true once written (still_true in mailbox.py), and follow the turn mail setting; a
#: seat's "ended" goes once it answers a rematch offer (``forget_end_news``).
END_KINDS = ("out", "ended")
#: News that the clock used one of the seat's spare deadlines (listeners.py): as
#: urgent as a reminder (the deadline that started again is the seat's last but one
#: or its last), so no hourly cap holds it back.
SPARE = "spare"


def reminder_key(match_id: str, throws: int, seat: int) -> str:
    """One reminder per throw: the key makes a second one for the same throw impossible."""
    return f"remind:{match_id}:{throws}:{seat}"


def grace(deadline_seconds: int) -> timedelta:
    """How long turn news waits for a player who may be on the page: ``GRACE``, or a
    fifth of the throw's time when that is shorter."""
    return min(GRACE, timedelta(seconds=deadline_seconds / GRACE_SHARE))


def reminder_time(due_at: datetime, deadline_seconds: int) -> datetime:
    """A reminder goes out when a fifth of the throw's time is left."""
    return due_at - timedelta(seconds=deadline_seconds / 5)


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
    (listeners.plan_news). Only matches between people count: against bots the
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
                "send_after": now + grace(deadline),
            }
        )
    drop_reminder = deadline >= REMIND_MIN_DEADLINE
    if drop_reminder:
        # One reminder waits per match: the throw before this one has been made.
        rows.append(
            {
                **base,
                "key": reminder_key(match_id, m.throws, turn.seat),
                "kind": "reminder",
                "send_after": reminder_time(due_at, deadline),
            }
        )
    return drop_reminder, rows


async def forget_end_news(conn: AsyncConnection, match_id: str, seat: int) -> None:
    """A seat offers, accepts or declines a rematch: it knows the match is over, so
    its "ended" news, if not gone yet, would be no news (mail and push alike: both
    workers skip a notice that is no longer there)."""
    await conn.execute(delete(notices).where(notices.c.key == f"ended:{match_id}:{seat}"))


async def move_early_reminders(db: Database, now: datetime) -> int:
    """Move on the reminders whose time has come while the same seat's turn goes on
    with a later throw due (the moves of a turn leave its reminder as it was, see
    above): each is rewritten for the throw due now, under that throw's key, and goes
    out when a fifth of its time is left. Both workers call this before they read
    what is due, so neither sends or drops a reminder meant for an earlier throw of
    a turn still being played. Returns how many were moved."""
    async with db.read() as conn:
        early = (
            await conn.execute(
                select(
                    notices.c.id,
                    notices.c.key,
                    notices.c.match_id,
                    notices.c.seat,
                    t.matches.c.due_at,
                    t.matches.c.deadline_seconds,
                    t.matches.c.state,
                )
                .join(t.matches, t.matches.c.id == notices.c.match_id)
                .where(
                    notices.c.kind == "reminder",
                    notices.c.status == "pending",
                    notices.c.send_after <= now,
                    t.matches.c.status == "playing",
                    t.matches.c.turn_seat == notices.c.seat,
                    t.matches.c.due_at > notices.c.due_at,
                )
                .limit(MOVE_BATCH)
            )
        ).all()
    if not early:
        return 0
    async with db.write() as conn:
        for n in early:
            key = reminder_key(n.match_id, int(n.state["throws"]), n.seat)
            taken = (
                await conn.execute(select(notices.c.id).where(notices.c.key == key))
            ).first()
            # A reminder for that throw exists already (written by a move): this
            # one has nothing left to say.
            values: dict[str, Any] = (
                {"status": "dropped"}
                if taken is not None
                else {
                    "key": key,
                    "due_at": n.due_at,
                    "send_after": reminder_time(n.due_at, n.deadline_seconds),
                    "attempts": 0,
                }
            )
            await conn.execute(
                update(notices)
                .where(notices.c.id == n.id, notices.c.key == n.key, notices.c.status == "pending")
                .values(**values)
            )
    return len(early)


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
