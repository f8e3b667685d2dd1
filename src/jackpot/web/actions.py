"""Every change to a match goes through one function here, in one transaction.

Create, join, throw, cover, resign and timeout each: load the match row (the
engine's snapshot, so the work never grows with the match's length), apply the
move, let bot seats move at once, append the record rows and the live events, and
write the row back with a conditional UPDATE on ``version``. The events are
returned to the caller, which publishes them only after the commit (zulip's rule:
nobody may see an event the database could still roll back).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot import fair
from jackpot.engine import (
    FULL,
    BadDice,
    Covered,
    Event,
    IllegalMove,
    Match,
    MatchEnded,
    MatchOver,
    NotOnOffer,
    NotYourTurn,
    SeatIsOut,
    SeatOut,
    Thrown,
    TurnStarted,
    UnknownSeat,
    Variant,
    WrongPhase,
)
from jackpot.strategy import bots
from jackpot.strategy.strength import Strength
from jackpot.web import models as t
from jackpot.web.errors import ApiError, conflict, forbidden, invalid, not_found
from jackpot.web.match_sql import Driver
from jackpot.web.settings import MAX_DEADLINE_SECONDS

MAX_SEATS = 4
#: The length of the ``matches.id`` column.
MATCH_ID_MAX = 24


def utcnow() -> datetime:
    return datetime.now(UTC)


def iso(when: datetime | None) -> str | None:
    if when is None:
        return None
    return when.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class Actor:
    """Who is acting: an account or a guest (a user row without email)."""

    user_id: int
    name: str
    is_guest: bool


@dataclass
class Outcome:
    """What an action did: the match id and the live events to publish after commit."""

    match_id: str
    events: list[dict[str, Any]] = field(default_factory=list)
    #: The match row and seats as written, so the caller can answer with the new
    #: state without reading it back (None when the action did not keep them).
    row: dict[str, Any] | None = None
    seat_rows: list[Any] | None = None


def illegal_to_api(exc: IllegalMove) -> ApiError:
    """Out of turn, wrong phase and match over are conflicts with the match's state;
    a tile not on offer or bad dice is bad input (422)."""
    if isinstance(exc, NotOnOffer | BadDice | UnknownSeat):
        return invalid(str(exc), "not_on_offer" if isinstance(exc, NotOnOffer) else "invalid")
    if isinstance(exc, MatchOver):
        return conflict(str(exc), "match_over")
    if isinstance(exc, NotYourTurn):
        return conflict(str(exc), "not_your_turn")
    if isinstance(exc, SeatIsOut):
        return conflict(str(exc), "seat_out")
    if isinstance(exc, WrongPhase):
        return conflict(str(exc), "wrong_phase")
    return conflict(str(exc), "illegal_move")


def check_client_seed(seed: str | None) -> str:
    if seed is None or seed == "":
        return secrets.token_hex(8)
    try:
        return fair.check_client_seed(seed)
    except ValueError as exc:
        raise invalid(str(exc), "bad_client_seed") from None


# -- creating and joining -----------------------------------------------------


async def create_match(
    conn: AsyncConnection,
    actor: Actor,
    *,
    variant: str,
    seats: int,
    bots_count: int,
    deadline_seconds: int,
    client_seed: str | None,
    private: bool,
    min_deadline: int,
    now: datetime | None = None,
) -> Outcome:
    now = now or utcnow()
    try:
        var = Variant(variant)
    except ValueError:
        raise invalid(f"variant must be 'jackpot' or 'classic', not {variant!r}") from None
    if not 1 <= seats <= MAX_SEATS:
        raise invalid(f"a match has 1 to {MAX_SEATS} seats, not {seats}")
    if not 0 <= bots_count <= seats - 1:
        raise invalid(f"bots must be from 0 to {seats - 1} for {seats} seats, not {bots_count}")
    if not min_deadline <= deadline_seconds <= MAX_DEADLINE_SECONDS:
        raise invalid(
            f"deadline_seconds must be from {min_deadline} to {MAX_DEADLINE_SECONDS} "
            f"(one week), not {deadline_seconds}"
        )
    if actor.is_guest and seats - bots_count != 1:
        raise forbidden(
            "a guest can play the bot or practise alone; sign up to play people", "account_required"
        )
    seed = check_client_seed(client_seed)
    server_seed = secrets.token_hex(32)
    match_id = "m_" + secrets.token_hex(8)
    await conn.execute(
        insert(t.matches).values(
            id=match_id,
            variant=var.value,
            status="waiting",
            seat_count=seats,
            deadline_seconds=deadline_seconds,
            private=private,
            creator_id=actor.user_id,
            created_at=now,
            server_seed=server_seed,
            commitment=fair.commitment(server_seed),
            version=0,
            record_len=0,
        )
    )
    rows: list[dict[str, Any]] = [
        {
            "match_id": match_id,
            "seat": 0,
            "user_id": actor.user_id,
            "is_bot": False,
            "name": actor.name,
            "client_seed": seed,
        }
    ]
    for s in range(1, seats):
        is_bot = s >= seats - bots_count
        name = None
        if is_bot:
            name = "Bot" if bots_count == 1 else f"Bot {s - (seats - bots_count) + 1}"
        rows.append(
            {
                "match_id": match_id,
                "seat": s,
                "user_id": None,
                "is_bot": is_bot,
                "name": name,
                "client_seed": None,
            }
        )
    await conn.execute(insert(t.seats), rows)
    out = Outcome(match_id)
    if bots_count == seats - 1:
        await _start(conn, match_id, now, out)
    return out


async def join_match(
    conn: AsyncConnection,
    actor: Actor,
    match_id: str,
    client_seed: str | None,
    now: datetime | None = None,
) -> Outcome:
    now = now or utcnow()
    if actor.is_guest:
        raise forbidden("sign up (or log in) to play people", "account_required")
    row = await _match_row(conn, match_id, lock=True)
    seed = check_client_seed(client_seed)
    if row["status"] != "waiting":
        raise conflict("this match has already started", "match_started")
    seat_rows = await _seat_rows(conn, match_id)
    if any(s["user_id"] == actor.user_id for s in seat_rows):
        raise conflict("you already have a seat in this match", "already_seated")
    free = [s for s in seat_rows if not s["is_bot"] and s["user_id"] is None]
    if not free:
        raise conflict("every seat is taken", "match_full")
    seat = free[0]["seat"]
    res = await conn.execute(
        update(t.seats)
        .where(t.seats.c.match_id == match_id, t.seats.c.seat == seat, t.seats.c.user_id.is_(None))
        .values(user_id=actor.user_id, name=actor.name, client_seed=seed)
    )
    if res.rowcount != 1:
        raise conflict("that seat was just taken; try again", "match_full")
    version = row["version"] + 1
    out = Outcome(match_id, [{"seq": version, "type": "joined", "seat": seat, "name": actor.name}])
    await _store_events(conn, match_id, out.events)
    await _next_version(conn, row)
    if len(free) == 1:
        await _start(conn, match_id, now, out)
    return out


async def _start(conn: AsyncConnection, match_id: str, now: datetime, out: Outcome) -> None:
    """All seats are filled: fix the client seed, draw the bots' strengths, and let
    bots move if seat 0 is one."""
    row = await _match_row(conn, match_id)
    seat_rows = await _seat_rows(conn, match_id)
    client_seed = fair.combine_client_seeds(
        [s["client_seed"] for s in seat_rows if not s["is_bot"]]
    )
    for s in seat_rows:
        if s["is_bot"]:
            strength = fair.bot_strength(row["server_seed"], client_seed, s["seat"])
            await conn.execute(
                update(t.seats)
                .where(t.seats.c.match_id == match_id, t.seats.c.seat == s["seat"])
                .values(strength=str(strength))
            )
    await conn.execute(
        update(t.matches)
        .where(t.matches.c.id == match_id)
        .values(status="playing", started_at=now, client_seed=client_seed)
    )
    m = Match.new(Variant(row["variant"]), row["seat_count"])

    def first_turn(sync_conn: Connection) -> _Tx:
        db = Driver(sync_conn)
        row, seat_rows = _found(db.load(match_id, lock=False), match_id)
        tx = _Tx(row, seat_rows, m, now)
        tx.live.append({"type": "started", "client_seed": client_seed})
        tx.became_due = True
        tx.run_bots()
        tx.save(db)
        return tx

    tx = await conn.run_sync(first_turn)
    out.events.extend(tx.live)
    await _after_save(conn, tx)


# -- moves -------------------------------------------------------------------
#
# A move's statements run in one synchronous call on the driver connection
# (match_sql.py says why); the match's end, rare, then rates it through Core in
# the same transaction.


async def throw(
    conn: AsyncConnection,
    actor: Actor,
    match_id: str,
    dice_count: int | None,
    now: datetime | None = None,
) -> Outcome:
    count = 2 if dice_count is None else dice_count

    def step(tx: _Tx) -> None:
        seat = tx.seat_of(actor)
        if count not in (1, 2):
            raise invalid(f"dice must be 1 or 2, not {count}")
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
    def step(tx: _Tx) -> None:
        seat = tx.seat_of(actor)
        if len(set(tiles)) != len(tiles):
            raise invalid("each tile may be covered once: the list repeats a tile", "not_on_offer")
        tx.apply(lambda mm: mm.cover(seat, tiles))

    return _required(await _move(conn, match_id, now, step))


async def resign(
    conn: AsyncConnection, actor: Actor, match_id: str, now: datetime | None = None
) -> Outcome:
    def step(tx: _Tx) -> None:
        seat = tx.seat_of(actor)
        tx.apply(lambda mm: mm.leave(seat, "resigned"))

    try:
        return _required(await _move(conn, match_id, now, step, waiting_ok=True))
    except _NotStarted as waiting:
        return await _leave_waiting(conn, actor, waiting.row)


async def _leave_waiting(conn: AsyncConnection, actor: Actor, row: Any) -> Outcome:
    """Before the start a resignation just frees the seat (the creator's cancels)."""
    match_id = row["id"]
    seat_rows = await _seat_rows(conn, match_id)
    mine = [s for s in seat_rows if s["user_id"] == actor.user_id and not s["is_bot"]]
    if not mine:
        raise forbidden("you have no seat in this match", "not_seated")
    version = row["version"] + 1
    if mine[0]["seat"] == 0:
        ev = {"seq": version, "type": "cancelled"}
        await _next_version(conn, row, status="finished", finished_at=utcnow())
    else:
        ev = {"seq": version, "type": "left", "seat": mine[0]["seat"]}
        await conn.execute(
            update(t.seats)
            .where(t.seats.c.match_id == match_id, t.seats.c.seat == mine[0]["seat"])
            .values(user_id=None, name=None, client_seed=None)
        )
        await _next_version(conn, row)
    await _store_events(conn, match_id, [ev])
    return Outcome(match_id, [ev])


async def timeout(
    conn: AsyncConnection, match_id: str, expected_version: int, now: datetime
) -> Outcome | None:
    """Put out the seat whose throw deadline has passed; None if somebody moved first.

    The caller found the match with ``due_at <= now`` at ``expected_version``; the
    conditional UPDATE in ``save`` makes two sweepers apply it at most once.
    """

    def step(tx: _Tx) -> bool:
        due = tx.row["due_at"]
        m = tx.match
        if due is None or due > now or m.turn is None or m.finished:
            return False
        seat = m.turn.seat
        tx.apply(lambda mm: mm.leave(seat, "timeout"))
        return True

    return await _move(conn, match_id, now, step, lock_version=expected_version)


# -- the transaction helper ----------------------------------------------------

# The statements that the other modules' reads and the cold actions (create, join,
# start, leave before the start) use, built once with bound parameters: a prebuilt
# statement keeps its cache key, so each execution goes straight to the compiled
# form in the engine's cache. The moves use match_sql.py instead.
_MATCH = select(t.matches).where(t.matches.c.id == bindparam("match_id"))
_MATCH_LOCKED = _MATCH.with_for_update()
_SEATS = (
    select(t.seats).where(t.seats.c.match_id == bindparam("match_id")).order_by(t.seats.c.seat)
)
_INSERT_EVENTS = insert(t.match_events)


async def _match_row(conn: AsyncConnection, match_id: str, lock: bool = False) -> Any:
    """The match row; ``lock`` for a write transaction that will change it.

    On PostgreSQL ``lock`` takes the row lock (SELECT ... FOR UPDATE) so racing
    actions on one match queue up instead of doing the work twice and colliding on
    the record's primary key (an IntegrityError, not a 409); the loser then sees the
    new state and gets the engine's refusal. SQLite ignores it: its single writer
    already serialises every write transaction.
    """
    check_match_id(match_id)
    query = _MATCH_LOCKED if lock else _MATCH
    row = (await conn.execute(query, {"match_id": match_id})).mappings().first()
    if row is None:
        raise not_found(f"there is no match {match_id}")
    return row


async def _seat_rows(conn: AsyncConnection, match_id: str) -> list[Any]:
    res = await conn.execute(_SEATS, {"match_id": match_id})
    return list(res.mappings().all())


async def _store_events(conn: AsyncConnection, match_id: str, events: list[dict[str, Any]]) -> None:
    if events:
        await conn.execute(
            _INSERT_EVENTS,
            [{"match_id": match_id, "seq": e["seq"], "data": json.dumps(e)} for e in events],
        )


class _NotStarted(Exception):
    """The match is still waiting for players (a resignation then frees the seat)."""

    def __init__(self, row: dict[str, Any]) -> None:
        super().__init__(row["id"])
        self.row = row


def check_match_id(match_id: str) -> None:
    """An id no match can have is answered without asking the database (PostgreSQL
    would refuse a NUL byte with an error, not with an empty result)."""
    if not (len(match_id) <= MATCH_ID_MAX and match_id.isascii() and match_id.isprintable()):
        raise not_found(f"there is no match {match_id!r}")


def _found(
    loaded: tuple[dict[str, Any], list[dict[str, Any]]] | None, match_id: str
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    if loaded is None:
        raise not_found(f"there is no match {match_id}")
    return loaded


async def _move(
    conn: AsyncConnection,
    match_id: str,
    now: datetime | None,
    step: Callable[[_Tx], bool | None],
    lock_version: int | None = None,
    waiting_ok: bool = False,
) -> Outcome | None:
    """Load the match under its lock, let ``step`` move (False: nothing to do),
    let bots answer, write it all back; one synchronous call on the driver.

    A match still waiting for players is a conflict, or ``_NotStarted`` for the
    caller to handle when ``waiting_ok``."""
    check_match_id(match_id)
    when = now or utcnow()

    def work(sync_conn: Connection) -> _Tx | None:
        db = Driver(sync_conn)
        row, seat_rows = _found(db.load(match_id, lock=True), match_id)
        if lock_version is not None and row["version"] != lock_version:
            raise conflict("the match changed meanwhile", "retry")
        if row["status"] == "waiting":
            raise _NotStarted(row)
        if row["state"] is None:
            raise conflict("the match was cancelled before it started", "match_over")
        tx = _Tx(row, seat_rows, Match.from_dict(row["state"]), when)
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
    await _after_save(conn, tx)
    return tx.outcome()


def _required(out: Outcome | None) -> Outcome:
    """A player's move always has an outcome (only a timeout may find nothing to do)."""
    assert out is not None
    return out


async def _next_version(conn: AsyncConnection, row: Any, **values: Any) -> None:
    """Before the start: move a match's version on by one (setting ``values`` too),
    if nobody else moved it first."""
    res = await conn.execute(
        update(t.matches)
        .where(t.matches.c.id == row["id"], t.matches.c.version == row["version"])
        .values(version=row["version"] + 1, **values)
    )
    if res.rowcount != 1:
        raise conflict("the match changed meanwhile; try again", "retry")


async def _after_save(conn: AsyncConnection, tx: _Tx) -> None:
    if tx.match.finished:
        # Ratings and per-seat figures change in the same transaction as the end
        # of the match, so they can never disagree with it.
        from jackpot.web.ratings import match_finished

        await match_finished(conn, tx.row["id"])


class _Tx:
    """One action's work on one match: engine moves, bot moves, rows to write."""

    def __init__(
        self, row: dict[str, Any], seat_rows: list[dict[str, Any]], m: Match, now: datetime
    ) -> None:
        self.row = row
        self.seat_rows = seat_rows
        self.match = m
        self.now = now
        self.engine_events: list[Event] = []
        self.live: list[dict[str, Any]] = []
        self.became_due = False
        self.new_row: dict[str, Any] | None = None

    def outcome(self) -> Outcome:
        return Outcome(self.row["id"], self.live, self.new_row, self.seat_rows)

    def seat_of(self, actor: Actor) -> int:
        for s in self.seat_rows:
            if s["user_id"] == actor.user_id and not s["is_bot"]:
                return int(s["seat"])
        raise forbidden("you have no seat in this match", "not_seated")

    def apply(self, move: Any) -> None:
        try:
            self.match, events = move(self.match)
        except IllegalMove as exc:
            raise illegal_to_api(exc) from None
        self._add(events)

    def _add(self, events: list[Event]) -> None:
        for ev in events:
            self.engine_events.append(ev)
            d = ev.to_dict()
            if isinstance(ev, MatchEnded):
                d["server_seed"] = self.row["server_seed"]
                d["strengths"] = [s["strength"] for s in self.seat_rows]
            if isinstance(ev, TurnStarted | Covered):
                self.became_due = True
            self.live.append(d)

    def run_bots(self) -> None:
        """Bot seats move at once, inside the same transaction."""
        m = self.match
        while m.turn is not None and self.seat_rows[m.turn.seat]["is_bot"]:
            s = m.turn.seat
            strength = Strength(self.seat_rows[s]["strength"])
            var = m.variant
            if m.turn.dice is None:
                count = bots.choose_dice_count(var, strength, m.turn.open)
                dice = fair.throw_dice(
                    self.row["server_seed"], self.row["client_seed"], m.throws, count
                )
                m, events = m.throw(s, dice)
            else:
                opt = bots.choose_cover(var, strength, m.turn.open, m.turn.dice)
                m, events = m.cover(s, opt)
            self._add(events)
        self.match = m

    def _record_rows(self) -> tuple[list[dict[str, Any]], list[tuple[int, str]], int]:
        """The record rows to add (throws, cover filled in when chosen, and outs, in
        order), the covers of throws stored earlier, and the new record length."""
        match_id = self.row["id"]
        idx = self.row["record_len"]
        new_rows: list[dict[str, Any]] = []
        pending: dict[int, dict[str, Any]] = {}
        late_covers: list[tuple[int, str]] = []
        for ev in self.engine_events:
            if isinstance(ev, Thrown):
                r = {
                    "match_id": match_id,
                    "idx": idx,
                    "kind": "throw",
                    "n": ev.n,
                    "seat": ev.seat,
                    "dice": ",".join(map(str, ev.dice)),
                    "cover": None if ev.options else "",
                    "reason": None,
                }
                new_rows.append(r)
                pending[ev.n] = r
                idx += 1
            elif isinstance(ev, Covered):
                text = ",".join(map(str, ev.tiles))
                if ev.n in pending:
                    pending[ev.n]["cover"] = text
                else:
                    late_covers.append((ev.n, text))
            elif isinstance(ev, SeatOut):
                new_rows.append(
                    {
                        "match_id": match_id,
                        "idx": idx,
                        "kind": "out",
                        "n": None,
                        "seat": ev.seat,
                        "dice": None,
                        "cover": None,
                        "reason": ev.reason,
                    }
                )
                idx += 1
        return new_rows, late_covers, idx

    def save(self, db: Driver) -> None:
        m = self.match
        row = self.row
        match_id = row["id"]
        new_rows, late_covers, record_len = self._record_rows()
        for n, text in late_covers:
            db.set_cover(match_id, n, text)
        # Deadline: runs for each throw from the moment it became due (a pending
        # cover belongs to its throw, so the deadline is not renewed by a throw).
        notices: list[dict[str, Any]] = []
        due_at = row["due_at"]
        turn = m.turn
        if turn is None or self.seat_rows[turn.seat]["is_bot"]:
            due_at = None
        elif self.became_due and turn.dice is None:
            due_at = self.now + timedelta(seconds=row["deadline_seconds"])
        if not m.finished and (due_at != row["due_at"] or self.became_due):
            self.live.append(
                {
                    "type": "deadline",
                    "seat": None if turn is None else turn.seat,
                    "due_at": iso(due_at),
                }
            )
        if due_at is not None and due_at != row["due_at"]:
            # A new throw is due from a person: note the mail it may need, in this
            # transaction (notify.py sends it later, from the sweeper).
            from jackpot.web.notify import due_notices

            became_turn = turn is not None and (
                row["turn_seat"] != turn.seat
                or any(isinstance(ev, TurnStarted) for ev in self.engine_events)
            )
            drop_reminder, notices = due_notices(
                row, self.seat_rows, m, due_at, became_turn, self.now
            )
            if drop_reminder:
                db.drop_pending_reminder(match_id)
        version = row["version"]
        for ev_d in self.live:
            version += 1
            ev_d["seq"] = version
        values: dict[str, Any] = {
            "state": m.to_dict(),
            "version": version,
            "record_len": record_len,
            "turn_seat": None if turn is None else turn.seat,
            "due_at": due_at,
        }
        if m.finished:
            values.update(
                status="finished",
                finished_at=self.now,
                result=m.result.to_dict() if m.result else None,
            )
        if not db.save_move(match_id, row["version"], values, new_rows, notices, self.live):
            raise conflict("the match changed meanwhile; reload and try again", "retry")
        self.new_row = {**row, **values}


__all__ = [
    "FULL",
    "Actor",
    "Outcome",
    "cover",
    "create_match",
    "join_match",
    "resign",
    "throw",
    "timeout",
]
