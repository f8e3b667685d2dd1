"""A move's transaction: load (or claim) the match, plan the move, save it once, settle it.

Every action on a match under way comes through ``run_move``: a throw, a cover, a
resignation, a timeout, an autoplay switch. It loads the match row (the engine's
snapshot, so the work never grows with the match's length) and its seats under the
row's lock, or takes what this process kept of them, lets the action's step move,
lets bot seats answer, and saves the plan's rows with a conditional UPDATE on
``version``: all of it in one synchronous call on the driver connection (match_sql.py
says why). A plan worked out before the transaction (actions.prepare) is saved by
the same ``save`` if the match is still as it was. ``settle`` then queues the live
events for after the commit and hands a match's end to the finisher.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.clock import iso, utcnow
from jackpot.web.base.errors import ApiError, conflict, not_found
from jackpot.web.base.identity import Actor
from jackpot.web.base.storage.db import publish_on_commit
from jackpot.web.matches.news import MatchEnd
from jackpot.web.matches.store import check_match_id
from jackpot.web.play.finish import ended_by, finish
from jackpot.web.play.move_plan import MovePlan
from jackpot.web.play.outcome import Outcome
from jackpot.web.play.storage.live_matches import LiveEntry
from jackpot.web.play.storage.match_sql import Driver, on_driver
from jackpot.web.play.storage.move_statements import Row, Statements, encode

#: What an action does to the match: False when there is nothing to do.
Step = Callable[[MovePlan], bool | None]


@dataclass
class Prepared:
    """A player's move worked out before its transaction (actions.prepare)."""

    #: The match as this process kept it, which the move was worked out from.
    entry: LiveEntry
    plan: MovePlan
    statements: Statements


class NotStarted(Exception):
    """The match is still waiting for players (a resignation then frees the seat)."""

    def __init__(self, row: dict[str, Any]) -> None:
        super().__init__(row["id"])
        self.row = row


def changed_meanwhile() -> ApiError:
    """Another writer moved the match on since it was loaded (or kept)."""
    return conflict("the match changed meanwhile; reload and try again", "retry")


def load_match(db: Driver, match_id: str, lock: bool) -> tuple[Row, list[Row]]:
    """The match row and its seats through the move's driver; 404 if there is none."""
    loaded = db.load(match_id, lock=lock)
    if loaded is None:
        raise not_found("there is no match %(match)s", match=match_id)
    return loaded


def save(db: Driver, plan: MovePlan, statements: Statements | None = None) -> bool:
    """Write a plan's rows, if nobody moved the match on meanwhile, and keep the
    match as written for the next move once the transaction commits. ``statements``:
    encoded before the transaction (a prepared move, whose save PostgreSQL may defer);
    else encoded here. False if the match had moved on."""
    later = statements is not None
    if statements is None:
        statements = encode(plan.writes(), db.sqlite)
    if not db.save(statements, later=later):
        return False
    assert plan.new_row is not None  # planned by writes()
    db.remember(plan.new_row, plan.seat_rows, plan.match, plan.known_after)
    return True


async def settle(conn: AsyncConnection, plan: MovePlan) -> Outcome:
    """A saved plan, still in its transaction: its live events go out once the
    transaction commits, and a match it ended goes through the finisher now, so
    what the end's listeners write commits with it."""
    match_id = plan.row["id"]
    publish_on_commit(conn, match_id, plan.live)
    if plan.match.finished:
        assert plan.new_row is not None
        await finish(
            conn,
            MatchEnd(
                match_id, plan.new_row, plan.seat_rows, ended_by(plan.engine_events), plan.now,
                plan.match, plan.engine_events, plan.on_page,
            ),
        )
    return plan.outcome()


async def run_move(
    conn: AsyncConnection,
    match_id: str,
    now: datetime | None,
    step: Step,
    *,
    lock_version: int | None = None,
    waiting_ok: bool = False,
    actor: Actor | None = None,
    prepared: Prepared | None = None,
    trust: bool = False,
) -> Outcome | None:
    """Load the match under its lock, let ``step`` move (False: nothing to do, and
    None is returned), let bots answer, save it all; one synchronous call on the
    driver, then ``settle``.

    ``lock_version``: the version the caller found (a timeout), compared with the
    row. A match still waiting for players is a conflict, or ``NotStarted`` for the
    caller to handle when ``waiting_ok``.

    ``trust``: the match this process kept may be used without the row's lock. Only
    for the group-committed moves: should another writer have moved the match
    meanwhile, their save fails, the batch rolls back and each move runs again
    alone on a fresh load (group_commit.py). Any other action (a resignation, an
    autoplay switch) takes the row's lock first: saved from a kept match that another
    transaction moved on, its rows collided with that one's on PostgreSQL (a
    duplicate key, a 500) with nothing to run it again."""
    check_match_id(match_id)
    when = now or utcnow()

    def work(db: Driver) -> MovePlan | None:
        if prepared is not None and db.claim(match_id, prepared.entry):
            if save(db, prepared.plan, prepared.statements):
                return prepared.plan
            if db.wrote:
                # PostgreSQL wrote in the statement whose UPDATE found the version
                # moved: the batch rolls back, and this move runs again alone, where
                # the entry is claimed no more and the match is loaded. (Deferred
                # there, the save fails when sent, to the same end.)
                raise changed_meanwhile()
        loaded = db.load_live(match_id, lock=True, trust=trust and lock_version is None)
        if loaded is None:
            raise not_found("there is no match %(match)s", match=match_id)
        row, seats, m, known = loaded
        if lock_version is not None and row["version"] != lock_version:
            raise conflict("the match changed meanwhile", "retry")
        if row["status"] == "waiting":
            raise NotStarted(row)
        if m is None:
            raise conflict("the match was cancelled before it started", "match_over")
        plan = MovePlan(row, seats, m, when, known)
        due = row["due_at"]
        if actor is not None and due is not None and due <= when:
            late(plan, step, actor)
        elif step(plan) is False:
            return None
        plan.run_bots()
        if not save(db, plan):
            raise changed_meanwhile()
        return plan

    try:
        plan = await on_driver(conn, work)
    except NotStarted:
        if waiting_ok:
            raise
        raise conflict("the match has not started: seats are still free", "not_started") from None
    return None if plan is None else await settle(conn, plan)


def late(plan: MovePlan, step: Step, actor: Actor) -> None:
    """A move that arrives after the throw's due time: what the sweeper would apply
    is applied here, in this transaction, so deadlines hold with no sweeper running.
    The seat that was due uses a spare deadline if it has one left, and its move then
    counts, made within the deadline that spare started; with none left it is put
    out and its move refused (``deadline_passed``, given to the caller after the
    commit). Another seat's move meets the match as it is after that, and its
    refusal, if any, keeps the spare or the timeout too."""
    m = plan.match
    late_seat = m.turn.seat if m.turn is not None else None
    if late_seat is not None:
        plan.apply(lambda mm: mm.deadline_passed(late_seat))
    mover = next(
        (s["seat"] for s in plan.seat_rows if s["user_id"] == actor.user_id and not s["is_bot"]),
        None,
    )
    if mover is not None and mover == late_seat and plan.match.out[mover] is not None:
        plan.refusal = conflict(
            "the deadline for this throw passed at %(due)s: the seat was put out",
            "deadline_passed",
            due=iso(plan.row["due_at"]),
        )
        return
    plan.run_bots()
    try:
        step(plan)
    except ApiError as exc:
        plan.refusal = exc
