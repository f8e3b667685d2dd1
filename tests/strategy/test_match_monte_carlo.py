"""Monte Carlo play of the computed policies lands on the exact match chances (99.9% intervals).

The games are played by match_simulation.py from the rules; only the choices come
from the tables under test. Each check is seeded, so a run is reproducible.
"""

from __future__ import annotations

import numpy as np
import pytest
from match_simulation import FULL_MASK, Tally, classic_match, jackpot_match

from jackpot.engine.tiles import Variant, to_mask
from jackpot.strategy.chances import Chances
from jackpot.strategy.classic_match import Facing, classic_table
from jackpot.strategy.jackpot_match import jackpot_chances
from jackpot.strategy.solver import p_shut_max

GAMES = 100_000


def inside(tally: Tally, chances: Chances) -> list[str]:
    return tally.holds(float(chances.p_win), float(chances.p_draw), float(chances.equity))


@pytest.mark.parametrize("to_beat", [1, 11, 20])
def test_second_of_two_seats_facing_a_score(to_beat: int) -> None:
    rng = np.random.default_rng(37 + to_beat)
    seats = classic_match([to_beat], FULL_MASK, 0, GAMES, rng)
    exact = classic_table(Facing(to_beat, 1, 0)).chances(FULL_MASK)
    assert inside(seats[1], exact) == []


def test_a_whole_two_seat_classic_match() -> None:
    seats = classic_match([], FULL_MASK, 1, GAMES, np.random.default_rng(2))
    first = classic_table(Facing(None, 0, 1)).chances(FULL_MASK)
    assert inside(seats[0], first) == []
    # The second seat answers every score with its own table: its equity is the rest.
    assert seats[1].equity_outside(float(1 - first.equity)) is None


def test_third_of_four_seats_with_the_dice_choice_open() -> None:
    """Seats 0 and 1 both ended on 9; seat 2 has 1 to 6 left (one die allowed) and
    seat 3 still plays after it, answering whatever seat 2 does."""
    start = to_mask(range(1, 7))
    seats = classic_match([9, 9], start, 1, GAMES, np.random.default_rng(4))
    exact = classic_table(Facing(9, 2, 1)).chances(start)
    assert inside(seats[2], exact) == []


def test_jackpot_after_a_seat_already_shut_this_round() -> None:
    seats = jackpot_match(3, 1, FULL_MASK, [0], GAMES, np.random.default_rng(5))
    p = p_shut_max(Variant.JACKPOT)
    exact = jackpot_chances(p, seats_in=3, shut_before=1, after=1)
    assert inside(seats[1], exact) == []


def test_jackpot_mid_turn_with_later_rounds() -> None:
    tiles = {1, 2, 5, 7, 9}
    seats = jackpot_match(3, 1, to_mask(tiles), [], GAMES, np.random.default_rng(6))
    q = p_shut_max(Variant.JACKPOT, tiles)
    exact = jackpot_chances(q, seats_in=3, shut_before=0, after=1)
    assert inside(seats[1], exact) == []
