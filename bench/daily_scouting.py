"""What one entry of the day, seen early, is worth: the best chance of a jackpot a turn.

    .venv/bin/python bench/daily_scouting.py [--deals 200] [--seed 1]

Everybody plays the same daily deal, so a friend (or a second account) who plays first
can tell you the dice. This measures, for each variant, the best chance of shutting the
box in a turn of the daily deal:

- honest: not knowing any throw ahead, playing to shut the box (exact);
- by number (the deals before dice by position): the friend's entry shows the throws of
  each turn in order, the same for everyone whatever they cover, so you know every
  throw of the turn before you start it and shut the box whenever some way of covering
  does;
- by position (every deal made now): the friend's entry shows only the throws of the
  positions (turn, open tiles) the friend reached; elsewhere the dice are unknown. You
  play each turn to shut the box knowing those throws (exact, for the friend's path).

The friend plays to shut the box too (the honest best). The deals are drawn at random
(``--seed``); every figure is an average over their turns, so it is an estimate with
the standard error shown. Nothing is asserted: it is a measurement to write down
(docs/benchmarks.md, docs/fair-play.md).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Callable
from functools import cache

from jackpot import fair
from jackpot.engine.tiles import Variant, from_mask, may_throw_one_die, options, to_mask

FULL = to_mask(range(1, 10))
TURNS = 10
DAY = "2026-12-08"
TWO_DICE = [(a, b) for a in range(1, 7) for b in range(1, 7)]
ONE_DIE = [(a,) for a in range(1, 7)]

#: What a friend's entry tells of one position: both dice of its throw, or only the
#: first (the friend threw one die there), or nothing.
Known = dict[int, tuple[int, ...]]


def after(mask: int, option: tuple[int, ...]) -> int:
    return mask & ~to_mask(option)


def counts(variant: Variant, mask: int) -> tuple[int, ...]:
    return (2, 1) if may_throw_one_die(variant, from_mask(mask)) else (2,)


def best_after(
    variant: Variant, mask: int, dice: tuple[int, ...], value: Callable[[int], float]
) -> float:
    """The best chance after a throw of ``dice`` (0 for a dead throw)."""
    opts = options(variant, from_mask(mask), dice)
    return max((value(after(mask, o)) for o in opts), default=0.0)


def throws(count: int) -> list[tuple[int, ...]]:
    return list(TWO_DICE) if count == 2 else list(ONE_DIE)


@cache
def honest(variant: Variant, mask: int) -> float:
    """The best chance of shutting the box from ``mask``, no throw known (exact)."""
    if mask == 0:
        return 1.0

    def value(m: int) -> float:
        return honest(variant, m)

    return max(
        statistics.fmean(best_after(variant, mask, d, value) for d in throws(c))
        for c in counts(variant, mask)
    )


def scouted(variant: Variant, known: Known) -> float:
    """The best chance of shutting the box in a turn whose throws at the positions in
    ``known`` are known ahead (by position), exact."""

    @cache
    def value(mask: int) -> float:
        if mask == 0:
            return 1.0
        seen = known.get(mask)
        best = 0.0
        for c in counts(variant, mask):
            if seen is not None and len(seen) >= c:
                chance = best_after(variant, mask, seen[:c], value)
            elif seen is not None:  # one die seen, two thrown: the second is unknown
                chance = statistics.fmean(
                    best_after(variant, mask, (seen[0], d2), value) for d2 in range(1, 7)
                )
            else:
                chance = statistics.fmean(best_after(variant, mask, d, value) for d in throws(c))
            best = max(best, chance)
        return best

    return value(FULL)


def friend_turn(variant: Variant, dice_at: Callable[[int, int], tuple[int, ...]]) -> Known:
    """The friend's turn played honestly best; what it shows, position by position.
    ``dice_at(mask, count)``: the throw the deal gives there."""
    known: Known = {}
    mask = FULL
    while mask:
        count = max(
            counts(variant, mask),
            key=lambda c: statistics.fmean(
                best_after(variant, mask, d, lambda m: honest(variant, m)) for d in throws(c)
            ),
        )
        dice = dice_at(mask, count)
        known[mask] = dice
        opts = options(variant, from_mask(mask), dice)
        if not opts:
            break
        mask = max((after(mask, o) for o in opts), key=lambda m: honest(variant, m))
    return known


def by_number_shut(variant: Variant, throw: Callable[[int, int], tuple[int, ...]]) -> bool:
    """Whether some way of covering shuts the box when every throw k of the turn is
    known ahead (dice by number: throw k is the same whatever was covered)."""

    @cache
    def can(mask: int, k: int) -> bool:
        if mask == 0:
            return True
        for c in counts(variant, mask):
            dice = throw(k, c)
            if any(can(after(mask, o), k + 1) for o in options(variant, from_mask(mask), dice)):
                return True
        return False

    return can(FULL, 0)


def measure(variant: Variant, deals: int, rng: random.Random) -> dict[str, tuple[float, float]]:
    client_seed = fair.daily_client_seed(DAY, variant)
    number: list[float] = []
    position: list[float] = []
    for _ in range(deals):
        seed = rng.randbytes(32).hex()
        for t in range(TURNS):

            def at_position(mask: int, count: int, t: int = t, s: str = seed) -> tuple[int, ...]:
                return fair.position_dice(s, client_seed, t, sorted(from_mask(mask)), count)

            def at_number(k: int, count: int, t: int = t, s: str = seed) -> tuple[int, ...]:
                return fair.throw_dice(s, client_seed, 16 * t + k, count)

            position.append(scouted(variant, friend_turn(variant, at_position)))
            number.append(1.0 if by_number_shut(variant, at_number) else 0.0)

    def mean_se(xs: list[float]) -> tuple[float, float]:
        return statistics.fmean(xs), statistics.stdev(xs) / math.sqrt(len(xs))

    return {
        "honest": (honest(variant, FULL), 0.0),
        "by number, one entry seen": mean_se(number),
        "by position, one entry seen": mean_se(position),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="random deals, 10 turns each")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for variant in (Variant.JACKPOT, Variant.CLASSIC):
        print(f"{variant.value} ({args.deals} deals, {args.deals * TURNS} turns):")
        for name, (mean, se) in measure(variant, args.deals, rng).items():
            spread = f" ± {100 * se:.1f}" if se else " (exact)"
            print(f"  {name:28} {100 * mean:5.1f}%{spread}")


if __name__ == "__main__":
    main()
