"""The replay's walk of a record as the site first made it: the reference review_match is held to.

``fair.match_review.review_match`` now walks records for the replay, the stored
figures and the rebuild; this older walk, written apart from it (the solver's
``analysis`` for the options, its own handling of resignations), stays here so that a
test can hold the two to the same steps, boards, totals and turn ends. Values are the
solver's exact Fractions: for each cover, the chance of still shutting the box this
turn, the best option (highest chance; among equals the best bot's pick), and the
chance the choice gave away.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from jackpot.engine import Match, MatchEnded, TurnEnded, Variant
from jackpot.engine.tiles import options as options_for
from jackpot.fair.record import OutEntry, Record, ThrowEntry, parse_record
from jackpot.fair.replay import new_match
from jackpot.fair.verify import resignations_before_cover
from jackpot.strategy.analysis import analyse


@dataclass(frozen=True)
class OptionRow:
    tiles: tuple[int, ...]
    p_shut: Fraction
    expected_score: Fraction


@dataclass(frozen=True)
class Step:
    """One record event as the replay shows it, with the board before it."""

    kind: str  # "throw" | "out"
    seat: int
    round: int
    open_before: tuple[int, ...]
    open_after: tuple[int, ...]
    totals: tuple[int, ...]  # running totals after the step
    n: int | None = None
    dice: tuple[int, ...] = ()
    cover: tuple[int, ...] | None = None
    reason: str | None = None
    options: tuple[OptionRow, ...] = ()
    best: tuple[int, ...] | None = None
    given_away: Fraction | None = None
    #: Score and whether the box was shut, when this step ended the seat's turn.
    turn_score: int | None = None
    shut: bool = False


@dataclass
class SeatReview:
    turns: int = 0
    jackpots: int = 0
    score_sum: int = 0
    choices: int = 0
    best_choices: int = 0
    given_away: Fraction = Fraction(0)
    #: Running total at the end of each round's turn (None: no turn that round).
    totals_by_round: list[int | None] = field(default_factory=list)

    @property
    def accuracy(self) -> float | None:
        return self.best_choices / self.choices if self.choices else None

    @property
    def given_away_per_turn(self) -> float | None:
        return float(self.given_away) / self.turns if self.turns else None


@dataclass
class Review:
    record: Record
    steps: list[Step]
    seats: list[SeatReview]
    rounds: int


def best_option(rows: tuple[OptionRow, ...], bot_best: tuple[int, ...]) -> tuple[int, ...]:
    """The option keeping the most chance; among equals the best bot's pick if it is
    one of them, else the one leaving the lowest expected score."""
    top = max(r.p_shut for r in rows)
    tops = [r for r in rows if r.p_shut == top]
    for r in tops:
        if r.tiles == bot_best:
            return r.tiles
    return min(tops, key=lambda r: (r.expected_score, [-t for t in r.tiles])).tiles


@functools.lru_cache(maxsize=16384)
def value_options(
    variant: Variant, open_tiles: frozenset[int], dice: tuple[int, ...]
) -> tuple[tuple[OptionRow, ...], tuple[int, ...]]:
    """Memoised: the options of a throw recur from match to match."""
    a = analyse(variant, open_tiles, dice)
    rows = tuple(OptionRow(tuple(v.option), v.p_shut, v.expected_score) for v in a.options)
    return rows, best_option(rows, tuple(a.best))


def review(source: Record | Mapping[str, Any] | str) -> Review:
    """Replay ``source`` (a finished record) step by step; ValueError if it does not
    replay (the verifier says why in detail)."""
    record = source if isinstance(source, Record) else parse_record(source)
    variant = record.variant
    # The match the record was played by: its rules (/2's places, or /3's), or a
    # daily entry's ten turns, whose throws are numbered turn by turn.
    m = new_match(record)
    seats = [SeatReview() for _ in record.seats]
    steps: list[Step] = []
    events = record.events
    applied_early: set[int] = set()
    max_round = 1

    def absorb(before: Match, evs: list[Any]) -> tuple[int | None, bool]:
        nonlocal max_round
        score: int | None = None
        shut = False
        for ev in evs:
            if isinstance(ev, TurnEnded):
                sr = seats[ev.seat]
                sr.turns += 1
                sr.score_sum += ev.score
                sr.jackpots += ev.shut
                rnd = before.round
                max_round = max(max_round, rnd)
                while len(sr.totals_by_round) < rnd:
                    sr.totals_by_round.append(None)
                sr.totals_by_round[rnd - 1] = ev.total
                score, shut = ev.score, ev.shut
            elif isinstance(ev, MatchEnded):
                pass
        return score, shut

    def leave(mm: Match, out: OutEntry) -> Match:
        try:
            after, evs = mm.leave(out.seat, out.reason)
        except Exception as exc:  # the engine's IllegalMove: the record is not true
            raise ValueError(f"the record does not replay: {exc}") from None
        absorb(mm, evs)
        return after

    for i, event in enumerate(events):
        if isinstance(event, OutEntry):
            turn = m.turn
            open_now = tuple(sorted(turn.open)) if turn else ()
            rnd = m.round
            if i not in applied_early:
                m = leave(m, event)
            steps.append(
                Step("out", event.seat, rnd, open_now, open_now, m.totals, reason=event.reason)
            )
            continue
        assert isinstance(event, ThrowEntry)
        turn = m.turn
        if turn is None or turn.seat != event.seat or turn.dice is not None:
            raise ValueError(f"the record does not replay at throw {event.n}")
        rnd = m.round
        open_before = turn.open
        before = m
        try:
            m, evs = m.throw(event.seat, event.dice)
        except Exception as exc:
            raise ValueError(f"the record does not replay: {exc}") from None
        score, shut = absorb(before, evs)
        rows: tuple[OptionRow, ...] = ()
        best: tuple[int, ...] | None = None
        given: Fraction | None = None
        if options_for(variant, open_before, event.dice):
            rows, best = value_options(variant, open_before, event.dice)
        if event.cover:
            chosen = tuple(event.cover)
            top = max(r.p_shut for r in rows)
            mine = next(r for r in rows if r.tiles == chosen)
            given = top - mine.p_shut
            if len(rows) > 1:
                sr = seats[event.seat]
                sr.choices += 1
                sr.best_choices += given == 0
                sr.given_away += given
            if set(chosen) == set(open_before):
                # Resignations listed after a shutting cover came before it.
                for j in resignations_before_cover(events, i, m):
                    out_j = events[j]
                    assert isinstance(out_j, OutEntry)
                    m = leave(m, out_j)
                    applied_early.add(j)
            before = m
            try:
                m, evs = m.cover(event.seat, chosen)
            except Exception as exc:
                raise ValueError(f"the record does not replay: {exc}") from None
            score, shut = absorb(before, evs)
            open_after = tuple(sorted(open_before - set(chosen)))
        else:
            open_after = tuple(sorted(open_before))
        steps.append(
            Step(
                "throw",
                event.seat,
                rnd,
                tuple(sorted(open_before)),
                open_after,
                m.totals,
                n=event.n,
                dice=tuple(event.dice),
                cover=None if event.cover is None else tuple(event.cover),
                options=rows,
                best=best,
                given_away=given,
                turn_score=score,
                shut=shut,
            )
        )
    for sr in seats:
        while len(sr.totals_by_round) < max_round:
            sr.totals_by_round.append(None)
    rounds = record.result.rounds if record.result is not None else max_round
    return Review(record, steps, seats, max(rounds, max_round))
