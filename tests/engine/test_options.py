"""Every example of the site's rules page and of the Classic pub rules."""

import pytest

from jackpot.engine import FULL, Variant, describe_options, may_throw_one_die, options

J, C = Variant.JACKPOT, Variant.CLASSIC


def test_two_and_three_reach_two_three_or_five() -> None:
    assert options(J, FULL, (2, 3)) == ((2,), (3,), (5,))


def test_a_double_gives_two_choices_not_three() -> None:
    assert options(J, FULL, (3, 3)) == ((3,), (6,))


def test_double_six_reaches_only_the_six() -> None:
    assert options(J, FULL, (6, 6)) == ((6,),)
    assert options(J, FULL - {6}, (6, 6)) == ()


@pytest.mark.parametrize("dice", [(4, 6), (5, 5), (5, 6), (6, 6)])
def test_sums_over_nine_cover_nothing_by_the_sum(dice: tuple[int, int]) -> None:
    assert all(o[0] <= 6 for o in options(J, FULL, dice))
    assert options(J, frozenset({7, 8, 9}), dice) == ()


def test_only_a_die_showing_one_reaches_the_one() -> None:
    for a in range(1, 7):
        for b in range(1, 7):
            reaches_one = options(J, frozenset({1}), (a, b)) == ((1,),)
            assert reaches_one == (1 in (a, b))


def test_jackpot_options_are_single_open_tiles() -> None:
    assert options(J, frozenset({1, 7}), (1, 6)) == ((1,), (7,))
    assert options(J, frozenset({4}), (1, 6)) == ()


def test_classic_eight_offers_the_six_sets_of_the_pub_rules() -> None:
    got = {frozenset(o) for o in options(C, FULL, (2, 6))}
    want = {frozenset(s) for s in ({8}, {7, 1}, {6, 2}, {5, 3}, {5, 2, 1}, {4, 3, 1})}
    assert got == want


def test_classic_one_five_nine_and_a_four_ends_the_turn() -> None:
    open_tiles = frozenset({1, 5, 9})
    assert options(C, open_tiles, (1, 3)) == ()
    assert options(C, open_tiles, (2, 2)) == ()
    assert sum(open_tiles) == 15


def test_classic_one_die_only_once_seven_eight_nine_are_down() -> None:
    assert not may_throw_one_die(C, FULL)
    assert not may_throw_one_die(C, frozenset({1, 2, 9}))
    assert may_throw_one_die(C, frozenset({1, 2, 6}))
    assert not may_throw_one_die(J, frozenset({1, 2}))
    assert options(C, frozenset({1, 2, 3}), (3,)) == ((1, 2), (3,))


def test_describe_options_reads_like_a_sentence() -> None:
    assert describe_options(((2,), (3,), (5,))) == "2, 3 or 5"
    assert describe_options(((6,),)) == "6"
    assert describe_options(((1, 7), (8,))) == "{1, 7} or 8"
    assert describe_options(()) == "nothing"
