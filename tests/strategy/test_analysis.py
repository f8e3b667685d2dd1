from fractions import Fraction

import pytest

from jackpot.engine.tiles import FULL, Variant
from jackpot.strategy import solver
from jackpot.strategy.analysis import analyse


def test_jackpot_best_option_gives_nothing_away() -> None:
    a = analyse(Variant.JACKPOT, FULL, (3, 4))
    assert [v.option for v in a.options] == [(3,), (4,), (7,)]
    assert a.best == (7,)
    assert a.given_away((7,)) == 0
    taken_3 = solver.p_shut_max(Variant.JACKPOT, FULL - {3})
    taken_7 = solver.p_shut_max(Variant.JACKPOT, FULL - {7})
    assert a.given_away((3,)) == taken_7 - taken_3 > 0


def test_classic_best_may_trade_a_little_chance_for_a_lower_score() -> None:
    a = analyse(Variant.CLASSIC, frozenset({1, 2, 3, 4, 6}), (1, 6))
    assert a.best == (3, 4)
    assert a.score_cost((3, 4)) == 0
    assert a.given_away((3, 4)) == Fraction(1, 108)
    assert a.given_away((1, 6)) == 0
    assert a.score_cost((1, 6)) > 0


def test_option_order_does_not_matter_but_membership_does() -> None:
    a = analyse(Variant.CLASSIC, FULL, (3, 5))
    assert a.value_of((7, 1)) == a.value_of((1, 7))
    with pytest.raises(ValueError, match="not an option"):
        a.given_away((2, 7))


def test_a_dead_throw_has_nothing_to_analyse() -> None:
    with pytest.raises(ValueError, match="reach nothing"):
        analyse(Variant.JACKPOT, frozenset({1, 2}), (6, 6))
