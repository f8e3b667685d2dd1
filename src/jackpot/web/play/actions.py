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
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot import fair
from jackpot.engine import Match
from jackpot.web.base.clock import utcnow
from jackpot.web.base.errors import conflict, invalid
from jackpot.web.base.identity import Actor
from jackpot.web.matches.store import check_match_id
from jackpot.web.play.match_sql import Driver
from jackpot.web.play.seating import leave_waiting
from jackpot.web.play.transaction import MoveTx, Outcome, load_match, rate_if_finished


async def throw(
    conn: AsyncConnection,
    actor: Actor,
    match_id: str,
    dice_count: int | None,
    now: datetime | None = None,
) -> Outcome:
    count = 2 if dice_count is None else dice_count

    def step(tx: MoveTx) -> None:
        seat = tx.seat_of(actor)
        if count not in (1, 2):
            raise invalid("dice must be 1 or 2, not %(count)s", count=count)
        row = tx.row
        dice = fair.throw_dice(row["server_seed"], row["client_seed"], tx.match.throws, count)
        tx.apply(lambda mm: mm.throw(seat, dice))

    return _required(await _move(conn, match_id, now, step))


async def cover(
    conn: AsyncConnection,
    actor: Actor,
    match_id: str,
    tiles: Sequence[int],
    now: datetime | None = None,
) -> Outcome:
    def step(tx: MoveTx) -> None:
        seat = tx.seat_of(actor)
        if len(set(tiles)) != len(tiles):
            raise invalid("each tile may be covered once: the list repeats a tile", "not_on_offer")
        tx.apply(lambda mm: mm.cover(seat, tiles))

    return _required(await _move(conn, match_id, now, step))


async def resign(
    conn: AsyncConnection, actor: Actor, match_id: str, now: datetime | None = None
) -> Outcome:
    def step(tx: MoveTx) -> None:
        seat = tx.seat_of(actor)
        tx.apply(lambda mm: mm.leave(seat, "resigned"))

    try:
        return _required(await _move(conn, match_id, now, step, waiting_ok=True))
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


class _NotStarted(Exception):
    """The match is still waiting for players (a resignation then frees the seat)."""

    def __init__(self, row: dict[str, Any]) -> None:
        super().__init__(row["id"])
        self.row = row


async def _move(
    conn: AsyncConnection,
    match_id: str,
    now: datetime | None,
    step: Callable[[MoveTx], bool | None],
    lock_version: int | None = None,
    waiting_ok: bool = False,
) -> Outcome | None:
    """Load the match under its lock, let ``step`` move (False: nothing to do),
    let bots answer, write it all back; one synchronous call on the driver.

    A match still waiting for players is a conflict, or ``_NotStarted`` for the
    caller to handle when ``waiting_ok``."""
    check_match_id(match_id)
    when = now or utcnow()

    def work(sync_conn: Connection) -> MoveTx | None:
        db = Driver(sync_conn)
        row, seat_rows = load_match(db, match_id, lock=True)
        if lock_version is not None and row["version"] != lock_version:
            raise conflict("the match changed meanwhile", "retry")
        if row["status"] == "waiting":
            raise _NotStarted(row)
        if row["state"] is None:
            raise conflict("the match was cancelled before it started", "match_over")
        tx = MoveTx(row, seat_rows, Match.from_dict(row["state"]), when)
        if step(tx) is False:
            return None
        tx.run_bots()
        tx.save(db)
        return tx

    try:
        tx = await conn.run_sync(work)
    except _NotStarted:
        if waiting_ok:
            raise
        raise conflict("the match has not started: seats are still free", "not_started") from None
    if tx is None:
        return None
    await rate_if_finished(conn, tx)
    return tx.outcome()


def _required(out: Outcome | None) -> Outcome:
    """A player's move always has an outcome (only a timeout may find nothing to do)."""
    assert out is not None
    return out
