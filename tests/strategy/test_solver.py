from fractions import Fraction
from itertools import product

import pytest
from strategy_reference import ref_e, ref_e_count, ref_p, ref_p_count, ref_policy

from jackpot.engine.tiles import FULL, Variant, from_mask
from jackpot.strategy import Strength, policy, solver

ALL_SETS = [from_mask(m) for m in range(512)]


def test_full_board_jackpot_probability_under_best_play() -> None:
    assert round(float(solver.p_shut_max(Variant.JACKPOT, FULL)), 7) == 0.0799874


def test_full_board_classic_shut_probability_max() -> None:
    assert round(float(solver.p_shut_max(Variant.CLASSIC, FULL)), 7) == 0.0976137


def test_values_are_exact_fractions() -> None:
    assert isinstance(solver.p_shut_max(Variant.JACKPOT, FULL), Fraction)
    assert isinstance(solver.expected_score_min(Variant.CLASSIC, FULL), Fraction)


@pytest.mark.parametrize("variant", list(Variant))
def test_shut_box_is_certain_and_scores_nothing(variant: Variant) -> None:
    assert solver.p_shut_max(variant, frozenset()) == 1
    assert solver.expected_score_min(variant, frozenset()) == 0


def test_hand_checked_single_tiles() -> None:
    # Jackpot {1}: only a die showing one reaches it: 11 of 36 throws.
    assert solver.p_shut_max(Variant.JACKPOT, frozenset({1})) == Fraction(11, 36)
    assert solver.expected_score_min(Variant.JACKPOT, frozenset({1})) == Fraction(25, 36)
    # Classic {1}: two dice never total 1, one die shows it one time in 6.
    assert solver.p_shut_max(Variant.CLASSIC, frozenset({1})) == Fraction(1, 6)
    assert solver.throw_values(Variant.CLASSIC, frozenset({1}), 2) == (0, 1)
    # Classic {9}: one die is not allowed while 9 is open; totals of 9: 4 of 36.
    assert solver.p_shut_max(Variant.CLASSIC, frozenset({9})) == Fraction(4, 36)


@pytest.mark.parametrize("variant", list(Variant))
def test_optimal_values_match_brute_force_on_every_open_set(variant: Variant) -> None:
    for open_tiles in ALL_SETS:
        assert solver.p_shut_max(variant, open_tiles) == ref_p(variant.value, open_tiles)
        assert solver.expected_score_min(variant, open_tiles) == ref_e(variant.value, open_tiles)


def test_throw_values_by_dice_count_match_brute_force() -> None:
    low_sets = [s for s in ALL_SETS if s and not s & {7, 8, 9}]
    for open_tiles, count in product(low_sets, (1, 2)):
        p, e = solver.throw_values(Variant.CLASSIC, open_tiles, count)
        assert p == ref_p_count("classic", open_tiles, count)
        assert e == ref_e_count("classic", open_tiles, count)


def test_throw_values_refuses_one_die_where_not_allowed() -> None:
    with pytest.raises(ValueError, match="1 dice may not be thrown"):
        solver.throw_values(Variant.JACKPOT, frozenset({1, 2}), 1)
    with pytest.raises(ValueError):
        solver.throw_values(Variant.CLASSIC, frozenset({1, 7}), 1)


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("strength", list(Strength))
def test_policy_values_match_brute_force_on_every_open_set(
    variant: Variant, strength: Strength
) -> None:
    for open_tiles in ALL_SETS:
        expected = ref_policy(variant.value, strength.value, open_tiles)
        assert policy.policy_values(variant, strength, open_tiles) == expected


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("strength", list(Strength))
def test_no_bot_beats_the_optimum(variant: Variant, strength: Strength) -> None:
    for open_tiles in ALL_SETS:
        p, e = policy.policy_values(variant, strength, open_tiles)
        assert p <= solver.p_shut_max(variant, open_tiles)
        assert e >= solver.expected_score_min(variant, open_tiles)


def test_best_bots_reach_the_optimum_they_aim_for() -> None:
    # Jackpot best maximises P(jackpot) first; Classic best minimises the score first.
    assert policy.policy_values(Variant.JACKPOT, Strength.BEST)[0] == solver.p_shut_max(
        Variant.JACKPOT
    )
    assert policy.policy_values(Variant.CLASSIC, Strength.BEST)[1] == solver.expected_score_min(
        Variant.CLASSIC
    )


def test_full_board_bot_figures() -> None:
    figures = {
        (v, s): tuple(round(float(x), 4) for x in policy.policy_values(v, s))
        for v in Variant
        for s in Strength
    }
    assert figures == {
        (Variant.JACKPOT, Strength.LOWEST): (0.0133, 23.3474),
        (Variant.JACKPOT, Strength.HIGHEST): (0.0477, 14.7983),
        (Variant.JACKPOT, Strength.BEST): (0.0800, 14.6717),
        (Variant.CLASSIC, Strength.LOWEST): (0.0104, 24.1503),
        (Variant.CLASSIC, Strength.HIGHEST): (0.0696, 11.3733),
        (Variant.CLASSIC, Strength.BEST): (0.0967, 11.0092),
    }
