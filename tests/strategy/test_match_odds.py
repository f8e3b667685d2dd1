"""The odds the site asks for, from an engine Match: states read right, options and their values."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

import pytest

from jackpot.engine import FULL, Match, Turn, Variant
from jackpot.engine.tiles import options, to_mask
from jackpot.strategy.bots import choose_cover
from jackpot.strategy.chances import Chances
from jackpot.strategy.classic_match import Facing, classic_table
from jackpot.strategy.jackpot_match import jackpot_chances
from jackpot.strategy.match_odds import (
    JackpotRound,
    classic_facing,
    jackpot_round,
    match_odds,
)
from jackpot.strategy.skill import Decision
from jackpot.strategy.solver import expected_score_min, p_shut_max, throw_values
from jackpot.strategy.strength import Strength

CLASSIC = Variant.CLASSIC
JACKPOT = Variant.JACKPOT
F = Fraction


def position(
    variant: Variant,
    seats: int,
    seat: int,
    open_tiles: Iterable[int] = FULL,
    dice: tuple[int, ...] | None = None,
    totals: tuple[int, ...] | None = None,
    out: tuple[str | None, ...] | None = None,
    shut: tuple[int | None, ...] | None = None,
) -> Match:
    """A match at any position, built directly (the engine's own fields)."""
    tiles = frozenset(open_tiles)
    return Match(
        variant=variant,
        seats=seats,
        round=1,
        throws=10,
        totals=totals or (0,) * seats,
        out=out or (None,) * seats,
        left=tuple(s for s in range(seats) if out and out[s]),
        shut=shut or (None,) * seats,
        turn=Turn(seat, tiles, dice, options(variant, tiles, dice) if dice else (), 1),
        result=None,
    )


def odds_of(match: Match):  # type: ignore[no-untyped-def]
    odds = match_odds(match)
    assert odds is not None
    return odds


def test_second_seat_after_a_real_first_turn() -> None:
    m = Match.new(CLASSIC, 2)
    for dice, cover in [((6, 6), (3, 9)), ((5, 5), (2, 8)), ((6, 1), (7,)), ((1, 1), None)]:
        m, _ = m.throw(0, dice)
        if cover:
            m, _ = m.cover(0, cover)
    assert m.turn is not None and m.turn.seat == 1
    score = m.totals[0]
    assert score == 1 + 4 + 5 + 6  # 1 and 1 reach nothing among 1, 4, 5, 6
    table = classic_table(Facing(score, 1, 0))
    odds = odds_of(m)
    assert classic_facing(m) == Facing(16, 1, 0)
    assert odds.decision is None and odds.options == () and odds.best is None
    assert odds.chances == table.chances(to_mask(FULL))
    assert odds.p_shut == p_shut_max(CLASSIC)
    m, _ = m.throw(1, (4, 5))
    odds = odds_of(m)
    assert odds.decision == "cover"
    assert [o.choice for o in odds.options] == list(options(CLASSIC, FULL, (4, 5)))
    for o in odds.options:
        rest = FULL - set(o.tiles or ())
        assert o.chances == table.chances(to_mask(rest))
        assert o.p_shut == p_shut_max(CLASSIC, rest)
        assert o.expected_score == expected_score_min(CLASSIC, rest)
    assert odds.best is not None
    assert odds.best.choice == table.choose_cover(to_mask(FULL), (4, 5))
    assert odds.chances == odds.best.chances
    assert odds.given_away(odds.best.choice) == 0
    assert all(odds.given_away(o.choice) >= 0 for o in odds.options)


def test_where_the_chance_to_shut_and_the_chance_to_win_part() -> None:
    """Two seats; the second faces 27 on a full board and throws 5 and 6."""
    odds = odds_of(position(CLASSIC, 2, 1, dice=(5, 6), totals=(27, 0)))
    by_shut = max(odds.options, key=lambda o: o.p_shut)
    assert by_shut.choice == (2, 9)
    assert odds.best is not None and odds.best.choice == (3, 8)
    assert odds.best.p_shut < by_shut.p_shut
    assert odds.best.chances == Chances(F(3785, 3888), F(1, 243), F(3793, 3888))  # eq. 0.9755658
    assert by_shut.chances == Chances(F(137, 144), F(1, 144), F(275, 288))  # eq. 0.9548611
    assert odds.given_away((2, 9)) == F(161, 7776)  # 2.07 points of winning chance


def test_keep_the_one_open_when_the_score_to_beat_is_two() -> None:
    """Two seats; the second faces 2 with 1 to 6 open and throws a double 6."""
    odds = odds_of(position(CLASSIC, 2, 1, open_tiles=range(1, 7), dice=(6, 6), totals=(2, 0)))
    by_shut = max(odds.options, key=lambda o: o.p_shut)
    assert by_shut.choice == (1, 5, 6)  # leaves 2, 3, 4: shuts 21.67%, never ends on 1
    assert by_shut.chances == Chances(F(1685, 7776), F(205, 1296), F(575, 1944))
    assert odds.best is not None and odds.best.choice == (3, 4, 5)  # leaves 1, 2, 6
    assert odds.best.p_shut == F(1613, 7776)  # 20.74%
    assert odds.best.chances == Chances(F(28, 81), F(205, 1296), F(367, 864))
    assert odds.given_away((1, 5, 6)) == F(1003, 7776)  # 12.9 points


def test_the_choice_of_one_die_or_two() -> None:
    match = position(CLASSIC, 3, 1, open_tiles={1, 2, 3, 4}, totals=(8, 0, 0))
    odds = odds_of(match)
    table = classic_table(Facing(8, 1, 1))
    mask = to_mask({1, 2, 3, 4})
    assert odds.decision == "dice"
    assert [o.choice for o in odds.options] == [1, 2]
    for o in odds.options:
        assert o.dice_count == o.choice and o.tiles is None
        assert o.chances == table.count_chances(mask, o.choice)  # type: ignore[arg-type]
        assert (o.p_shut, o.expected_score) == throw_values(CLASSIC, {1, 2, 3, 4}, o.choice)  # type: ignore[arg-type]
    assert odds.best is not None and odds.best.choice == table.choose_dice_count(mask)
    assert odds.chances == table.chances(mask)
    decision = odds.decision_for(2)
    assert decision == Decision("dice", 2, odds.given_away(2))
    assert decision.counts


def test_seats_that_are_out_do_not_compete() -> None:
    # Seat 0 scored 5 and then resigned; seat 1 scored 12: seat 2 has 12 to beat.
    m = position(CLASSIC, 3, 2, totals=(5, 12, 0), out=("resigned", None, None))
    assert classic_facing(m) == Facing(12, 1, 0)
    # A later seat that has gone out will not play.
    m = position(CLASSIC, 4, 0, out=(None, None, "timeout", None))
    assert classic_facing(m) == Facing(None, 0, 2)
    m = position(CLASSIC, 4, 2, totals=(9, 9, 0, 0))
    assert classic_facing(m) == Facing(9, 2, 1)


def test_jackpot_round_counts_only_seats_still_in() -> None:
    m = position(JACKPOT, 3, 1, shut=(9, None, None))
    assert jackpot_round(m) == JackpotRound(seats_in=3, shut_before=1, after=1)
    odds = odds_of(m)
    assert odds.chances == jackpot_chances(p_shut_max(JACKPOT), seats_in=3, shut_before=1, after=1)
    assert odds.p_win == 0 and odds.p_draw == p_shut_max(JACKPOT)
    gone = position(JACKPOT, 3, 1, shut=(9, None, None), out=("resigned", None, None))
    assert jackpot_round(gone) == JackpotRound(seats_in=2, shut_before=0, after=1)


def test_in_jackpot_the_best_option_is_always_the_best_bots() -> None:
    for mask in range(1, 512):
        tiles = frozenset(t for t in range(1, 10) if mask >> (t - 1) & 1)
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                if not options(JACKPOT, tiles, (d1, d2)):
                    continue
                odds = odds_of(position(JACKPOT, 4, 1, tiles, (d1, d2)))
                assert odds.best is not None
                assert odds.best.choice == choose_cover(JACKPOT, Strength.BEST, tiles, (d1, d2))


@pytest.mark.parametrize("variant", list(Variant))
def test_a_solo_seat_plays_for_the_chance_to_shut(variant: Variant) -> None:
    tiles = {1, 2, 3, 4, 5, 8}
    odds = odds_of(position(variant, 1, 0, tiles, (4, 4)))
    for o in odds.options:
        p = p_shut_max(variant, tiles - set(o.tiles or ()))
        assert o.chances == Chances(p, F(0), p)
    assert odds.best is not None
    assert odds.best.p_shut == max(o.p_shut for o in odds.options)
    assert odds.chances == odds.best.chances
    before = odds_of(position(variant, 1, 0, tiles))
    assert before.chances == Chances(p_shut_max(variant, tiles), F(0), p_shut_max(variant, tiles))


def test_a_finished_match_has_no_odds() -> None:
    m = Match.new(CLASSIC, 2)
    m, _ = m.leave(0, "resigned")
    assert m.finished
    assert match_odds(m) is None
    with pytest.raises(ValueError, match="over"):
        classic_facing(m)


def test_a_choice_that_was_not_on_offer_is_refused() -> None:
    odds = odds_of(position(CLASSIC, 2, 1, dice=(1, 2), totals=(20, 0)))
    with pytest.raises(ValueError, match="not an option"):
        odds.given_away((4,))
    assert odds.given_away([2, 1]) == odds.given_away((1, 2))  # type: ignore[arg-type]
    forced = odds_of(position(CLASSIC, 2, 1, totals=(20, 0)))
    with pytest.raises(ValueError, match="nothing was to be chosen"):
        forced.given_away(2)
    with pytest.raises(ValueError, match="nothing was to be chosen"):
        forced.decision_for(2)


def test_a_forced_cover_is_a_decision_that_does_not_count() -> None:
    odds = odds_of(position(CLASSIC, 2, 1, open_tiles={1, 9}, dice=(4, 6), totals=(20, 0)))
    assert [o.choice for o in odds.options] == [(1, 9)]
    decision = odds.decision_for((1, 9))
    assert decision == Decision("cover", 1, F(0))
    assert not decision.counts
