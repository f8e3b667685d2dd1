"""Classic match equity: the published vectors, an independent reference, sums that must hold."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest
from match_reference import FULL, ref_count, ref_rest, ref_value

from jackpot.engine.tiles import Option, Variant, from_mask, to_mask
from jackpot.strategy.bots import choose_cover_mask, choose_dice_count_mask
from jackpot.strategy.chances import WON
from jackpot.strategy.classic_match import Facing, classic_table, facings
from jackpot.strategy.classic_turn import FULL_MASK, SCORE, ranked_covers
from jackpot.strategy.solver import MASKS, mask_options, p_shut_max, throw_classes
from jackpot.strategy.strength import Strength

CLASSIC = Variant.CLASSIC
F = Fraction


def final_scores(
    count: Callable[[int], int], cover: Callable[[int, tuple[int, ...]], Option]
) -> list[Fraction]:
    """The exact distribution of a turn's final score (0: shut) under a policy."""
    reach = [F(0)] * MASKS
    reach[FULL_MASK] = F(1)
    ends = [F(0)] * 46
    for mask in range(MASKS - 1, 0, -1):
        if not reach[mask]:
            continue
        n = count(mask)
        for dice, weight in throw_classes(CLASSIC, n):
            p = reach[mask] * weight / 6**n
            if mask_options(CLASSIC, mask, dice):
                reach[mask & ~to_mask(cover(mask, dice))] += p
            else:
                ends[SCORE[mask]] += p
    ends[0] += reach[0]
    return ends


def table_scores(facing: Facing) -> list[Fraction]:
    table = classic_table(facing)
    return final_scores(table.choose_dice_count, table.choose_cover)


def bot_scores() -> list[Fraction]:
    return final_scores(
        lambda m: choose_dice_count_mask(CLASSIC, Strength.BEST, m),
        lambda m, d: choose_cover_mask(CLASSIC, Strength.BEST, m, d),
    )


@pytest.mark.parametrize(
    ("to_beat", "p_win", "p_draw"),
    [
        (1, F(313788895, 3265173504), F(232618525, 6530347008)),
        (11, F(94461211, 181398528), F(106117987, 2176782336)),
        (20, F(51889745, 60466176), F(4401119, 181398528)),
    ],
)
def test_second_of_two_seats_on_a_full_board(
    to_beat: int, p_win: Fraction, p_draw: Fraction
) -> None:
    chances = classic_table(Facing(to_beat, 1, 0)).chances(FULL_MASK)
    assert (chances.p_win, chances.p_draw) == (p_win, p_draw)
    assert chances.equity == p_win + p_draw / 2


def test_facing_one_gives_up_a_little_of_the_chance_to_shut_for_the_draw() -> None:
    # Facing 1, only a shut box wins: p_win is the chance of shutting it, a little below
    # the most a full board can shut, because ending on exactly 1 draws.
    top = p_shut_max(CLASSIC)
    assert top == F(956177159, 9795520512)
    chances = classic_table(Facing(1, 1, 0)).chances(FULL_MASK)
    assert chances.p_win < top
    assert chances.equity > top / 1  # ...and the draws more than make up for it


def test_second_seat_against_the_best_bot_reproduces_the_measured_figures() -> None:
    """Seat 1 of 2 against a first seat playing the best bot: 49.88% playing for the
    score to beat, 49.53% playing the best bot too (a draw counted half)."""
    first = bot_scores()
    bot = first  # the same bot's distribution, for the second seat playing it
    for_the_match = sum(
        (first[s] * classic_table(Facing(s, 1, 0)).chances(FULL_MASK).equity for s in range(1, 46)),
        F(0),
    )
    as_the_bot = sum((first[s] * (sum(bot[:s], F(0)) + bot[s] / 2) for s in range(1, 46)), F(0))
    assert for_the_match == F(255240376044278815643, 511745184538734624768)
    assert as_the_bot == F(1520883350198047532279, 3070471107232407748608)
    assert round(float(for_the_match), 4) == 0.4988
    assert round(float(as_the_bot), 4) == 0.4953


def test_two_seats_equities_add_up_to_one() -> None:
    first = classic_table(Facing(None, 0, 1)).chances(FULL_MASK).equity
    ends = table_scores(Facing(None, 0, 1))
    second = sum(
        (ends[s] * classic_table(Facing(s, 1, 0)).chances(FULL_MASK).equity for s in range(1, 46)),
        F(0),
    )
    assert first + second == 1


def test_three_seats_equities_add_up_to_one() -> None:
    total = classic_table(Facing(None, 0, 2)).chances(FULL_MASK).equity
    after_first = table_scores(Facing(None, 0, 2))
    for s in range(1, 46):
        if not after_first[s]:
            continue
        total += after_first[s] * classic_table(Facing(s, 1, 1)).chances(FULL_MASK).equity
        after_second = table_scores(Facing(s, 1, 1))
        for t in range(1, 46):
            if not after_second[t]:
                continue
            low, holders = (t, 1) if t < s else (s, 2) if t == s else (s, 1)
            third = classic_table(Facing(low, holders, 0)).chances(FULL_MASK).equity
            total += after_first[s] * after_second[t] * third
    assert total == 1


@pytest.mark.parametrize("facing", [Facing(1, 1, 1), Facing(2, 2, 1)])
def test_a_naive_independent_solver_agrees(facing: Facing) -> None:
    """Three and four seats: values and every choice, against match_reference.py."""
    table = classic_table(facing)
    args = (facing.to_beat, facing.holders, facing.after)
    chances = table.chances(FULL_MASK)
    assert ref_value(FULL, *args) == (chances.equity, chances.p_win, chances.p_draw)
    for mask in range(1, MASKS):
        tiles = from_mask(mask)
        assert table.choose_dice_count(mask) == ref_count(tiles, *args)
        for total in range(2, 13):
            dice = (1, total - 1) if total <= 7 else (total - 6, 6)
            rest = ref_rest(tiles, *args, dice)
            if rest is None:
                assert not mask_options(CLASSIC, mask, dice)
            else:
                assert tiles - set(table.choose_cover(mask, dice)) == rest


def test_fixed_vectors_for_three_and_four_seats() -> None:
    # Three seats: the second facing 11, one seat after it, on a full board.
    c = classic_table(Facing(11, 1, 1)).chances(FULL_MASK)
    assert c.p_win == F(36281380725743583355, 95952222101012742144)  # 0.3781192
    assert c.p_draw == F(16118490703877735069, 383808888404050968576)  # 0.0419961
    assert c.equity == F(306067899382787242261, 767617776808101937152)  # 0.3987244
    # Four seats: the third, both seats before it on 9, one seat after it.
    c = classic_table(Facing(9, 2, 1)).chances(FULL_MASK)
    assert c.p_win == F(62154353202748654295, 191904444202025484288)  # 0.3238818
    assert c.p_draw == F(52909734842471859547, 1151426665212152905728)  # 0.0459515
    assert c.equity == F(785533967278515565927, 2302853330424305811456)  # 0.3411133
    # The first seat's equity in a match of two, three and four seats.
    first = [classic_table(Facing(None, 0, n)).chances(FULL_MASK).equity for n in (1, 2, 3)]
    assert [round(float(e), 7) for e in first] == [0.5014898, 0.3394169, 0.2604884]


def test_ties_fall_to_the_best_bots_rule() -> None:
    for mask in range(1, MASKS):
        for total in range(2, 13):
            dice = (1, total - 1) if total <= 7 else (total - 6, 6)
            ranked = ranked_covers(mask, dice)
            if ranked:
                assert ranked[0][0] == choose_cover_mask(CLASSIC, Strength.BEST, mask, dice)


def test_a_shut_box_wins_whatever_the_state() -> None:
    assert len(facings()) == 273 and len(facings(2)) == 46
    for facing in facings():
        assert classic_table(facing).chances(0) == WON


def test_the_last_seat_cannot_win_above_the_score_to_beat() -> None:
    table = classic_table(Facing(5, 1, 0))
    # {6}: ending now scores 6 > 5, and the only way on is to cover the 6 itself,
    # which one die does more often (1 in 6) than two (5 in 36).
    six = to_mask({6})
    assert table.chances(six) == table.count_chances(six, 1)
    assert table.chances(six).p_win == F(1, 6)
    assert table.count_chances(six, 2).p_win == F(5, 36)
    assert table.choose_dice_count(six) == 1
    assert table.chances(six).p_draw == 0


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ((None, 1, 0), "held by at least one seat"),
        ((5, 0, 0), "held by at least one seat"),
        ((0, 1, 0), "1 to 45"),
        ((5, 2, 2), "at most 4 seats"),
        ((5, 1, -1), "zero or more"),
    ],
)
def test_impossible_states_are_refused(args: tuple[int | None, int, int], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Facing(*args)


def test_one_die_is_refused_where_the_rules_refuse_it() -> None:
    table = classic_table(Facing(10, 1, 0))
    with pytest.raises(ValueError, match="one die"):
        table.count_chances(FULL_MASK, 1)
    assert table.count_chances(FULL_MASK, 2) == table.chances(FULL_MASK)
    with pytest.raises(ValueError, match="reach nothing"):
        table.choose_cover(to_mask({9}), (1, 1))
