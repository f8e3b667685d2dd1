"""review() over a spread of generated matches (2-4 seats, bots, resignations and
timeouts, both variants): it replays every one, and its figures agree with the
record's result and with the solver."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "fair"))

from fair_matchgen import fixed_plans, play

from jackpot.strategy.solver import p_shut_max
from jackpot.web.players.review import review


def test_review_agrees_with_every_generated_record() -> None:
    outs = 0
    for plan in fixed_plans(60, seed=4):
        record = play(plan).record
        assert record.result is not None
        rev = review(record)
        assert len(rev.steps) == len(record.events)
        # Running totals after the last step, and the sum of each seat's turn scores,
        # are the result's totals.
        assert list(rev.steps[-1].totals) == list(record.result.totals)
        assert [s.score_sum for s in rev.seats] == list(record.result.totals)
        for seat in rev.seats:
            last = [v for v in seat.totals_by_round if v is not None]
            assert (last[-1] if last else 0) == seat.score_sum
            assert 0 <= seat.best_choices <= seat.choices
        for step in rev.steps:
            if step.kind == "out":
                outs += 1
                continue
            if step.cover:
                top = max(o.p_shut for o in step.options)
                mine = next(o for o in step.options if o.tiles == step.cover)
                assert step.given_away == top - mine.p_shut
                assert next(o for o in step.options if o.tiles == step.best).p_shut == top
                assert mine.p_shut == p_shut_max(
                    record.variant, frozenset(step.open_before) - set(step.cover)
                )
                assert set(step.open_after) == set(step.open_before) - set(step.cover)
    assert outs > 0, "the spread should include seats that left"
