"""How well each bot plays: its exact chance of shutting the box and expected turn
score from every open set, found by following its own choices over the whole table.

The bots choose with the solver's optimal values, so this sits above both
(solver <- bots <- policy): ``jackpot solve`` and ``jackpot simulate`` compare a
bot's exact values with the optimum and with Monte Carlo.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from jackpot.engine.tiles import FULL, Variant, from_mask, score, to_mask
from jackpot.strategy.bots import choose_cover_mask, choose_dice_count_mask
from jackpot.strategy.solver import MASKS, mask_options, throw_classes
from jackpot.strategy.strength import Strength


@dataclass(frozen=True)
class PolicyTable:
    """Exact (P(shut), expected score) of one bot from every open set, by mask."""

    variant: Variant
    strength: Strength
    p_shut: tuple[Fraction, ...]
    expected_score: tuple[Fraction, ...]


@cache
def policy_table(variant: Variant, strength: Strength) -> PolicyTable:
    """Evaluate a bot exactly by following its own choices over the whole table."""
    p_shut: list[Fraction] = [Fraction(0)] * MASKS
    expected: list[Fraction] = [Fraction(0)] * MASKS
    p_shut[0] = Fraction(1)
    for mask in range(1, MASKS):
        count = choose_dice_count_mask(variant, strength, mask)
        left = score(from_mask(mask))
        p = Fraction(0)
        e = Fraction(0)
        for dice, weight in throw_classes(variant, count):
            if mask_options(variant, mask, dice):
                rest = mask & ~to_mask(choose_cover_mask(variant, strength, mask, dice))
                p += weight * p_shut[rest]
                e += weight * expected[rest]
            else:
                e += weight * left
        p_shut[mask] = p / 6**count
        expected[mask] = e / 6**count
    return PolicyTable(variant, strength, tuple(p_shut), tuple(expected))


def policy_values(
    variant: Variant, strength: Strength, open_tiles: frozenset[int] = FULL
) -> tuple[Fraction, Fraction]:
    """(P(shut), expected turn score) of the ``strength`` bot from ``open_tiles``."""
    table = policy_table(variant, strength)
    mask = to_mask(open_tiles)
    return table.p_shut[mask], table.expected_score[mask]
