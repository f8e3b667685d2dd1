"""One action's work on one match in its transaction: moves, bots, rows to write.

The rows are the record's, the deadline and the mail it may need, the live events
and the match row; the outcome is what the action answers.

The events are returned to the caller, which publishes them only after the commit
(nobody may see an event the database could still roll back).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot import fair
from jackpot.engine import (
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
    WrongPhase,
)
from jackpot.strategy import bots
from jackpot.strategy.autoplay import OFF, AutoplayPrefs, AutoThrow, forced_move
from jackpot.strategy.strength import Strength
from jackpot.web.base.clock import iso
from jackpot.web.base.errors import ApiError, Refusal, conflict, forbidden, not_found
from jackpot.web.base.identity import Actor
from jackpot.web.notify.notices import REMINDER_LEEWAY, due_notices, end_notices
from jackpot.web.play.live_matches import UNKNOWN, KnownNews
from jackpot.web.play.match_sql import Driver
from jackpot.web.play.move_statements import MoveWrites, Row, encode
from jackpot.web.players.ratings import match_finished


@dataclass
class Outcome:
    """What an action did: the match id and the live events to publish after commit."""

    match_id: str
    events: list[dict[str, Any]] = field(default_factory=list)
    #: The match row and seats as written, so the caller can answer with the new
    #: state without reading it back (None when the action did not keep them).
    row: dict[str, Any] | None = None
    seat_rows: list[Any] | None = None
    #: A move refused after its due time: the timeout was written and must be
    #: committed and published; the caller raises this afterwards.
    refusal: ApiError | None = None
    #: The engine's state in ``row`` (saves decoding it again for the answer).
    match: Match | None = None


def illegal_to_api(exc: IllegalMove) -> ApiError:
    """Out of turn, wrong phase and match over are conflicts with the match's state;
    a tile not on offer or bad dice is bad input (422)."""
    if isinstance(exc, NotOnOffer | BadDice | UnknownSeat):
        return Refusal(422, "not_on_offer" if isinstance(exc, NotOnOffer) else "invalid", exc)
    if isinstance(exc, MatchOver):
        return Refusal(409, "match_over", exc)
    if isinstance(exc, NotYourTurn):
        return Refusal(409, "not_your_turn", exc)
    if isinstance(exc, SeatIsOut):
        return Refusal(409, "seat_out", exc)
    if isinstance(exc, WrongPhase):
        return Refusal(409, "wrong_phase", exc)
    return Refusal(409, "illegal_move", exc)


def load_match(db: Driver, match_id: str, lock: bool) -> tuple[Row, list[Row]]:
    """The match row and its seats through the move's driver; 404 if there is none."""
    loaded = db.load(match_id, lock=lock)
    if loaded is None:
        raise not_found("there is no match %(match)s", match=match_id)
    return loaded


def changed_meanwhile() -> ApiError:
    """Another writer moved the match on since it was loaded (or kept)."""
    return conflict("the match changed meanwhile; reload and try again", "retry")


async def rate_if_finished(conn: AsyncConnection, tx: MoveTx) -> None:
    """Ratings and per-seat figures change in the same transaction as the end of the
    match, so they can never disagree with it (through Core: the end is rare)."""
    if tx.match.finished:
        assert tx.new_row is not None  # saved (plan) before this is called
        await match_finished(conn, tx.row["id"], (tx.new_row, tx.seat_rows))


class MoveTx:
    """One action's work on one match: engine moves, bot moves, rows to write."""

    def __init__(
        self, row: Row, seat_rows: list[Row], m: Match, now: datetime,
        known: KnownNews = UNKNOWN,
    ) -> None:
        self.row = row
        self.seat_rows = seat_rows
        self.match = m
        self.now = now
        #: What is known of the match's waiting notices (LiveMatches keeps it
        #: between moves): a seat's own move deletes its turn news, and only a save
        #: adds any; a reminder goes out no earlier than ``known.reminder_at``.
        self.known = known
        self.engine_events: list[Event] = []
        self.live: list[dict[str, Any]] = []
        self.became_due = False
        #: The last move was made by autoplay: what waits now is a real choice, and
        #: its clock starts now.
        self.auto_last = False
        #: A person's own move (not autoplay's): their seat, marked as having acted.
        self.acted: int | None = None
        self.autoplay_changed: tuple[int, bool, bool] | None = None
        #: The seat of the person who moved themselves in this action, if one did.
        self.mover: int | None = None
        #: The seat of the person whose own action this is (a move, a resignation,
        #: an autoplay switch; ``seat_of``): on the page, so no news of the end for it.
        self.on_page: int | None = None
        self.new_row: Row | None = None
        #: ``known`` once saved (``plan``).
        self.known_after = known
        self.refusal: ApiError | None = None

    def outcome(self) -> Outcome:
        return Outcome(
            self.row["id"], self.live, self.new_row, self.seat_rows, self.refusal, self.match
        )

    def seat_of(self, actor: Actor) -> int:
        """The actor's seat, kept as ``on_page``: whoever asks acts here themselves."""
        for s in self.seat_rows:
            if s["user_id"] == actor.user_id and not s["is_bot"]:
                self.on_page = int(s["seat"])
                return self.on_page
        raise forbidden("you have no seat in this match", "not_seated")

    def apply(
        self, move: Callable[[Match], tuple[Match, list[Event]]], by: int | None = None
    ) -> None:
        """Apply a move; ``by``: the seat of the person who made it themselves."""
        try:
            self.match, events = move(self.match)
        except IllegalMove as exc:
            raise illegal_to_api(exc) from None
        if by is not None:
            self.mover = by
            if self.seat_rows[by]["acted"] is False:
                self.acted = by
        self.auto_last = False
        self._add(events)

    def _add(self, events: list[Event], auto: bool = False) -> None:
        for ev in events:
            self.engine_events.append(ev)
            d = ev.to_dict()
            if auto and isinstance(ev, Thrown | Covered):
                d["auto"] = True  # made by autoplay: the page says "for you"
            if isinstance(ev, MatchEnded):
                d["server_seed"] = self.row["server_seed"]
                d["strengths"] = [s["strength"] for s in self.seat_rows]
            if isinstance(ev, TurnStarted | Covered):
                self.became_due = True
            self.live.append(d)

    def set_autoplay(self, seat: int, throws: bool, single_covers: bool) -> None:
        """A person switches autoplay in this match: the seat row, and a live event."""
        self.seat_rows = [
            {**s, "autoplay_throws": throws, "autoplay_covers": single_covers}
            if s["seat"] == seat
            else s
            for s in self.seat_rows
        ]
        self.autoplay_changed = (seat, throws, single_covers)
        self.live.append(
            {"type": "autoplay", "seat": seat, "throws": throws, "single_covers": single_covers}
        )

    def dice(self, m: Match, count: int) -> tuple[int, ...]:
        """The dice of the match's next throw, from its seeds."""
        return fair.throw_dice(self.row["server_seed"], self.row["client_seed"], m.throws, count)

    def prefs(self, seat: int) -> AutoplayPrefs:
        """The autoplay a person's seat has in this match (off for bots and old matches)."""
        s = self.seat_rows[seat]
        if s["is_bot"]:
            return OFF
        return AutoplayPrefs(
            throws=bool(s["autoplay_throws"]), single_covers=bool(s["autoplay_covers"])
        )

    def run_bots(self) -> None:
        """Bot seats move at once, and a person's forced moves are made for them
        (autoplay), inside the same transaction, until a person must decide."""
        m = self.match
        while (turn := m.turn) is not None:
            s = turn.seat
            if self.seat_rows[s]["is_bot"]:
                strength = Strength(self.seat_rows[s]["strength"])
                var = m.variant
                if turn.dice is None:
                    count = bots.choose_dice_count(var, strength, turn.open)
                    m, events = m.throw(s, self.dice(m, count))
                else:
                    opt = bots.choose_cover(var, strength, turn.open, turn.dice)
                    m, events = m.cover(s, opt)
                self.auto_last = False
                self._add(events)
                continue
            move = forced_move(m, s, self.prefs(s))
            if move is None:
                break
            if isinstance(move, AutoThrow):
                m, events = m.throw(s, self.dice(m, move.count))
            else:
                m, events = m.cover(s, move.tiles)
            self.auto_last = True
            self._add(events, auto=True)
        self.match = m

    # -- writing, step by step ---------------------------------------------------------

    def save(self, db: Driver) -> None:
        """Write everything the moves did, if nobody moved the match on meanwhile
        (409 otherwise, and the transaction rolls back)."""
        if not db.save(encode(self.plan(), db.sqlite)):
            raise changed_meanwhile()
        self.remember(db)

    def remember(self, db: Driver) -> None:
        """Once saved: the match as written, for LiveMatches after the commit."""
        assert self.new_row is not None
        db.remember(self.new_row, self.seat_rows, self.match, self.known_after)

    def plan(self) -> MoveWrites:
        """The rows that keep what the moves did, once, with no database: so a move
        can be worked out before its write transaction (actions.prepare) and hold
        SQLite's one writer only for its statements."""
        new_rows, late_covers, record_len = self._record_rows()
        due_at = self._due_at()
        self._announce_deadline(due_at)
        quiet = set(self.known.quiet)
        drop_turn = None
        if self.mover is not None and self.mover not in quiet:
            # They are here: a turn mail not sent yet would be no news to them. (After
            # their first move of a turn there is none: a statement a move saved.)
            drop_turn = self.mover
            quiet.add(self.mover)
        replaces_reminder, notices = self._notices(due_at)
        # Before the reminder, which stays last (MoveWrites.notices).
        notices = [
            *end_notices(
                self.row, self.seat_rows, self.engine_events, self.match, self.now, self.on_page
            ),
            *notices,
        ]
        quiet.difference_update(n["seat"] for n in notices if n["kind"] == "turn")
        values = self._row_values(self._number_events(), record_len, due_at)
        if self.acted is not None:
            self.seat_rows = [
                {**s, "acted": True} if s["seat"] == self.acted else s for s in self.seat_rows
            ]
        self.new_row = {**self.row, **values}
        reminder_at = self.known.reminder_at
        if notices and notices[-1]["kind"] == "reminder":
            reminder_at = notices[-1]["send_after"]
        self.known_after = KnownNews(frozenset(quiet), reminder_at)
        return MoveWrites(
            self.row["id"], self.row["version"], values, new_rows, late_covers, notices,
            replaces_reminder, drop_turn, self.autoplay_changed, self.acted, self.live,
        )

    def _record_rows(self) -> tuple[list[Row], list[tuple[int, str]], int]:
        """The record rows to add (throws, cover filled in when chosen, and outs, in
        order), the covers of throws stored earlier, and the new record length."""
        match_id = self.row["id"]
        idx = self.row["record_len"]
        new_rows: list[Row] = []
        pending: dict[int, Row] = {}
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

    def _due_at(self) -> datetime | None:
        """The deadline of the throw now due: it runs from the moment that throw
        became due (a pending cover belongs to its throw, so a throw does not renew
        it), and there is none on a bot's throw or once the match is over."""
        turn = self.match.turn
        if turn is None or self.seat_rows[turn.seat]["is_bot"]:
            return None
        if (self.became_due and turn.dice is None) or self.auto_last:
            # A new throw is due, or autoplay made the moves up to a real choice: the
            # clock runs only on choices, so it starts now.
            return self.now + timedelta(seconds=self.row["deadline_seconds"])
        due_at: datetime | None = self.row["due_at"]
        return due_at

    def _announce_deadline(self, due_at: datetime | None) -> None:
        """A live event for the pages' countdown, when the deadline moved or a new
        throw or cover became due."""
        if self.match.finished or (due_at == self.row["due_at"] and not self.became_due):
            return
        turn = self.match.turn
        self.live.append(
            {"type": "deadline", "seat": None if turn is None else turn.seat, "due_at": iso(due_at)}
        )

    def _notices(self, due_at: datetime | None) -> tuple[bool, list[Row]]:
        """When a new throw is due from a person: the mail it may need, noted in this
        transaction (notify/ sends it later, from the sweeper); True when the last
        one is a reminder replacing the match's pending one."""
        if due_at is None or due_at == self.row["due_at"]:
            return False, []
        turn = self.match.turn
        became_turn = turn is not None and (
            self.row["turn_seat"] != turn.seat
            or any(isinstance(ev, TurnStarted) for ev in self.engine_events)
        )
        reminder_at = self.known.reminder_at
        if not became_turn and reminder_at is not None and reminder_at > self.now + REMINDER_LEEWAY:
            # The same turn goes on: its reminder, written by this process and not
            # due for a while, is moved on to this throw by the workers when its
            # time comes (notify/notices.py), not rewritten on every throw.
            return False, []
        return due_notices(self.row, self.seat_rows, self.match, due_at, became_turn, self.now)

    def _number_events(self) -> int:
        """Number the live events on from the match's version; the last is its new one."""
        version: int = self.row["version"]
        for ev in self.live:
            version += 1
            ev["seq"] = version
        return version

    def _row_values(self, version: int, record_len: int, due_at: datetime | None) -> Row:
        m = self.match
        turn = m.turn
        values: Row = {
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
        return values
