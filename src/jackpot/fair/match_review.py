"""A finished record replayed with every decision valued for the match: reviews and skill read it.

The walk is the one the replay has always made (each throw, each cover, each seat
going out, in the record's order), and at each decision it asks
``strategy.match_odds`` what the position was worth: the covers of a throw, and the
choice of one die or two when it was the seat's. Each seat's decisions then give its
skill figures (``strategy.skill``), so the figures on a profile are exactly the
ones the replay shows. The odds use only what had happened at the time of the
decision: the scores and shut boxes so far, and the seats still in.

It lives in ``fair/`` because it reads the record and applies its rule about
resignations listed after a shutting cover (``verify.resignations_before_cover``);
the valuation itself is ``strategy``'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from jackpot.engine import Event, IllegalMove, TurnEnded
from jackpot.fair.record import (
    LastRoundEntry,
    OutEntry,
    Record,
    RecordEvent,
    SpareEntry,
    ThrowEntry,
    parse_record,
)
from jackpot.fair.replay import new_match
from jackpot.fair.verify import resignations_before_cover
from jackpot.strategy.match_odds import PositionOdds, Stake, match_odds, match_stake
from jackpot.strategy.skill import Decision, Skill, skill


@dataclass(frozen=True, slots=True)
class ReviewStep:
    """One record event with the board before it and, for a throw, its decisions valued."""

    kind: Literal["throw", "out"]
    seat: int
    round: int
    open_before: tuple[int, ...]
    open_after: tuple[int, ...]
    #: Running totals after the step.
    totals: tuple[int, ...]
    n: int | None = None
    dice: tuple[int, ...] = ()
    cover: tuple[int, ...] | None = None
    reason: str | None = None
    #: The choice of one die or two made for this throw, when it was the seat's.
    dice_odds: PositionOdds | None = None
    #: The covers this throw offered, valued (None for a dead throw).
    cover_odds: PositionOdds | None = None
    #: Score and whether the box was shut, when this step ended the seat's turn.
    turn_score: int | None = None
    shut: bool = False
    #: What the seat whose turn it was played for when the step came (a throw's seat,
    #: or, for a seat going out, whoever's turn it was): with ``open_before`` and the
    #: dice, the position the step was played in.
    stake: Stake = None

    @property
    def dice_given_away(self) -> Fraction | None:
        """Match equity the dice count chosen gave away (None: no such choice)."""
        if self.dice_odds is None:
            return None
        return self.dice_odds.given_away(len(self.dice))

    @property
    def given_away(self) -> Fraction | None:
        """Match equity the cover chosen gave away (None: no cover was made)."""
        if self.cover_odds is None or not self.cover:
            return None
        return self.cover_odds.given_away(self.cover)

    @property
    def decisions(self) -> list[Decision]:
        """The seat's decisions in this step: a dice count, then a cover (forced ones too)."""
        found = []
        if self.dice_odds is not None:
            found.append(self.dice_odds.decision_for(len(self.dice)))
        if self.cover_odds is not None and self.cover:
            found.append(self.cover_odds.decision_for(self.cover))
        return found


@dataclass
class SeatFigures:
    """One seat's turns and decisions over the match."""

    turns: int = 0
    jackpots: int = 0
    score_sum: int = 0
    #: Every decision in order, forced covers included (``Decision.counts`` says which count).
    decisions: list[Decision] = field(default_factory=list)
    #: Running total at the end of each round's turn (None: no turn that round).
    totals_by_round: list[int | None] = field(default_factory=list)

    @property
    def skill(self) -> Skill:
        return skill(self.decisions)


@dataclass
class MatchReview:
    record: Record
    steps: list[ReviewStep]
    seats: list[SeatFigures]
    rounds: int


class _Walk:
    """The replay's state: the match, each seat's figures and the steps so far."""

    def __init__(self, record: Record) -> None:
        self.record = record
        # By the record's own rules: /2's places, or a daily entry's ten turns.
        self.match = new_match(record)
        self.seats = [SeatFigures() for _ in record.seats]
        self.steps: list[ReviewStep] = []
        self.applied_early: set[int] = set()
        self.max_round = 1

    def absorb(self, round_: int, events: Sequence[Event]) -> tuple[int | None, bool]:
        score: int | None = None
        shut = False
        for ev in events:
            if isinstance(ev, TurnEnded):
                figures = self.seats[ev.seat]
                figures.turns += 1
                figures.score_sum += ev.score
                figures.jackpots += ev.shut
                self.max_round = max(self.max_round, round_)
                while len(figures.totals_by_round) < round_:
                    figures.totals_by_round.append(None)
                figures.totals_by_round[round_ - 1] = ev.total
                score, shut = ev.score, ev.shut
        return score, shut

    def leave(self, out: OutEntry) -> None:
        round_ = self.match.round
        try:
            self.match, events = self.match.leave(out.seat, out.reason)
        except IllegalMove as exc:
            raise ValueError(f"the record does not replay: {exc}") from None
        self.absorb(round_, events)

    def out(self, i: int, event: OutEntry) -> None:
        turn = self.match.turn
        open_now = tuple(sorted(turn.open)) if turn else ()
        stake = match_stake(self.match) if turn else None
        round_ = self.match.round
        if i not in self.applied_early:
            self.leave(event)
        self.steps.append(
            ReviewStep(
                "out",
                event.seat,
                round_,
                open_now,
                open_now,
                self.match.totals,
                reason=event.reason,
                stake=stake,
            )
        )

    def throw(self, i: int, event: ThrowEntry) -> None:
        m = self.match
        turn = m.turn
        if turn is None or turn.seat != event.seat or turn.dice is not None:
            raise ValueError(f"the record does not replay at throw {event.n}")
        round_ = m.round
        open_before = turn.open
        stake = match_stake(m)
        dice_odds = match_odds(m) if m.may_throw_one_die else None
        try:
            m, events = m.throw(event.seat, event.dice)
        except IllegalMove as exc:
            raise ValueError(f"the record does not replay: {exc}") from None
        score, shut = self.absorb(round_, events)
        cover_odds = match_odds(m) if m.turn is not None and m.turn.dice is not None else None
        open_after = tuple(sorted(open_before))
        if event.cover:
            chosen = tuple(event.cover)
            if set(chosen) == set(open_before):
                # Resignations listed after a shutting cover came before it.
                for j in resignations_before_cover(self.record.events, i, m):
                    self.match = m
                    out = self.record.events[j]
                    assert isinstance(out, OutEntry)
                    self.leave(out)
                    m = self.match
                    self.applied_early.add(j)
            try:
                m, events = m.cover(event.seat, chosen)
            except IllegalMove as exc:
                raise ValueError(f"the record does not replay: {exc}") from None
            score, shut = self.absorb(round_, events)
            open_after = tuple(sorted(open_before - set(chosen)))
        self.match = m
        step = ReviewStep(
            "throw",
            event.seat,
            round_,
            tuple(sorted(open_before)),
            open_after,
            m.totals,
            n=event.n,
            dice=tuple(event.dice),
            cover=event.cover,
            dice_odds=dice_odds,
            cover_odds=cover_odds,
            turn_score=score,
            shut=shut,
            stake=stake,
        )
        self.seats[event.seat].decisions.extend(step.decisions)
        self.steps.append(step)


def review_match(source: Record | Mapping[str, Any] | str) -> MatchReview:
    """Replay ``source`` (a record, finished or not) step by step with every decision
    valued; ValueError if it does not replay (the verifier says why in detail)."""
    record = source if isinstance(source, Record) else parse_record(source)
    walk = _Walk(record)
    events: tuple[RecordEvent, ...] = record.events
    for i, event in enumerate(events):
        if isinstance(event, OutEntry):
            walk.out(i, event)
        elif isinstance(event, LastRoundEntry):
            walk.match, _ = walk.match.end_after_round()
        elif not isinstance(event, SpareEntry):  # a spare deadline changes no position
            walk.throw(i, event)
    for figures in walk.seats:
        while len(figures.totals_by_round) < walk.max_round:
            figures.totals_by_round.append(None)
    rounds = record.result.rounds if record.result is not None else walk.max_round
    return MatchReview(record, walk.steps, walk.seats, max(rounds, walk.max_round))
