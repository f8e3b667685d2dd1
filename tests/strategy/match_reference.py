"""A naive, independent reference for Classic match equity, for small positions.

It shares no code with ``jackpot.strategy``: options and the best bot's rule come from
``strategy_reference`` (written from the rules text), open sets are frozensets, every
ordered dice outcome is enumerated, values are ``Fraction`` throughout, and the later
seats are valued through the whole distribution of their final scores instead of
the solver's tie / above counts. Slow (about a second per state), plain to read.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from strategy_reference import CLASSIC, outcomes, ref_counts, ref_e, ref_e_count, ref_options, ref_p

Tiles = frozenset[int]
#: (equity, win alone, draw)
Value = tuple[Fraction, Fraction, Fraction]
FULL: Tiles = frozenset(range(1, 10))
ZERO = Fraction(0)


def ref_bot_pick(open_tiles: Tiles, opts: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The best bot's rule, as filters, on a subset of options."""
    low = min(ref_e(CLASSIC, open_tiles - set(o)) for o in opts)
    opts = [o for o in opts if ref_e(CLASSIC, open_tiles - set(o)) == low]
    top = max(ref_p(CLASSIC, open_tiles - set(o)) for o in opts)
    opts = [o for o in opts if ref_p(CLASSIC, open_tiles - set(o)) == top]
    return max(opts, key=lambda o: sorted(o, reverse=True))


@cache
def ref_standing(best: int, holders: int, after: int) -> Value:
    """Worth to each of ``holders`` seats on ``best`` with ``after`` seats still to play."""
    if after == 0:
        return (Fraction(1, holders), Fraction(int(holders == 1)), Fraction(int(holders > 1)))
    ends = ref_ends(FULL, best, holders, after - 1)
    tie = ends.get(best, ZERO)
    over = sum((p for s, p in ends.items() if s > best), ZERO)
    a = ref_standing(best, holders + 1, after - 1)
    b = ref_standing(best, holders, after - 1)
    return tuple(tie * x + over * y for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def ref_worth(score: int, to_beat: int | None, holders: int, after: int) -> Value:
    if score == 0:
        return (Fraction(1), Fraction(1), ZERO)
    if to_beat is None or score < to_beat:
        return ref_standing(score, 1, after)
    if score == to_beat:
        return ref_standing(score, holders + 1, after)
    return (ZERO, ZERO, ZERO)


@cache
def ref_count_value(
    open_tiles: Tiles, to_beat: int | None, holders: int, after: int, count: int
) -> Value:
    total = [ZERO, ZERO, ZERO]
    for dice in outcomes(count):
        rest = ref_rest(open_tiles, to_beat, holders, after, dice)
        v = (
            ref_worth(sum(open_tiles), to_beat, holders, after)
            if rest is None
            else ref_value(rest, to_beat, holders, after)
        )
        for i in range(3):
            total[i] += v[i]
    return (total[0] / 6**count, total[1] / 6**count, total[2] / 6**count)


def ref_rest(
    open_tiles: Tiles, to_beat: int | None, holders: int, after: int, dice: tuple[int, ...]
) -> Tiles | None:
    """The open set the seat leaves after ``dice`` (None: the throw ends the turn)."""
    opts = ref_options(CLASSIC, open_tiles, dice)
    if not opts:
        return None

    def key(o: tuple[int, ...]) -> tuple[Fraction, Fraction]:
        v = ref_value(open_tiles - set(o), to_beat, holders, after)
        return v[0], v[1]

    top = max(key(o) for o in opts)
    return open_tiles - set(ref_bot_pick(open_tiles, [o for o in opts if key(o) == top]))


def ref_count(open_tiles: Tiles, to_beat: int | None, holders: int, after: int) -> int:
    counts = ref_counts(CLASSIC, open_tiles)
    if counts == (2,):
        return 2
    one = ref_count_value(open_tiles, to_beat, holders, after, 1)
    two = ref_count_value(open_tiles, to_beat, holders, after, 2)
    if one[:2] != two[:2]:
        return 1 if one[:2] > two[:2] else 2
    return 1 if ref_e_count(CLASSIC, open_tiles, 1) < ref_e_count(CLASSIC, open_tiles, 2) else 2


@cache
def ref_value(open_tiles: Tiles, to_beat: int | None, holders: int, after: int) -> Value:
    """The seat's (equity, win, draw) from ``open_tiles`` before a throw, playing its best."""
    if not open_tiles:
        return ref_worth(0, to_beat, holders, after)
    count = ref_count(open_tiles, to_beat, holders, after)
    return ref_count_value(open_tiles, to_beat, holders, after, count)


@cache
def ref_ends(
    open_tiles: Tiles, to_beat: int | None, holders: int, after: int
) -> dict[int, Fraction]:
    """The distribution of the seat's final score under that play (0: shut)."""
    if not open_tiles:
        return {0: Fraction(1)}
    count = ref_count(open_tiles, to_beat, holders, after)
    found: dict[int, Fraction] = {}
    for dice in outcomes(count):
        rest = ref_rest(open_tiles, to_beat, holders, after, dice)
        sub = (
            {sum(open_tiles): Fraction(1)}
            if rest is None
            else ref_ends(rest, to_beat, holders, after)
        )
        for s, p in sub.items():
            found[s] = found.get(s, ZERO) + p / 6**count
    return found
