"""The actions on a match in play (throw, cover, resign, timeout or spare, round end, autoplay).

Each is one transaction, and every entry point calls it (the move service moves.py
for the API, the fast lane and the match's WebSocket; the sweeper for timeouts).
Each is a step that transaction.py's ``run_move`` applies to the match in its
transaction; a player's throw or cover may first be worked out from the match this
process kept (``prepare``), outside it. Creating and joining are in seating.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.strategy.autoplay import AutoplayPrefs
from jackpot.web.base.clock import utcnow
from jackpot.web.base.errors import ApiError, conflict, forbidden, invalid
from jackpot.web.base.identity import Actor
from jackpot.web.base.storage.db import Database
from jackpot.web.matches.store import match_row, seat_rows
from jackpot.web.play.move_plan import MovePlan
from jackpot.web.play.outcome import Outcome
from jackpot.web.play.seating import leave_waiting
from jackpot.web.play.storage.live_matches import live_matches_of
from jackpot.web.play.storage.move_statements import encode
from jackpot.web.play.transaction import NotStarted, Prepared, Step, run_move


def throw_step(actor: Actor, dice_count: int | None) -> Step:
    count = 2 if dice_count is None else dice_count

    def step(plan: MovePlan) -> None:
        seat = plan.seat_of(actor)
        if count not in (1, 2):
            raise invalid("dice must be 1 or 2, not %(count)s", count=count)
        dice = plan.dice(count)
        plan.apply(lambda mm: mm.throw(seat, dice), by=seat)

    return step


def cover_step(actor: Actor, tiles: Sequence[int]) -> Step:
    def step(plan: MovePlan) -> None:
        seat = plan.seat_of(actor)
        if len(set(tiles)) != len(tiles):
            raise invalid("each tile may be covered once: the list repeats a tile", "not_on_offer")
        plan.apply(lambda mm: mm.cover(seat, tiles), by=seat)

    return step


def prepare(db: Database, actor: Actor, match_id: str, step: Step) -> Prepared | None:
    """``step`` and the bots' answers worked out from the match as this process keeps
    it (LiveMatches), outside the write transaction: on SQLite every process's writes
    take turns, and the move's own Python then no longer holds up the others'.
    None when only the transaction can say (the match not kept here or not trusted,
    a deadline passed, a refusal: the state kept here may be behind the database's).
    ``play`` saves it if the match is still as it was, and works the move out again
    in the transaction if not."""
    live = live_matches_of(db.writer.sync_engine)
    entry = live.entries.get(match_id)
    if entry is None or not live.trusted:
        return None
    when = utcnow()
    _version, row, seats, m, known = entry
    due = row["due_at"]
    if due is not None and due <= when:
        return None
    plan = MovePlan(row, seats, m, when, known)
    try:
        if step(plan) is False:
            return None
        plan.run_bots()
    except ApiError:
        return None
    return Prepared(entry, plan, encode(plan.writes(), db.is_sqlite))


async def play(
    conn: AsyncConnection, actor: Actor, match_id: str, step: Step, prepared: Prepared | None
) -> Outcome:
    """A player's throw or cover in the write transaction: ``prepared`` if it still
    holds, else worked out here."""
    return _required(
        await run_move(conn, match_id, None, step, actor=actor, prepared=prepared, trust=True)
    )


async def resign(
    conn: AsyncConnection, actor: Actor, match_id: str, now: datetime | None = None
) -> Outcome:
    def step(plan: MovePlan) -> None:
        seat = plan.seat_of(actor)
        plan.apply(lambda mm: mm.leave(seat, "resigned"))

    try:
        return _required(await run_move(conn, match_id, now, step, waiting_ok=True, actor=actor))
    except NotStarted as waiting:
        return await leave_waiting(conn, actor, waiting.row)


async def timeout(
    conn: AsyncConnection, match_id: str, expected_version: int, now: datetime
) -> Outcome | None:
    """The seat whose throw deadline has passed uses a spare deadline if it has one
    left (its deadline starts again in full), else it is put out; None if somebody
    moved first.

    The caller found the match with ``due_at <= now`` at ``expected_version``; the
    conditional UPDATE in the save makes two sweepers apply it (a spare as a timeout)
    at most once.
    """

    def step(plan: MovePlan) -> bool:
        due = plan.row["due_at"]
        m = plan.match
        if due is None or due > now or m.turn is None or m.finished:
            return False
        seat = m.turn.seat
        plan.apply(lambda mm: mm.deadline_passed(seat))
        return True

    return await run_move(conn, match_id, now, step, lock_version=expected_version)


async def end_round(conn: AsyncConnection, match_id: str, now: datetime) -> Outcome | None:
    """A tournament round's time ran out: the match ends with the round it is playing
    (engine's ``end_after_round``); None if it is over already or ends that way
    already (a Classic match, whose one round is its last)."""

    def step(plan: MovePlan) -> bool:
        m = plan.match
        if m.finished or m.last_round:
            return False
        before = len(plan.engine_events)
        plan.apply(lambda mm: mm.end_after_round())
        return len(plan.engine_events) > before

    return await run_move(conn, match_id, now, step)


async def set_autoplay(
    conn: AsyncConnection,
    actor: Actor,
    match_id: str,
    throws: bool,
    single_covers: bool,
    now: datetime | None = None,
) -> Outcome:
    """Switch the caller's autoplay in this match; a forced move now due is made at once
    (the clock never runs on one). A switch to what it already is writes nothing and
    tells nobody: each change is a live event every watcher receives."""

    def step(plan: MovePlan) -> bool:
        seat = plan.seat_of(actor)
        if plan.match.finished:
            raise conflict("the match is over", "match_over")
        if plan.match.out[seat] is not None:
            raise conflict(
                "you are out of this match: nothing is played for you any more", "seat_out"
            )
        if plan.prefs(seat) == AutoplayPrefs(throws=throws, single_covers=single_covers):
            return False
        plan.set_autoplay(seat, throws, single_covers)
        return True

    try:
        out = await run_move(conn, match_id, now, step, waiting_ok=True)
    except NotStarted:
        # A stranger is told that first, as on a match under way.
        seats = await seat_rows(conn, match_id)
        if not any(s["user_id"] == actor.user_id and not s["is_bot"] for s in seats):
            raise forbidden("you have no seat in this match", "not_seated") from None
        raise conflict("the match has not started: seats are still free", "not_started") from None
    if out is None:
        row = await match_row(conn, match_id)
        seats_now = list(await seat_rows(conn, match_id))
        return Outcome(match_id, [], row=dict(row), seat_rows=seats_now)
    return out


def _required(out: Outcome | None) -> Outcome:
    """A player's move always has an outcome (only a timeout may find nothing to do)."""
    assert out is not None
    return out
