"""Exact values of every open set, for optimal play and for each bot.

The best bot and the post-match analysis must be reproducible by an independent
verifier, so every value is an exact ``Fraction``: a float tie-break could go either
way on another machine. A turn is a Markov chain over the 512 open sets in which a
cover only ever clears bits, so every table is built bottom-up in increasing mask
order and each open set is solved once per process.

Two objectives are solved separately, as the bots' rules use them (docs/fair-play.md,
"Bot strengths"): the highest probability of shutting the box and the lowest expected
turn score. A player who maximises one does not in general minimise the other. How
well each bot plays is valued in policy.py, above the bots.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from jackpot.engine.tiles import (
    FULL,
    Option,
    Variant,
    from_mask,
    may_throw_one_die,
    options,
    score,
    to_mask,
)

MASKS = 512

#: One class of equally useful throws: a representative throw and how many of the
#: ``6 ** count`` ordered outcomes it stands for.
ThrowClass = tuple[tuple[int, ...], int]


@cache
def throw_classes(variant: Variant, count: int) -> tuple[ThrowClass, ...]:
    """Group ordered outcomes that always offer the same options.

    Summing 21 unordered pairs (Jackpot) or 11 totals (Classic) instead of 36
    ordered outcomes keeps the Fraction arithmetic small.
    """
    if count == 1:
        return tuple(((d,), 1) for d in range(1, 7))
    weights: dict[tuple[int, ...], int] = {}
    first: dict[tuple[int, ...], tuple[int, ...]] = {}
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            key = (min(d1, d2), max(d1, d2)) if variant is Variant.JACKPOT else (d1 + d2,)
            weights[key] = weights.get(key, 0) + 1
            first.setdefault(key, (d1, d2))
    return tuple((first[k], w) for k, w in weights.items())


@cache
def mask_options(variant: Variant, mask: int, dice: tuple[int, ...]) -> tuple[Option, ...]:
    """The engine's options, cached by mask because the solver asks for each many times."""
    return options(variant, from_mask(mask), dice)


def dice_counts(variant: Variant, mask: int) -> tuple[int, ...]:
    """The dice counts a player may choose before a throw from this open set."""
    return (1, 2) if may_throw_one_die(variant, from_mask(mask)) else (2,)


@dataclass(frozen=True)
class OptimalTable:
    """Optimal values for one variant, indexed by open-set mask.

    ``p_by_count[c][m]`` and ``e_by_count[c][m]`` are the values of committing to
    ``c`` dice for the next throw from ``m`` and playing optimally afterwards
    (``None`` when ``c`` dice are not allowed there); ``p_max`` and ``e_min`` take
    the better dice count for each objective separately.
    """

    variant: Variant
    p_max: tuple[Fraction, ...]
    e_min: tuple[Fraction, ...]
    p_by_count: dict[int, tuple[Fraction | None, ...]]
    e_by_count: dict[int, tuple[Fraction | None, ...]]


def _throw_value(
    variant: Variant,
    mask: int,
    count: int,
    pick: Callable[[list[Fraction]], Fraction],
    value: list[Fraction],
    dead: Fraction,
) -> Fraction:
    total = Fraction(0)
    for dice, weight in throw_classes(variant, count):
        opts = mask_options(variant, mask, dice)
        best = pick([value[mask & ~to_mask(o)] for o in opts]) if opts else dead
        total += weight * best
    return total / Fraction(6**count)


@cache
def optimal_table(variant: Variant) -> OptimalTable:
    """Solve every open set of ``variant`` once per process."""
    p_max: list[Fraction] = [Fraction(0)] * MASKS
    e_min: list[Fraction] = [Fraction(0)] * MASKS
    p_by: dict[int, list[Fraction | None]] = {1: [None] * MASKS, 2: [None] * MASKS}
    e_by: dict[int, list[Fraction | None]] = {1: [None] * MASKS, 2: [None] * MASKS}
    p_max[0] = Fraction(1)
    for mask in range(1, MASKS):
        left = Fraction(score(from_mask(mask)))
        ps: list[Fraction] = []
        es: list[Fraction] = []
        for count in dice_counts(variant, mask):
            p = _throw_value(variant, mask, count, max, p_max, Fraction(0))
            e = _throw_value(variant, mask, count, min, e_min, left)
            p_by[count][mask] = p
            e_by[count][mask] = e
            ps.append(p)
            es.append(e)
        p_max[mask] = max(ps)
        e_min[mask] = min(es)
    return OptimalTable(
        variant=variant,
        p_max=tuple(p_max),
        e_min=tuple(e_min),
        p_by_count={c: tuple(v) for c, v in p_by.items()},
        e_by_count={c: tuple(v) for c, v in e_by.items()},
    )


def p_shut_max(variant: Variant, open_tiles: frozenset[int] = FULL) -> Fraction:
    """The highest probability of shutting the box this turn from ``open_tiles``."""
    return optimal_table(variant).p_max[to_mask(open_tiles)]


def expected_score_min(variant: Variant, open_tiles: frozenset[int] = FULL) -> Fraction:
    """The lowest expected turn score from ``open_tiles`` (0 for a shut box)."""
    return optimal_table(variant).e_min[to_mask(open_tiles)]


def throw_values(
    variant: Variant, open_tiles: frozenset[int], dice_count: int
) -> tuple[Fraction, Fraction]:
    """(max P(shut), min expected score) when the next throw uses ``dice_count`` dice.

    This is what the Classic best bot compares to decide on one die.
    """
    mask = to_mask(open_tiles)
    if dice_count not in dice_counts(variant, mask):
        raise ValueError(f"{dice_count} dice may not be thrown with {sorted(open_tiles)} open")
    table = optimal_table(variant)
    p = table.p_by_count[dice_count][mask]
    e = table.e_by_count[dice_count][mask]
    assert p is not None and e is not None
    return p, e
