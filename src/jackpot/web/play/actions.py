"""The moves of a match in play (throw, cover, resign, timeout), one action each.

Each is one transaction, and every entry point calls it (the API, the fast lane,
the pages' scripts through the API, the sweeper).

Each loads the match row (the engine's snapshot, so the work never grows with the
match's length) and its seats under the row's lock, applies the move, lets bot seats
answer at once, and writes the record rows, the live events and the row back with a
conditional UPDATE on ``version``: all of it in one synchronous call on the driver
connection (match_sql.py says why). The match's end, rare, is then rated through
Core in the same transaction. Creating and joining are in seating.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot import fair
from jackpot.strategy.autoplay import AutoplayPrefs
from jackpot.web.base.clock import iso, utcnow
from jackpot.web.base.db import Database
from jackpot.web.base.errors import ApiError, conflict, forbidden, invalid, not_found
from jackpot.web.base.identity import Actor
from jackpot.web.matches.store import check_match_id, match_row, seat_rows
from jackpot.web.play.live_matches import LiveEntry, live_matches_of
from jackpot.web.play.match_sql import Driver, on_driver
from jackpot.web.play.move_statements import Statements, encode
from jackpot.web.play.seating import leave_waiting
from jackpot.web.play.transaction import MoveTx, Outcome, changed_meanwhile, rate_if_finished

#: What a move does to the match: False when there is nothing to do.
Step = Callable[[MoveTx], bool | None]


def throw_step(actor: Actor, dice_count: int | None) -> Step:
    count = 2 if dice_count is None else dice_count

    def step(tx: MoveTx) -> None:
        seat = tx.seat_of(actor)
        if count not in (1, 2):
            raise invalid("dice must be 1 or 2, not %(count)s", count=count)
        row = tx.row
        dice = fair.throw_dice(row["server_seed"], row["client_seed"], tx.match.throws, count)
        tx.apply(lambda mm: mm.throw(seat, dice), by=seat)

    return step


def cover_step(actor: Actor, tiles: Sequence[int]) -> Step:
    def step(tx: MoveTx) -> None:
        seat = tx.seat_of(actor)
        if len(set(tiles)) != len(tiles):
            raise invalid("each tile may be covered once: the list repeats a tile", "not_on_offer")
        tx.apply(lambda mm: mm.cover(seat, tiles), by=seat)

    return step


@dataclass
class Prepared:
    """A player's move worked out before its transaction (``prepare``)."""

    #: The match as this process kept it, which the move was worked out from.
    entry: LiveEntry
    tx: MoveTx
    statements: Statements


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
    tx = MoveTx(row, seats, m, when, known)
    try:
        if step(tx) is False:
            return None
        tx.run_bots()
    except ApiError:
        return None
    return Prepared(entry, tx, encode(tx.plan(), db.is_sqlite))


async def play(
    conn: AsyncConnection, actor: Actor, match_id: str, step: Step, prepared: Prepared | None
) -> Outcome:
    """A player's throw or cover in the write transaction: ``prepared`` if it still
    holds, else worked out here."""
    return _required(await _move(conn, match_id, None, step, actor=actor, prepared=prepared))


async def resign(
    conn: AsyncConnection, actor: Actor, match_id: str, now: datetime | None = None
) -> Outcome:
    def step(tx: MoveTx) -> None:
        seat = tx.seat_of(actor)
        tx.apply(lambda mm: mm.leave(seat, "resigned"))

    try:
        return _required(await _move(conn, match_id, now, step, waiting_ok=True, actor=actor))
    except _NotStarted as waiting:
        return await leave_waiting(conn, actor, waiting.row)


async def timeout(
    conn: AsyncConnection, match_id: str, expected_version: int, now: datetime
) -> Outcome | None:
    """Put out the seat whose throw deadline has passed; None if somebody moved first.

    The caller found the match with ``due_at <= now`` at ``expected_version``; the
    conditional UPDATE in ``save`` makes two sweepers apply it at most once.
    """

    def step(tx: MoveTx) -> bool:
        due = tx.row["due_at"]
        m = tx.match
        if due is None or due > now or m.turn is None or m.finished:
            return False
        seat = m.turn.seat
        tx.apply(lambda mm: mm.leave(seat, "timeout"))
        return True

    return await _move(conn, match_id, now, step, lock_version=expected_version)


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

    def step(tx: MoveTx) -> bool:
        seat = tx.seat_of(actor)
        if tx.match.finished:
            raise conflict("the match is over", "match_over")
        if tx.match.out[seat] is not None:
            raise conflict(
                "you are out of this match: nothing is played for you any more", "seat_out"
            )
        if tx.prefs(seat) == AutoplayPrefs(throws=throws, single_covers=single_covers):
            return False
        tx.set_autoplay(seat, throws, single_covers)
        return True

    try:
        out = await _move(conn, match_id, now, step, waiting_ok=True)
    except _NotStarted:
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


class _NotStarted(Exception):
    """The match is still waiting for players (a resignation then frees the seat)."""

    def __init__(self, row: dict[str, Any]) -> None:
        super().__init__(row["id"])
        self.row = row


async def _move(
    conn: AsyncConnection,
    match_id: str,
    now: datetime | None,
    step: Step,
    lock_version: int | None = None,
    waiting_ok: bool = False,
    actor: Actor | None = None,
    prepared: Prepared | None = None,
) -> Outcome | None:
    """Load the match under its lock, let ``step`` move (False: nothing to do),
    let bots answer, write it all back; one synchronous call on the driver.

    A match still waiting for players is a conflict, or ``_NotStarted`` for the
    caller to handle when ``waiting_ok``."""
    check_match_id(match_id)
    when = now or utcnow()

    def work(db: Driver) -> MoveTx | None:
        if prepared is not None and db.claim(match_id, prepared.entry):
            if db.save(prepared.statements, later=True):
                prepared.tx.remember(db)
                return prepared.tx
            if db.wrote:
                # PostgreSQL wrote in the statement whose UPDATE found the version
                # moved: the batch rolls back, and this move runs again alone, where
                # the entry is claimed no more and the match is loaded. (Deferred
                # there, the save fails when sent, to the same end.)
                raise changed_meanwhile()
        # A timeout's expected version comes from the database: compare it with the row.
        loaded = db.load_live(match_id, lock=True, trust=lock_version is None)
        if loaded is None:
            raise not_found("there is no match %(match)s", match=match_id)
        row, seats, m, known = loaded
        if lock_version is not None and row["version"] != lock_version:
            raise conflict("the match changed meanwhile", "retry")
        if row["status"] == "waiting":
            raise _NotStarted(row)
        if m is None:
            raise conflict("the match was cancelled before it started", "match_over")
        tx = MoveTx(row, seats, m, when, known)
        due = row["due_at"]
        if actor is not None and due is not None and due <= when:
            _late(tx, step, actor)
        elif step(tx) is False:
            return None
        tx.run_bots()
        tx.save(db)
        return tx

    try:
        tx = await on_driver(conn, work)
    except _NotStarted:
        if waiting_ok:
            raise
        raise conflict("the match has not started: seats are still free", "not_started") from None
    if tx is None:
        return None
    await rate_if_finished(conn, tx)
    return tx.outcome()


def _late(tx: MoveTx, step: Callable[[MoveTx], bool | None], actor: Actor) -> None:
    """A move that arrives after the throw's due time: the timeout the sweeper would
    apply is applied here, in this transaction, so deadlines hold with no sweeper
    running. The seat that was due is refused (``deadline_passed``, given to the
    caller after the commit); another seat's move then meets the match as it is
    after the timeout, and its refusal, if any, keeps the timeout too."""
    m = tx.match
    late_seat = m.turn.seat if m.turn is not None else None
    if late_seat is not None:
        tx.apply(lambda mm: mm.leave(late_seat, "timeout"))
    mover = next(
        (s["seat"] for s in tx.seat_rows if s["user_id"] == actor.user_id and not s["is_bot"]),
        None,
    )
    if mover == late_seat:
        tx.refusal = conflict(
            "the deadline for this throw passed at %(due)s: the seat was put out",
            "deadline_passed",
            due=iso(tx.row["due_at"]),
        )
        return
    tx.run_bots()
    try:
        step(tx)
    except ApiError as exc:
        tx.refusal = exc


def _required(out: Outcome | None) -> Outcome:
    """A player's move always has an outcome (only a timeout may find nothing to do)."""
    assert out is not None
    return out
