"""The figures a match leaves per seat (match_figures.summarise over review_match), over a
spread of generated matches (2-4 seats, bots, resignations and timeouts, both
variants): they agree with the record's result, with the solver, and with the
skill of each seat's decisions."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "fair"))

from fair_matchgen import fixed_plans, play

from jackpot.fair.match_review import review_match
from jackpot.strategy.skill import skill
from jackpot.strategy.solver import p_shut_max
from jackpot.web.players.match_figures import shut_given_away, summarise


def test_figures_agree_with_every_generated_record() -> None:
    outs = decided = 0
    for plan in fixed_plans(60, seed=4):
        record = play(plan).record
        assert record.result is not None
        review = review_match(record)
        seats = summarise(review)
        assert len(review.steps) == len(record.events)
        # Running totals after the last step, and the sum of each seat's turn scores,
        # are the result's totals.
        assert list(review.steps[-1].totals) == list(record.result.totals)
        assert [s.score_sum for s in seats] == list(record.result.totals)
        choices = [0] * len(seats)
        shut_lost = [Fraction(0)] * len(seats)
        for summary, figures in zip(seats, review.seats, strict=True):
            last = [v for v in summary.totals_by_round if v is not None]
            assert (last[-1] if last else 0) == summary.score_sum
            assert 0 <= summary.best_choices <= summary.choices
            # The skill is the seat's own decisions', the forced ones left out.
            assert summary.skill == skill(figures.decisions)
            assert summary.skill.decisions == sum(1 for d in figures.decisions if d.options > 1)
            assert 0 <= summary.skill.best <= summary.skill.decisions
        for step in review.steps:
            if step.kind == "out":
                outs += 1
                continue
            if step.cover:
                odds = step.cover_odds
                assert odds is not None and odds.best is not None
                mine = odds.option(step.cover)
                assert mine.p_shut == p_shut_max(
                    record.variant, frozenset(step.open_before) - set(step.cover)
                )
                assert step.given_away == odds.best.equity - mine.equity >= 0
                assert set(step.open_after) == set(step.open_before) - set(step.cover)
                lost = shut_given_away(step)
                if len(odds.options) > 1:
                    top = max(o.p_shut for o in odds.options)
                    assert lost == top - mine.p_shut
                    choices[step.seat] += 1
                    shut_lost[step.seat] += top - mine.p_shut
                    decided += 1
                else:
                    assert lost is None
        assert [s.choices for s in seats] == choices
        assert [s.shut_given_away for s in seats] == shut_lost
    assert outs > 0, "the spread should include seats that left"
    assert decided > 100
