"""The three bots of jackpot-fair/1, as docs/fair-play.md ("Bot strengths") states them.

A verifier replays every bot choice from the record, so each rule here is the
specification word for word, tie-breaks included, and the best bot compares exact
Fractions from the solver, never floats.
"""

from __future__ import annotations

from functools import cache

from jackpot.engine.tiles import (
    Option,
    Variant,
    from_mask,
    may_throw_one_die,
    to_mask,
)
from jackpot.strategy.solver import mask_options, optimal_table
from jackpot.strategy.strength import Strength


@cache
def choose_dice_count_mask(variant: Variant, strength: Strength, mask: int) -> int:
    """Mask form of :func:`choose_dice_count`, cached for the table builders."""
    if strength is not Strength.BEST or not may_throw_one_die(variant, from_mask(mask)):
        return 2
    table = optimal_table(variant)
    one = table.e_by_count[1][mask]
    two = table.e_by_count[2][mask]
    assert one is not None and two is not None
    # Strictly lower only: on a tie the bot keeps the ordinary two dice.
    return 1 if one < two else 2


def choose_dice_count(variant: Variant, strength: Strength, open_tiles: frozenset[int]) -> int:
    """How many dice the bot throws next (always 2 in Jackpot and while 7, 8 or 9 is open)."""
    return choose_dice_count_mask(variant, strength, to_mask(open_tiles))


def _descending(option: Option) -> tuple[int, ...]:
    return tuple(sorted(option, reverse=True))


@cache
def choose_cover_mask(
    variant: Variant, strength: Strength, mask: int, dice: tuple[int, ...]
) -> Option:
    """Mask form of :func:`choose_cover`, cached for the table builders."""
    opts = mask_options(variant, mask, dice)
    if not opts:
        raise ValueError(
            f"no option to choose: the dice {', '.join(map(str, dice))} reach nothing "
            f"among the open tiles {sorted(from_mask(mask))}"
        )
    if variant is Variant.JACKPOT:
        if strength is Strength.LOWEST:
            return min(opts)
        if strength is Strength.HIGHEST:
            return max(opts)
        table = optimal_table(variant)

        def jackpot_key(o: Option) -> tuple[object, ...]:
            rest = mask & ~to_mask(o)
            return (table.p_max[rest], -table.e_min[rest], o[0])

        return max(opts, key=jackpot_key)
    if strength is Strength.LOWEST:
        return min(opts)  # options are sorted ascending, so this is lexicographic
    if strength is Strength.HIGHEST:
        return max(opts, key=_descending)
    table = optimal_table(variant)

    def classic_key(o: Option) -> tuple[object, ...]:
        rest = mask & ~to_mask(o)
        return (-table.e_min[rest], table.p_max[rest], _descending(o))

    return max(opts, key=classic_key)


def _check_dice(variant: Variant, open_tiles: frozenset[int], dice: tuple[int, ...]) -> None:
    if len(dice) not in (1, 2) or any(not 1 <= d <= 6 for d in dice):
        raise ValueError(f"dice must be one or two values from 1 to 6, not {dice!r}")
    if len(dice) == 1 and not may_throw_one_die(variant, open_tiles):
        raise ValueError("one die may be thrown only in Classic once 7, 8 and 9 are covered")


def choose_cover(
    variant: Variant, strength: Strength, open_tiles: frozenset[int], dice: tuple[int, ...]
) -> Option:
    """The option the bot covers after ``dice``; ValueError if the throw offers none."""
    _check_dice(variant, open_tiles, dice)
    return choose_cover_mask(variant, strength, to_mask(open_tiles), tuple(dice))
