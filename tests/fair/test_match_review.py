"""review_match(): the replay's walk, with each decision valued for the match."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest
from fair_dailygen import DailyPlan, daily_plans, play_daily
from fair_matchgen import Plan, fixed_plans, play
from hypothesis import given, settings
from replay_reference import review

from jackpot.engine import Match, Variant
from jackpot.fair import ThrowEntry
from jackpot.fair.match_review import review_match
from jackpot.strategy.match_odds import match_odds
from jackpot.strategy.skill import Decision, skill

SEED = "review"
PLANS = fixed_plans(24, seed=37)


def _plan(variant: Variant, bots: tuple[bool, ...], play_seed: int) -> Plan:
    return Plan(
        variant=variant,
        bots=bots,
        server_seed=hashlib.sha256(f"{SEED}{play_seed}".encode()).hexdigest(),
        client_parts=tuple(f"seat{i}" for i in range(sum(not b for b in bots))),
        play_seed=play_seed,
        leave_rate=0.0,
    )


@pytest.mark.parametrize("plan", PLANS, ids=lambda p: f"{p.variant}-{len(p.bots)}-{p.play_seed}")
def test_the_walk_is_the_replays_walk(plan: Plan) -> None:
    """Same steps, boards, totals and turn ends as the replay page reads today."""
    record = play(plan).record
    mine = review_match(record)
    theirs = review(record)
    assert len(mine.steps) == len(theirs.steps)
    for a, b in zip(mine.steps, theirs.steps, strict=True):
        assert (a.kind, a.seat, a.round, a.open_before, a.open_after, a.totals) == (
            b.kind,
            b.seat,
            b.round,
            b.open_before,
            b.open_after,
            b.totals,
        )
        assert (a.n, a.dice, a.cover, a.reason, a.turn_score, a.shut) == (
            b.n,
            b.dice,
            b.cover,
            b.reason,
            b.turn_score,
            b.shut,
        )
        # Every throw that offered a choice of cover is valued, with the same options.
        assert (a.cover_odds is not None) == bool(b.options)
        if a.cover_odds is not None:
            assert [o.choice for o in a.cover_odds.options] == [r.tiles for r in b.options]
            assert [o.p_shut for o in a.cover_odds.options] == [r.p_shut for r in b.options]
    assert mine.rounds == theirs.rounds
    for f, s in zip(mine.seats, theirs.seats, strict=True):
        assert (f.turns, f.jackpots, f.score_sum, f.totals_by_round) == (
            s.turns,
            s.jackpots,
            s.score_sum,
            s.totals_by_round,
        )
        assert f.skill.decisions >= s.choices  # the dice choices count too


@pytest.mark.parametrize(
    ("variant", "bots"),
    [(Variant.CLASSIC, (False, True, False, False)), (Variant.JACKPOT, (False, False, True))],
)
def test_each_decision_is_valued_on_the_position_it_was_made_in(
    variant: Variant, bots: tuple[bool, ...]
) -> None:
    record = play(_plan(variant, bots, 11)).record
    mine = review_match(record)
    m = Match.new(record.variant, len(record.seats))
    decided: list[list[Decision]] = [[] for _ in record.seats]
    for step, event in zip(mine.steps, record.events, strict=True):
        assert isinstance(event, ThrowEntry)  # nobody leaves in these plans
        assert step.dice_odds == (match_odds(m) if m.may_throw_one_die else None)
        m, _ = m.throw(event.seat, event.dice)
        if event.cover:
            assert step.cover_odds == match_odds(m)
            assert step.given_away == step.cover_odds.given_away(event.cover) >= 0
            m, _ = m.cover(event.seat, event.cover)
        decided[step.seat].extend(step.decisions)
    assert m.finished
    for seat, figures in enumerate(mine.seats):
        assert figures.decisions == decided[seat]
        assert figures.skill == skill(figures.decisions)


def test_the_best_bot_gives_nothing_away_in_jackpot() -> None:
    record = play(_plan(Variant.JACKPOT, (True, True, True), 2)).record
    assert [s.bot for s in record.seats] == ["best", "best", "highest"]
    figures = [f.skill for f in review_match(record).seats]
    for best in figures[:2]:
        assert best.decisions > 0
        assert best.given_away == 0 and best.best == best.decisions
    assert figures[2].given_away > 0


def test_dice_choices_are_decisions_in_classic() -> None:
    found = 0
    for seed in range(40):
        record = play(_plan(Variant.CLASSIC, (False, False), seed)).record
        for step in review_match(record).steps:
            if step.dice_odds is not None:
                found += 1
                assert len(step.dice) in (1, 2)
                assert step.decisions[0].kind == "dice" and step.decisions[0].counts
    assert found > 0


def test_a_record_that_does_not_replay_is_refused() -> None:
    record = play(_plan(Variant.CLASSIC, (False, False), 3)).record
    first = record.events[0]
    assert isinstance(first, ThrowEntry)
    broken = replace(record, events=(replace(first, seat=1), *record.events[1:]))
    with pytest.raises(ValueError, match="does not replay"):
        review_match(broken)


@settings(max_examples=25, deadline=None)
@given(daily_plans(ending="finished"))
def test_a_daily_entry_is_reviewed_by_its_own_rules(plan: DailyPlan) -> None:
    """A daily entry's throws are numbered 16t + k: the review replays it from the
    entry's own start (ten turns), and each turn's score is the record's."""
    played = play_daily(plan)
    review = review_match(played.record)
    ends = [s.turn_score for s in review.steps if s.turn_score is not None]
    assert played.record.result is not None
    assert ends == list(played.record.result.turn_scores)
    assert all(s.n == 16 * (s.round - 1) + k for s, k in _throw_numbers(review.steps))


def _throw_numbers(steps: Sequence[Any]) -> list[tuple[Any, int]]:
    """Each throw step with its place in its turn (0, 1, ...)."""
    out: list[tuple[Any, int]] = []
    k, last_round = 0, None
    for s in steps:
        if s.kind != "throw":
            continue
        k = k + 1 if s.round == last_round else 0
        last_round = s.round
        out.append((s, k))
    return out
