from fractions import Fraction

import pytest
from strategy_reference import ref_choice, ref_dice_count, ref_e_count, ref_options

from jackpot.engine.tiles import FULL, Variant, from_mask
from jackpot.strategy import Strength, bots, solver

J, C = Variant.JACKPOT, Variant.CLASSIC
LOWEST, HIGHEST, BEST = Strength.LOWEST, Strength.HIGHEST, Strength.BEST
ORDERED_THROWS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def test_jackpot_lowest_and_highest_on_two_and_three() -> None:
    assert bots.choose_cover(J, LOWEST, FULL, (2, 3)) == (2,)
    assert bots.choose_cover(J, HIGHEST, FULL, (2, 3)) == (5,)


def test_jackpot_double_offers_two_options() -> None:
    assert bots.choose_cover(J, LOWEST, FULL, (3, 3)) == (3,)
    assert bots.choose_cover(J, HIGHEST, FULL, (3, 3)) == (6,)


def test_jackpot_best_spends_the_sum_on_a_high_tile() -> None:
    assert bots.choose_cover(J, BEST, FULL, (3, 4)) == (7,)
    assert bots.choose_cover(J, BEST, FULL, (4, 5)) == (9,)


def test_jackpot_best_keeps_the_two_for_later_with_one_and_two() -> None:
    # Covering the 1 now, while a die shows one, leaves the easier 2 open.
    assert bots.choose_cover(J, BEST, FULL, (1, 2)) == (1,)


def test_jackpot_best_breaks_an_equal_probability_on_expected_score() -> None:
    open_tiles = frozenset({1, 2, 8})
    keep_2, keep_1 = frozenset({2, 8}), frozenset({1, 8})
    assert solver.p_shut_max(J, keep_2) == solver.p_shut_max(J, keep_1)
    e2, e1 = solver.expected_score_min(J, keep_2), solver.expected_score_min(J, keep_1)
    assert e2 != e1
    expected = (1,) if e2 < e1 else (2,)
    assert bots.choose_cover(J, BEST, open_tiles, (1, 2)) == expected


def test_classic_lowest_and_highest_on_a_total_of_eight() -> None:
    assert bots.choose_cover(C, LOWEST, FULL, (3, 5)) == (1, 2, 5)
    # Sorted descending, (8,) beats (7, 1).
    assert bots.choose_cover(C, HIGHEST, FULL, (3, 5)) == (8,)


def test_classic_highest_compares_descending_tuples() -> None:
    # Total 12: (9, 3) > (9, 2, 1) > (8, 4) > ...
    assert bots.choose_cover(C, HIGHEST, FULL, (6, 6)) == (3, 9)


def test_classic_best_falls_back_to_the_highest_rule_on_a_full_tie() -> None:
    # Total 5 from {1, 2, 3, 4}: leaving {2, 3} or {1, 4} is worth the same.
    open_tiles = frozenset({1, 2, 3, 4})
    for rest in (frozenset({2, 3}), frozenset({1, 4})):
        assert solver.expected_score_min(C, rest) == solver.expected_score_min(C, frozenset({2, 3}))
        assert solver.p_shut_max(C, rest) == solver.p_shut_max(C, frozenset({2, 3}))
    assert bots.choose_cover(C, BEST, open_tiles, (1, 4)) == (1, 4)


def test_dice_count_is_two_except_for_the_classic_best_bot() -> None:
    low = frozenset({1})
    assert bots.choose_dice_count(J, BEST, low) == 2
    assert bots.choose_dice_count(C, LOWEST, low) == 2
    assert bots.choose_dice_count(C, HIGHEST, low) == 2
    assert bots.choose_dice_count(C, BEST, low) == 1
    assert bots.choose_dice_count(C, BEST, FULL) == 2


def test_classic_best_one_die_rule_follows_expected_score_not_shut_chance() -> None:
    # {1, 2, 4}: one die leaves a lower expected score, two dice a better chance
    # to shut. The rule is the expected score, so one die.
    open_tiles = frozenset({1, 2, 4})
    p1, e1 = solver.throw_values(C, open_tiles, 1)
    p2, e2 = solver.throw_values(C, open_tiles, 2)
    assert e1 < e2 and p1 < p2
    assert e1 == ref_e_count("classic", open_tiles, 1)
    assert e2 == ref_e_count("classic", open_tiles, 2)
    assert bots.choose_dice_count(C, BEST, open_tiles) == 1


def test_classic_best_keeps_two_dice_where_they_are_better() -> None:
    open_tiles = frozenset({3, 4})
    _, e1 = solver.throw_values(C, open_tiles, 1)
    _, e2 = solver.throw_values(C, open_tiles, 2)
    assert e2 < e1
    assert bots.choose_dice_count(C, BEST, open_tiles) == 2


def test_hand_checked_one_die_value() -> None:
    # Classic {1}: one die scores 1 five times in six; two dice always score 1.
    assert solver.throw_values(C, frozenset({1}), 1) == (Fraction(1, 6), Fraction(5, 6))


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("strength", list(Strength))
def test_every_choice_matches_the_reference(variant: Variant, strength: Strength) -> None:
    for mask in range(1, 512):
        open_tiles = from_mask(mask)
        count = bots.choose_dice_count(variant, strength, open_tiles)
        assert count == ref_dice_count(variant.value, strength.value, open_tiles)
        throws = ORDERED_THROWS if count == 2 else [(d,) for d in range(1, 7)]
        for dice in throws:
            if ref_options(variant.value, open_tiles, dice):
                chosen = bots.choose_cover(variant, strength, open_tiles, dice)
                assert chosen == ref_choice(variant.value, strength.value, open_tiles, dice)


def test_no_option_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="reach nothing"):
        bots.choose_cover(J, BEST, frozenset({1, 2}), (6, 6))
    with pytest.raises(ValueError, match="reach nothing"):
        bots.choose_cover(C, LOWEST, frozenset({9}), (1, 1))


def test_bad_dice_are_refused() -> None:
    with pytest.raises(ValueError, match="one die"):
        bots.choose_cover(J, LOWEST, FULL, (3,))
    with pytest.raises(ValueError, match="one die"):
        bots.choose_cover(C, LOWEST, frozenset({1, 9}), (1,))
    with pytest.raises(ValueError, match="1 to 6"):
        bots.choose_cover(J, LOWEST, FULL, (0, 7))
