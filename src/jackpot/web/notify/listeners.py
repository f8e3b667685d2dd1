"""What notify/ hears of play/: the news a move leaves, a match's end, a rematch offer.

The app registers these with play/ at start-up (web/wiring.py): play/ never imports
notify/. A move's news is planned with the move itself, from its facts alone, and
written in the move's own statements (the mail and push workers read the rows
later); a match's end and a rematch offer come with their transaction, and what
they write commits with it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.engine import SeatOut, SpareUsed, TurnStarted
from jackpot.web.base.storage.db import insert_ignore, publish_on_commit
from jackpot.web.base.tables.notify import notices
from jackpot.web.matches.news import KnownNews, MatchEnd, MoveFacts, News, RematchNews
from jackpot.web.notify.notices import (
    GRACE,
    REMINDER_LEEWAY,
    due_notices,
    forget_end_news,
    note_rematch,
)
from jackpot.web.notify.user_hub import POKE, channel


def plan_news(facts: MoveFacts) -> News:
    """The notices a move writes: the turn mail and reminder when a person's throw
    becomes due, "spare" for each person whose passed deadline used a spare, "out"
    for each person the clock put out; and who is now known to
    have no turn news waiting (a seat's own move deletes its own, unsent)."""
    quiet = set(facts.known.quiet)
    drop_turn = None
    if facts.mover is not None and facts.mover not in quiet:
        # They are here: a turn mail not sent yet would be no news to them. (After
        # their first move of a turn there is none: a statement a move saved.)
        drop_turn = facts.mover
        quiet.add(facts.mover)
    replaces_reminder, turn_rows = _turn_notices(facts)
    # Before the reminder, which stays last (move_statements.MoveWrites.notices).
    rows = [*_spare_notices(facts), *_out_notices(facts), *turn_rows]
    quiet.difference_update(n["seat"] for n in rows if n["kind"] == "turn")
    reminder_at = facts.known.reminder_at
    if rows and rows[-1]["kind"] == "reminder":
        reminder_at = rows[-1]["send_after"]
    return News(rows, replaces_reminder, drop_turn, KnownNews(frozenset(quiet), reminder_at))


def _turn_notices(facts: MoveFacts) -> tuple[bool, list[dict[str, Any]]]:
    """When a new throw is due from a person: the mail it may need, and True when the
    last row is a reminder replacing the match's pending one."""
    row, m = facts.row, facts.match
    if facts.due_at is None or facts.due_at == row["due_at"]:
        return False, []
    turn = m.turn
    became_turn = turn is not None and (
        row["turn_seat"] != turn.seat or any(isinstance(ev, TurnStarted) for ev in facts.events)
    )
    reminder_at = facts.known.reminder_at
    if not became_turn and reminder_at is not None and reminder_at > facts.now + REMINDER_LEEWAY:
        # The same turn goes on: its reminder, written by this process and not
        # due for a while, is moved on to this throw by the workers when its
        # time comes (notices.move_early_reminders), not rewritten on every throw.
        return False, []
    return due_notices(row, list(facts.seat_rows), m, facts.due_at, became_turn, facts.now)


def _people(seat_rows: Any) -> list[int]:
    return [s["seat"] for s in seat_rows if not s["is_bot"] and s["user_id"] is not None]


def _notice(
    row: Any, seat_rows: Any, seat: int, kind: str, round_: int, now: datetime
) -> dict[str, Any]:
    """One notice of a match's end for ``seat`` (one of each kind per seat and match:
    the key)."""
    match_id = row["id"]
    return {
        "key": f"{kind}:{match_id}:{seat}",
        "user_id": seat_rows[seat]["user_id"],
        "match_id": match_id,
        "seat": seat,
        "kind": kind,
        "round": round_,
        "due_at": None,
        "status": "pending",
        "attempts": 0,
        "created_at": now,
        "send_after": now + GRACE,
    }


def _spare_notices(facts: MoveFacts) -> list[dict[str, Any]]:
    """One "spare" for each person whose passed deadline used a spare in this move
    (one per spare: the key counts them down), with the deadline that started again:
    whoever missed a deadline is usually away, and has one less to lose now."""
    people = _people(facts.seat_rows)
    row, m = facts.row, facts.match
    return [
        {
            **_notice(row, facts.seat_rows, ev.seat, "spare", m.round, facts.now),
            "key": f"spare:{row['id']}:{ev.seat}:{ev.left}",
            "due_at": facts.due_at,
        }
        for ev in facts.events
        if isinstance(ev, SpareUsed) and ev.seat in people
    ]


def _out_notices(facts: MoveFacts) -> list[dict[str, Any]]:
    """One "out" for each person the clock put out in this move (one per seat and
    match: the key): a player put out by the clock is by then usually away. Not in a
    match with no clock per throw (a daily entry, ended with its day): nobody's
    time for a move ran out, and the day's board says how it ended."""
    if facts.row["deadline_seconds"] is None:
        return []
    people = _people(facts.seat_rows)
    return [
        _notice(facts.row, facts.seat_rows, ev.seat, "out", facts.match.round, facts.now)
        for ev in facts.events
        if isinstance(ev, SeatOut) and ev.reason == "timeout" and ev.seat in people
    ]


async def end_news(conn: AsyncConnection, end: MatchEnd) -> None:
    """When a match under way ends, "ended" for each person of it: for those still in
    when the clock ended it (those it put out were told "out"), for every person when
    play or a resignation did, but never for ``on_page``, whose own action it was.
    A player at their own pace, with days for a throw, is by then usually away."""
    if end.match is None:
        return  # called off before it started: nobody had played
    people = _people(end.seat_rows)
    clock_outs = any(isinstance(ev, SeatOut) and ev.reason == "timeout" for ev in end.events)
    told = [s for s in people if end.match.out[s] is None] if clock_outs else people
    rows = [
        _notice(end.row, end.seat_rows, seat, "ended", end.match.round, end.now)
        for seat in told
        if seat != end.on_page
    ]
    if rows:
        await conn.execute(insert_ignore(conn, notices, "key"), rows)


async def rematch_news(conn: AsyncConnection, news: RematchNews) -> None:
    """A seat that offers, accepts or declines a rematch knows the match is over:
    its "ended" news, if not gone yet, is withdrawn. A fresh offer is news for the
    other people of the match. Every player's live stream looks again once the
    transaction commits (notify/stream.py)."""
    await forget_end_news(conn, news.match_id, news.seat)
    if news.offered:
        await note_rematch(
            conn, news.match_id, list(news.seat_rows), news.seat, news.version, news.now
        )
    for user_id in {s["user_id"] for s in news.seat_rows if s["user_id"] is not None}:
        publish_on_commit(conn, channel(int(user_id)), [POKE])
