"""The match state machine: seats, turns, rounds, leaving, and the end of a match.

A ``Match`` is an immutable value. Every action returns the next value and the
events it caused, so the server can persist the snapshot, then publish the events;
nothing here knows where dice come from (the caller passes the seed's dice in).

A daily entry (``Match.new_daily``) is a solo match of a fixed number of turns whose
throws are numbered turn by turn (``engine/daily.py``); everything else, the moves
and leaving, is the same, so whatever plays a match plays an entry.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Literal

from jackpot.engine.daily import THROW_STRIDE, TURNS, DailyResult, daily_result
from jackpot.engine.errors import (
    IllegalMove,
    MatchOver,
    NotOnOffer,
    NotYourTurn,
    SeatIsOut,
    UnknownSeat,
    WrongPhase,
)
from jackpot.engine.events import (
    Covered,
    Event,
    LastRound,
    MatchEnded,
    SeatOut,
    SpareUsed,
    Thrown,
    TurnEnded,
    TurnStarted,
)
from jackpot.engine.result import Result, decide
from jackpot.engine.tiles import (
    Variant,
    check_dice,
    describe_dice,
    describe_options,
    describe_tiles,
    may_throw_one_die,
    options,
)
from jackpot.engine.turn import Turn

Reason = Literal["resigned", "timeout"]
REASONS: tuple[str, ...] = ("resigned", "timeout")
MAX_SEATS = 4
#: The rules of jackpot-record/3: a Classic match ended by a shut box places every
#: other seat still in second, together. New matches follow them.
RULES = 3
#: The rules of jackpot-record/1 and /2, kept by a match begun before /3 (its
#: snapshot has no "rules") so that it ends as it began.
RULES_BEFORE_SHARED_PLACE = 2
#: The most spare deadlines a match may give each seat (0, as before spares: none).
MAX_SPARES = 5


@dataclass(frozen=True, slots=True)
class Match:
    variant: Variant
    seats: int
    round: int
    #: The number of the next throw: every throw of the match counts, dead ones too.
    throws: int
    totals: tuple[int, ...]
    out: tuple[str | None, ...]
    #: Seats in the order they went out (places rank later leavers higher).
    left: tuple[int, ...]
    #: Throws of each seat's shutting turn in the current round, else None.
    shut: tuple[int | None, ...]
    turn: Turn | None
    #: A daily entry ends with a DailyResult, every other match with a Result.
    result: Result | DailyResult | None
    #: The rule set, numbered as the record format that states it (RULES or
    #: RULES_BEFORE_SHARED_PLACE): the record of this match is written in that format.
    rules: int = RULES
    #: A daily entry's number of turns; None for a match.
    daily_turns: int | None = None
    #: A daily entry's scores of its finished turns so far, in order.
    turn_scores: tuple[int, ...] = ()
    #: The spare deadlines each seat was given, and each seat's left (deadline_passed).
    spares: int = 0
    spares_left: tuple[int, ...] = ()
    #: The match ends with the round in progress (``end_after_round``).
    last_round: bool = False

    @classmethod
    def new(cls, variant: Variant, seats: int, *, rules: int = RULES, spares: int = 0) -> Match:
        if not 1 <= seats <= MAX_SEATS:
            raise ValueError(f"a match has 1 to {MAX_SEATS} seats, not {seats}")
        if rules not in (RULES_BEFORE_SHARED_PLACE, RULES):
            raise ValueError(f"the rules are {RULES_BEFORE_SHARED_PLACE} or {RULES}, not {rules}")
        if not 0 <= spares <= MAX_SPARES:
            raise ValueError(f"a seat has 0 to {MAX_SPARES} spare deadlines, not {spares}")
        return cls(
            variant=Variant(variant),
            seats=seats,
            round=1,
            throws=0,
            totals=(0,) * seats,
            out=(None,) * seats,
            left=(),
            shut=(None,) * seats,
            turn=Turn(seat=0),
            result=None,
            rules=rules,
            spares=spares,
            spares_left=(spares,) * seats,
        )

    @classmethod
    def new_daily(cls, variant: Variant, turns: int = TURNS) -> Match:
        """One person's entry in a daily deal: ``turns`` turns, each from a full board.

        Round r is turn r - 1 (a round of one seat is one turn); turn t's throws are
        numbered from ``THROW_STRIDE * t``; a shut box ends only its turn, in Classic
        too. Leaving (giving up, or the day closing: ``leave(0, "timeout")``) ends the
        entry at once, the unfinished turn and every later one scoring 45.
        """
        if turns < 1:
            raise ValueError(f"an entry has at least one turn, not {turns}")
        return replace(cls.new(variant, 1), daily_turns=turns)

    @property
    def daily(self) -> bool:
        return self.daily_turns is not None

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def may_throw_one_die(self) -> bool:
        turn = self.turn
        return turn is not None and turn.dice is None and may_throw_one_die(self.variant, turn.open)

    # -- actions -------------------------------------------------------------

    def throw(self, seat: int, dice: tuple[int, ...]) -> tuple[Match, list[Event]]:
        turn = self._turn_of(seat)
        if turn.dice is not None:
            raise WrongPhase(
                f"seat {seat} must cover before throwing again: "
                f"{describe_dice(turn.dice, self.variant)} reach {describe_options(turn.options)}",
                "must_cover",
                seat=seat,
                dice=turn.dice,
                options=turn.options,
                variant=self.variant.value,
            )
        dice = tuple(dice)
        check_dice(self.variant, turn.open, dice)
        n = self.throws
        offered = options(self.variant, turn.open, dice)
        events: list[Event] = [Thrown(n=n, seat=seat, dice=dice, options=offered)]
        if not offered:
            return replace(self, throws=n + 1)._end_turn(seat, turn.throws + 1, turn.open, events)
        new_turn = replace(turn, dice=dice, options=offered, throws=turn.throws + 1)
        return replace(self, throws=n + 1, turn=new_turn), events

    def cover(self, seat: int, tiles: Iterable[int]) -> tuple[Match, list[Event]]:
        turn = self._turn_of(seat)
        if turn.dice is None:
            raise WrongPhase(f"seat {seat} must throw before covering", "must_throw", seat=seat)
        chosen = tuple(sorted(tiles))
        if not chosen:
            raise NotOnOffer(
                f"choose what to cover: {describe_dice(turn.dice, self.variant)} "
                f"reach {describe_options(turn.options)}",
                "choose",
                dice=turn.dice,
                options=turn.options,
                variant=self.variant.value,
            )
        if chosen not in turn.options:
            verb = "is" if len(chosen) == 1 else "are"
            raise NotOnOffer(
                f"{describe_tiles(chosen)} {verb} not on offer: "
                f"{describe_dice(turn.dice, self.variant)} reach {describe_options(turn.options)}",
                "not_on_offer",
                tiles=chosen,
                dice=turn.dice,
                options=turn.options,
                variant=self.variant.value,
            )
        still_open = turn.open - set(chosen)
        events: list[Event] = [Covered(n=self.throws - 1, seat=seat, tiles=chosen, open=still_open)]
        if not still_open:
            return self._end_turn(seat, turn.throws, still_open, events)
        new_turn = replace(turn, open=still_open, dice=None, options=())
        return replace(self, turn=new_turn), events

    def leave(self, seat: int, reason: str) -> tuple[Match, list[Event]]:
        """Resign or time out: out at once, even mid-turn; the unfinished turn scores nothing."""
        if reason not in REASONS:
            raise ValueError(f"a seat leaves by 'resigned' or 'timeout', not {reason!r}")
        self._check_seat(seat)
        out = list(self.out)
        out[seat] = reason
        left = (*self.left, seat)
        events: list[Event] = [SeatOut(seat=seat, reason=reason)]
        after = replace(self, out=tuple(out), left=left)
        still_in = [s for s in range(self.seats) if out[s] is None]
        if self.seats == 1 or len(still_in) == 1:
            return after._finish(events)
        if self.turn is not None and self.turn.seat == seat:
            return after._advance(seat, events)
        return after, events

    def deadline_passed(self, seat: int) -> tuple[Match, list[Event]]:
        """The deadline of the move ``seat`` owes passed: a spare is used if it has one
        left (its deadline starts again; no die changes), else it is out by timeout."""
        self._turn_of(seat)
        left = self.spares_left[seat] - 1
        if left < 0:
            return self.leave(seat, "timeout")
        spares_left = (*self.spares_left[:seat], left, *self.spares_left[seat + 1 :])
        return replace(self, spares_left=spares_left), [SpareUsed(seat=seat, left=left)]

    def end_after_round(self) -> tuple[Match, list[Event]]:
        """A tournament round's time ran out: the match ends with the round in progress, placed
        as usual (docs/tournaments.md). Classic's one round is its last already: no change."""
        if self.result is not None:
            raise MatchOver("the match is over", "match_over")
        if self.daily_turns is not None:
            raise IllegalMove("a daily entry has no round to end early", "daily_entry")
        if self.last_round or self.variant is Variant.CLASSIC:
            return self, []
        return replace(self, last_round=True), [LastRound(round=self.round)]

    # -- transitions ---------------------------------------------------------

    def _end_turn(
        self, seat: int, throws: int, still_open: frozenset[int], events: list[Event]
    ) -> tuple[Match, list[Event]]:
        score = sum(still_open)
        totals = list(self.totals)
        totals[seat] += score
        shut = list(self.shut)
        if not still_open:
            shut[seat] = throws
        events.append(
            TurnEnded(
                seat=seat, score=score, throws=throws, shut=not still_open, total=totals[seat]
            )
        )
        after = replace(self, totals=tuple(totals), shut=tuple(shut))
        if self.daily_turns is not None:
            return replace(after, turn_scores=(*self.turn_scores, score))._next_daily_turn(events)
        if not still_open and self.variant is Variant.CLASSIC:
            return after._finish(events)
        return after._advance(seat, events)

    def _advance(self, seat: int, events: list[Event]) -> tuple[Match, list[Event]]:
        """Hand the dice to the next seat still in, or close the round."""
        for s in range(seat + 1, self.seats):
            if self.out[s] is None:
                events.append(TurnStarted(seat=s, round=self.round))
                return replace(self, turn=Turn(seat=s)), events
        if self.variant is Variant.CLASSIC or self.last_round:
            return self._finish(events)
        if any(self.shut[s] is not None and self.out[s] is None for s in range(self.seats)):
            return self._finish(events)
        first = next(s for s in range(self.seats) if self.out[s] is None)
        nxt = replace(self, round=self.round + 1, shut=(None,) * self.seats, turn=Turn(seat=first))
        events.append(TurnStarted(seat=first, round=nxt.round))
        return nxt, events

    def _next_daily_turn(self, events: list[Event]) -> tuple[Match, list[Event]]:
        if len(self.turn_scores) == self.daily_turns:
            return self._finish(events)
        # Round r is turn r - 1, so the next turn (number self.round) starts its throws at:
        first = THROW_STRIDE * self.round
        nxt = replace(
            self, round=self.round + 1, throws=first, shut=(None,), turn=Turn(seat=0)
        )
        events.append(TurnStarted(seat=0, round=nxt.round))
        return nxt, events

    def _finish(self, events: list[Event]) -> tuple[Match, list[Event]]:
        result: Result | DailyResult
        if self.daily_turns is not None:
            result = daily_result(self.turn_scores, self.daily_turns)
        else:
            result = decide(
                seats=self.seats,
                rounds=self.round,
                totals=self.totals,
                shut=self.shut,
                out=self.out,
                left=self.left,
                shared_after_shut=self.rules >= RULES and self.variant is Variant.CLASSIC,
            )
        events.append(MatchEnded(result=result))
        return replace(self, turn=None, result=result), events

    # -- checks --------------------------------------------------------------

    def _check_seat(self, seat: int) -> None:
        if self.result is not None:
            raise MatchOver("the match is over", "match_over")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise UnknownSeat(
                f"there is no seat {seat} in a match of {self.seats}",
                "unknown_seat",
                seat=seat,
                seats=self.seats,
            )
        if self.out[seat] is not None:
            raise SeatIsOut(
                f"seat {seat} is out of the match ({self.out[seat]})",
                "seat_out",
                seat=seat,
                why=self.out[seat],
            )

    def _turn_of(self, seat: int) -> Turn:
        self._check_seat(seat)
        turn = self.turn
        if turn is None:  # pragma: no cover - a live match always has a turn
            raise IllegalMove("no turn is in progress", "no_turn")
        if turn.seat != seat:
            raise NotYourTurn(
                f"it is not seat {seat}'s turn: seat {turn.seat} is to play",
                "not_your_turn",
                seat=seat,
                turn_seat=turn.seat,
            )
        return turn

    # -- persistence ---------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        turn = self.turn
        extra: dict[str, Any] = (
            {}
            if self.daily_turns is None
            else {"daily_turns": self.daily_turns, "turn_scores": list(self.turn_scores)}
        )
        if self.spares:  # a snapshot without them loads with none (from_dict)
            extra |= {"spares": self.spares, "spares_left": list(self.spares_left)}
        if self.last_round:  # likewise: a snapshot without it ends as ever
            extra["last_round"] = True
        return {
            "variant": self.variant.value,
            "rules": self.rules,
            **extra,
            "seats": self.seats,
            "round": self.round,
            "throws": self.throws,
            "totals": list(self.totals),
            "out": list(self.out),
            "left": list(self.left),
            "shut": list(self.shut),
            "turn": None if turn is None else turn.to_dict(),
            "result": None if self.result is None else self.result.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        """The match a snapshot holds; one written before the rules were numbered keeps
        the rules it began with (RULES_BEFORE_SHARED_PLACE)."""
        t = data["turn"]
        daily_turns = data.get("daily_turns")
        result = data["result"]
        turn = None if t is None else Turn.from_dict(t)
        return cls(
            variant=Variant(data["variant"]),
            seats=int(data["seats"]),
            round=int(data["round"]),
            throws=int(data["throws"]),
            totals=tuple(data["totals"]),
            out=tuple(data["out"]),
            left=tuple(data["left"]),
            shut=tuple(data["shut"]),
            turn=turn,
            result=None
            if result is None
            else DailyResult.from_dict(result)
            if daily_turns is not None
            else Result.from_dict(result),
            rules=int(data.get("rules", RULES_BEFORE_SHARED_PLACE)),
            daily_turns=None if daily_turns is None else int(daily_turns),
            turn_scores=tuple(int(s) for s in data.get("turn_scores", ())),
            spares=int(data.get("spares", 0)),
            spares_left=tuple(int(s) for s in data.get("spares_left", (0,) * int(data["seats"]))),
            last_round=bool(data.get("last_round", False)),
        )
