"""Tiles, variants and the options a throw offers.

Open sets are ``frozenset[int]`` of tiles 1-9 in the engine's public API, and 9-bit
masks (bit ``t - 1`` for tile ``t``) where the solver needs to index tables.
An option is a tuple of distinct tiles sorted ascending; a Jackpot option always
has exactly one tile.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from functools import cache
from itertools import combinations

from jackpot.engine.errors import BadDice

TILES: tuple[int, ...] = tuple(range(1, 10))
FULL: frozenset[int] = frozenset(TILES)
HIGH: frozenset[int] = frozenset({7, 8, 9})

Option = tuple[int, ...]


class Variant(StrEnum):
    JACKPOT = "jackpot"
    CLASSIC = "classic"


def to_mask(tiles: Iterable[int]) -> int:
    mask = 0
    for t in tiles:
        mask |= 1 << (t - 1)
    return mask


def from_mask(mask: int) -> frozenset[int]:
    return frozenset(t for t in TILES if mask >> (t - 1) & 1)


def score(open_tiles: Iterable[int]) -> int:
    """A turn's score: the sum of the tiles still open."""
    return sum(open_tiles)


def may_throw_one_die(variant: Variant, open_tiles: frozenset[int]) -> bool:
    """Classic lets the player throw a single die once 7, 8 and 9 are all covered."""
    return variant is Variant.CLASSIC and not (open_tiles & HIGH)


def jackpot_options(open_tiles: frozenset[int], dice: tuple[int, ...]) -> tuple[Option, ...]:
    """Open tiles among die 1, die 2 and their sum; a double gives two, not three."""
    reachable = {*dice, sum(dice)}
    return tuple((t,) for t in sorted(reachable & open_tiles))


@cache
def _subsets_summing(open_mask: int, total: int) -> tuple[Option, ...]:
    tiles = sorted(from_mask(open_mask))
    found: list[Option] = []
    for size in range(1, len(tiles) + 1):
        found.extend(c for c in combinations(tiles, size) if sum(c) == total)
    return tuple(sorted(found))


def classic_options(open_tiles: frozenset[int], dice: tuple[int, ...]) -> tuple[Option, ...]:
    """Every set of distinct open tiles whose sum is the throw's total."""
    return _subsets_summing(to_mask(open_tiles), sum(dice))


def options(
    variant: Variant, open_tiles: frozenset[int], dice: tuple[int, ...]
) -> tuple[Option, ...]:
    """The options a throw offers, sorted ascending (lexicographic on sorted tiles)."""
    if variant is Variant.JACKPOT:
        return jackpot_options(open_tiles, dice)
    return classic_options(open_tiles, dice)


def describe_options(opts: tuple[Option, ...]) -> str:
    """Human wording: "2, 3 or 5", "{7, 1} or {8}", "nothing"."""
    if not opts:
        return "nothing"
    words = [str(o[0]) if len(o) == 1 else "{" + ", ".join(map(str, o)) + "}" for o in opts]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def describe_dice(dice: tuple[int, ...], variant: Variant) -> str:
    """Human wording: "the die 4", "the dice 2 and 5 (total 7)" (Classic says the total)."""
    if len(dice) == 1:
        return f"the die {dice[0]}"
    words = f"the dice {dice[0]} and {dice[1]}"
    if variant is Variant.CLASSIC:
        words += f" (total {sum(dice)})"
    return words


def describe_tiles(tiles: tuple[int, ...]) -> str:
    """Human wording: "tile 4", "tiles 1, 2 and 6"."""
    if len(tiles) == 1:
        return f"tile {tiles[0]}"
    return "tiles " + ", ".join(map(str, tiles[:-1])) + f" and {tiles[-1]}"


def check_dice(variant: Variant, open_tiles: frozenset[int], dice: tuple[int, ...]) -> None:
    """Refuse dice no throw can show: not one or two dice 1-6, or one die where two are due."""
    if len(dice) not in (1, 2) or any(
        isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6 for d in dice
    ):
        raise BadDice(
            f"a throw is one or two dice from 1 to 6, not {list(dice)}",
            "dice_range",
            given=list(dice),
        )
    if len(dice) == 1 and not may_throw_one_die(variant, open_tiles):
        classic = variant is Variant.CLASSIC
        raise BadDice(
            "one die is allowed only in Classic, once 7, 8 and 9 are all covered"
            if classic
            else "Jackpot is always played with two dice",
            "one_die_classic" if classic else "one_die_jackpot",
        )
