"""One action's plan for one match: the moves, the bots' answers, and the rows that keep them.

A plan needs no database: it is worked out from the match row, its seats and the
engine's state, either before the write transaction (actions.prepare, from the match
this process kept) or inside it (transaction.py, from the row it loaded), and its
``writes`` are what the transaction then saves. The dice come from the match's seeds
in one place (``dice``), for the person's throw and the bots' alike.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

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
    SpareUsed,
    Thrown,
    TurnStarted,
    UnknownSeat,
    WrongPhase,
)
from jackpot.strategy import bots
from jackpot.strategy.autoplay import OFF, AutoplayPrefs, AutoThrow, forced_move
from jackpot.strategy.strength import Strength
from jackpot.web.base.clock import iso
from jackpot.web.base.errors import ApiError, Refusal, forbidden
from jackpot.web.base.identity import Actor
from jackpot.web.base.storage.snapshots import snapshot
from jackpot.web.matches.news import UNKNOWN, KnownNews, MoveFacts
from jackpot.web.matches.playback import playback_ms
from jackpot.web.play.finish import revealed
from jackpot.web.play.hooks import HOOKS
from jackpot.web.play.outcome import Outcome
from jackpot.web.play.storage.move_statements import MoveWrites, Row


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


class MovePlan:
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
        #: between moves), for the news planner (hooks.py).
        self.known = known
        self.engine_events: list[Event] = []
        self.live: list[dict[str, Any]] = []
        self.became_due = False
        #: A spare deadline was used: the deadline of the move due starts again in full.
        self.spare_used = False
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
        #: ``known`` once planned (``writes``).
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
                d.update(revealed(self.row, self.seat_rows, self.now))
            if isinstance(ev, TurnStarted | Covered):
                self.became_due = True
            if isinstance(ev, SpareUsed):
                self.spare_used = True
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

    def dice(self, count: int) -> tuple[int, ...]:
        """The dice of the match's next throw, from its seeds: the one place they are
        derived, for a person's throw, autoplay's and a bot's."""
        row, m = self.row, self.match
        if row["dice"] == fair.BY_POSITION and m.turn is not None and m.turn.dice is None:
            # A daily entry's throw follows its turn and open tiles (fair/daily.py).
            return fair.dice_due(row["server_seed"], row["client_seed"], m, count, by_position=True)
        # Otherwise by number; a throw not due now is refused by the engine afterwards.
        return fair.throw_dice(row["server_seed"], row["client_seed"], m.throws, count)

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
        (autoplay), in the same action, until a person must decide."""
        while (turn := self.match.turn) is not None:
            s = turn.seat
            m = self.match
            if self.seat_rows[s]["is_bot"]:
                strength = Strength(self.seat_rows[s]["strength"])
                if turn.dice is None:
                    count = bots.choose_dice_count(m.variant, strength, turn.open)
                    self.match, events = m.throw(s, self.dice(count))
                else:
                    opt = bots.choose_cover(m.variant, strength, turn.open, turn.dice)
                    self.match, events = m.cover(s, opt)
                self.auto_last = False
                self._add(events)
                continue
            move = forced_move(m, s, self.prefs(s))
            if move is None:
                break
            if isinstance(move, AutoThrow):
                self.match, events = m.throw(s, self.dice(move.count))
            else:
                self.match, events = m.cover(s, move.tiles)
            self.auto_last = True
            self._add(events, auto=True)

    # -- the rows that keep it ---------------------------------------------------------

    def writes(self) -> MoveWrites:
        """The rows that keep what the moves did, with no database: so a move can be
        worked out before its write transaction (actions.prepare) and hold SQLite's
        one writer only for its statements."""
        new_rows, late_covers, record_len = self._record_rows()
        due_at = self._due_at()
        self._announce_deadline(due_at)
        news = HOOKS.news(
            MoveFacts(
                self.row, self.seat_rows, self.match, self.engine_events, self.now, due_at,
                self.mover, self.known,
            )
        )
        values = self._row_values(self._number_events(), record_len, due_at)
        if self.acted is not None:
            self.seat_rows = [
                {**s, "acted": True} if s["seat"] == self.acted else s for s in self.seat_rows
            ]
        self.new_row = {**self.row, **values}
        self.known_after = news.known
        return MoveWrites(
            self.row["id"], self.row["version"], values, new_rows, late_covers, news.notices,
            news.replaces_reminder, news.drop_turn, self.autoplay_changed, self.acted, self.live,
        )

    def _record_rows(self) -> tuple[list[Row], list[tuple[int, str]], int]:
        """The record rows to add (throws, cover filled in when chosen, outs and spares
        used, in order), the covers of throws stored earlier, and the new record length."""
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
            elif isinstance(ev, SeatOut | SpareUsed):
                new_rows.append(
                    {
                        "match_id": match_id,
                        "idx": idx,
                        "kind": "out" if isinstance(ev, SeatOut) else "spare",
                        "n": None,
                        "seat": ev.seat,
                        "dice": None,
                        "cover": None,
                        "reason": ev.reason if isinstance(ev, SeatOut) else None,
                    }
                )
                idx += 1
        return new_rows, late_covers, idx

    def _due_at(self) -> datetime | None:
        """The deadline of the throw now due: it runs from the moment the person can
        make it (a pending cover belongs to its throw, so a throw does not renew it),
        and there is none on a bot's throw or once the match is over."""
        turn = self.match.turn
        if turn is None or self.seat_rows[turn.seat]["is_bot"]:
            return None
        if self.row["deadline_seconds"] is None:
            # No clock per throw (a daily entry): the match keeps the one time it was
            # given when made (MatchSpec.closes_at), if any.
            kept: datetime | None = self.row["due_at"]
            return kept
        if (self.became_due and turn.dice is None) or self.auto_last:
            # A new throw is due, or autoplay made the moves up to a real choice: the
            # clock runs only on choices, so it starts once the person's page has
            # played out the moves that led here (bots', autoplay's, the others').
            return self._shown_to(turn.seat) + timedelta(seconds=self.row["deadline_seconds"])
        if self.spare_used:
            # The move due keeps its seat, and its deadline starts again in full.
            return self.now + timedelta(seconds=self.row["deadline_seconds"])
        due_at: datetime | None = self.row["due_at"]
        return due_at

    def _shown_to(self, seat: int) -> datetime:
        """When the page of ``seat`` has played out, at its slowest speed, every move up
        to now: this action's, after the backlog of earlier actions it was still
        playing (a quick opponent's many moves are an action each, where a bot's turn
        is one). A seat that acted in this action was looking at the present."""
        start = self.now
        kept = self.row.get("shown_until") or []
        if seat != self.on_page and seat < len(kept) and kept[seat]:
            start = max(start, datetime.fromisoformat(kept[seat]))
        return start + timedelta(milliseconds=playback_ms(self.live, seat))

    def _announce_deadline(self, due_at: datetime | None) -> None:
        """A live event for the pages' countdown, when the deadline moved or a new
        throw or cover became due."""
        if self.match.finished or (due_at == self.row["due_at"] and not self.became_due):
            return
        turn = self.match.turn
        self.live.append(
            {"type": "deadline", "seat": None if turn is None else turn.seat, "due_at": iso(due_at)}
        )

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
            "state": snapshot(m),
            "version": version,
            "record_len": record_len,
            "turn_seat": None if turn is None else turn.seat,
            "due_at": due_at,
            # Each seat's page's backlog, kept for the next action's deadline.
            "shown_until": [self._shown_to(s).isoformat() for s in range(len(self.seat_rows))],
        }
        if m.finished:
            values.update(
                status="finished",
                finished_at=self.now,
                result=m.result.to_dict() if m.result else None,
            )
        return values
