"""A naive, independent reference for the strategy tests.

It shares no code with ``jackpot.strategy`` or ``jackpot.engine``: options come
from the rules text, every ordered dice outcome is enumerated one by one, open sets
are frozensets, and the bot rules are written as successive filters. Slow, but
plain enough to check by eye.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations, product

JACKPOT = "jackpot"
CLASSIC = "classic"

Tiles = frozenset[int]


def outcomes(count: int) -> list[tuple[int, ...]]:
    return list(product(range(1, 7), repeat=count))


@cache
def ref_options(variant: str, open_tiles: Tiles, dice: tuple[int, ...]) -> list[tuple[int, ...]]:
    if variant == JACKPOT:
        reach = {dice[0], dice[1], dice[0] + dice[1]}
        return sorted((t,) for t in open_tiles if t in reach)
    found = []
    for size in range(1, len(open_tiles) + 1):
        for combo in combinations(sorted(open_tiles), size):
            if sum(combo) == sum(dice):
                found.append(combo)
    return sorted(found)


def ref_counts(variant: str, open_tiles: Tiles) -> tuple[int, ...]:
    if variant == CLASSIC and not open_tiles & {7, 8, 9}:
        return (1, 2)
    return (2,)


@cache
def ref_p_count(variant: str, open_tiles: Tiles, count: int) -> Fraction:
    total = Fraction(0)
    for dice in outcomes(count):
        opts = ref_options(variant, open_tiles, dice)
        values = [ref_p(variant, open_tiles - set(o)) for o in opts]
        total += max(values) if values else Fraction(0)
    return total / 6**count


@cache
def ref_e_count(variant: str, open_tiles: Tiles, count: int) -> Fraction:
    total = Fraction(0)
    for dice in outcomes(count):
        opts = ref_options(variant, open_tiles, dice)
        values = [ref_e(variant, open_tiles - set(o)) for o in opts]
        total += min(values) if values else Fraction(sum(open_tiles))
    return total / 6**count


@cache
def ref_p(variant: str, open_tiles: Tiles) -> Fraction:
    if not open_tiles:
        return Fraction(1)
    return max(ref_p_count(variant, open_tiles, c) for c in ref_counts(variant, open_tiles))


@cache
def ref_e(variant: str, open_tiles: Tiles) -> Fraction:
    if not open_tiles:
        return Fraction(0)
    return min(ref_e_count(variant, open_tiles, c) for c in ref_counts(variant, open_tiles))


def ref_dice_count(variant: str, strength: str, open_tiles: Tiles) -> int:
    if strength != "best" or ref_counts(variant, open_tiles) == (2,):
        return 2
    one = ref_e_count(variant, open_tiles, 1)
    two = ref_e_count(variant, open_tiles, 2)
    return 1 if one < two else 2


def ref_choice(
    variant: str, strength: str, open_tiles: Tiles, dice: tuple[int, ...]
) -> tuple[int, ...]:
    opts = ref_options(variant, open_tiles, dice)
    assert opts
    if strength == "lowest":
        return sorted(opts)[0]
    if strength == "highest":
        return sorted(opts, key=lambda o: sorted(o, reverse=True))[-1]
    if variant == JACKPOT:
        top = max(ref_p(variant, open_tiles - set(o)) for o in opts)
        opts = [o for o in opts if ref_p(variant, open_tiles - set(o)) == top]
        low = min(ref_e(variant, open_tiles - set(o)) for o in opts)
        opts = [o for o in opts if ref_e(variant, open_tiles - set(o)) == low]
        return max(opts, key=lambda o: o[0])
    low = min(ref_e(variant, open_tiles - set(o)) for o in opts)
    opts = [o for o in opts if ref_e(variant, open_tiles - set(o)) == low]
    top = max(ref_p(variant, open_tiles - set(o)) for o in opts)
    opts = [o for o in opts if ref_p(variant, open_tiles - set(o)) == top]
    return sorted(opts, key=lambda o: sorted(o, reverse=True))[-1]


@cache
def ref_policy(variant: str, strength: str, open_tiles: Tiles) -> tuple[Fraction, Fraction]:
    if not open_tiles:
        return Fraction(1), Fraction(0)
    count = ref_dice_count(variant, strength, open_tiles)
    p = Fraction(0)
    e = Fraction(0)
    for dice in outcomes(count):
        if ref_options(variant, open_tiles, dice):
            rest = open_tiles - set(ref_choice(variant, strength, open_tiles, dice))
            rp, re_ = ref_policy(variant, strength, rest)
            p += rp
            e += re_
        else:
            e += sum(open_tiles)
    return p / 6**count, e / 6**count
