"""One Classic turn played for the match: each open set's chances, given what each end is worth.

What a Classic turn is worth to the seat playing it depends only on its final score:
a shut box wins at once, a score above the one to beat loses, and any other score is
worth what the seats still to play leave of it (classic_match.py works that out). So
one backward pass over the 512 open sets, choosing at every throw the option (and,
once 7, 8 and 9 are covered, the dice count) that keeps the most equity, then the
most chance of winning alone, then the one the best bot would pick, gives the seat's
chances from every open set and its whole policy.

Every value is exact but kept as an integer numerator, not a ``Fraction``: a turn
from an open set of k tiles has at most k throws, each of 36 equally likely outcomes
(a single die's six count six each), so the chances from open set ``m`` are integers
over ``36 ** popcount(m)`` times the denominator of the worths. Integer sums and
comparisons are several times faster than ``Fraction`` arithmetic, which reduces its
result to lowest terms at every step; a pass takes a few milliseconds, so the tables
for every state of a four-seat match are built in under two seconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from jackpot.engine.tiles import FULL, Option, Variant, from_mask, score, to_mask
from jackpot.strategy.bots import choose_dice_count_mask
from jackpot.strategy.chances import Chances
from jackpot.strategy.solver import MASKS, dice_counts, mask_options, optimal_table, throw_classes
from jackpot.strategy.strength import Strength

CLASSIC = Variant.CLASSIC
FULL_MASK = to_mask(FULL)
#: Final scores run from 0 (a shut box) to 45 (nothing covered).
SCORES = 46
POPCOUNT: tuple[int, ...] = tuple(bin(m).count("1") for m in range(MASKS))
SCORE: tuple[int, ...] = tuple(score(from_mask(m)) for m in range(MASKS))
POW36: tuple[int, ...] = tuple(36**k for k in range(10))

#: (equity, win alone, draw) as numerators over a common denominator.
Worth = tuple[int, int, int]
#: One class of equally useful throws: its weight in 36ths, and the open sets its
#: options leave, the best bot's favourite first (empty: the throw ends the turn).
ThrowPlan = tuple[int, tuple[int, ...]]
#: A dice count and its throw classes.
CountPlan = tuple[int, tuple[ThrowPlan, ...]]


def _descending(option: Option) -> tuple[int, ...]:
    return tuple(sorted(option, reverse=True))


@cache
def ranked_covers(mask: int, dice: tuple[int, ...]) -> tuple[tuple[Option, int], ...]:
    """The options of ``dice`` from ``mask`` and the open set each leaves, in the best
    bot's order of preference (docs/fair-play.md, "Bot strengths").

    Ties of match equity fall back on the bot's rule, so listing the options in its
    order and switching only on a strict improvement applies the whole tie-break.
    """
    table = optimal_table(CLASSIC)

    def key(option: Option) -> tuple[object, ...]:
        rest = mask & ~to_mask(option)
        return (-table.e_min[rest], table.p_max[rest], _descending(option))

    ranked = sorted(mask_options(CLASSIC, mask, dice), key=key, reverse=True)
    return tuple((o, mask & ~to_mask(o)) for o in ranked)


@cache
def turn_plan() -> tuple[tuple[CountPlan, ...], ...]:
    """For every open set, its dice counts (the best bot's choice first) and throw classes."""
    plans: list[tuple[CountPlan, ...]] = [()]
    for mask in range(1, MASKS):
        counts = sorted(
            dice_counts(CLASSIC, mask),
            key=lambda c: c != choose_dice_count_mask(CLASSIC, Strength.BEST, mask),
        )
        per_count: list[CountPlan] = []
        for count in counts:
            # A single die's outcome is one sixth: six 36ths.
            scale = 6 if count == 1 else 1
            per_count.append(
                (
                    count,
                    tuple(
                        (weight * scale, tuple(rest for _, rest in ranked_covers(mask, dice)))
                        for dice, weight in throw_classes(CLASSIC, count)
                    ),
                )
            )
        plans.append(tuple(per_count))
    return tuple(plans)


@dataclass(frozen=True, eq=False)
class TurnTable:
    """A seat's chances from every open set, and its choices, for one set of worths.

    The chances from open set ``m`` are ``equity[m]``, ``win[m]`` and ``draw[m]`` over
    ``36 ** popcount(m) * denominator``. ``by_count`` holds the same for each dice
    count where the seat may choose one die. ``tie`` and ``over`` are the numerators,
    over ``36 ** 9``, of the chances that the turn from a full board ends exactly on the
    score to beat and above it: what the seats before this one need to know.
    """

    to_beat: int | None
    denominator: int
    equity: tuple[int, ...]
    win: tuple[int, ...]
    draw: tuple[int, ...]
    by_count: dict[int, dict[int, Worth]]
    tie: int
    over: int

    def _scaled(self, rest: int, top: int) -> tuple[int, int]:
        """(equity, win) of ``rest`` over ``36 ** top * denominator``, to compare options."""
        k = POW36[top - POPCOUNT[rest]]
        return self.equity[rest] * k, self.win[rest] * k

    def chances(self, mask: int) -> Chances:
        """The chances from ``mask`` before a throw, playing as this table chooses."""
        d = POW36[POPCOUNT[mask]] * self.denominator
        return Chances(
            Fraction(self.win[mask], d),
            Fraction(self.draw[mask], d),
            Fraction(self.equity[mask], d),
        )

    def count_chances(self, mask: int, count: int) -> Chances:
        """The chances from ``mask`` when the next throw uses ``count`` dice."""
        if mask not in self.by_count:
            if count != 2:
                raise ValueError(f"one die may not be thrown with {sorted(from_mask(mask))} open")
            return self.chances(mask)
        e, w, dr = self.by_count[mask][count]
        d = POW36[POPCOUNT[mask]] * self.denominator
        return Chances(Fraction(w, d), Fraction(dr, d), Fraction(e, d))

    def choose_dice_count(self, mask: int) -> int:
        """The dice count this table throws from ``mask`` (the best bot's on a tie)."""
        counts = self.by_count.get(mask)
        if counts is None:
            return 2
        first, *others = (c for c, _ in turn_plan()[mask])
        chosen = first
        for count in others:
            e, w, _ = counts[count]
            best_e, best_w, _ = counts[chosen]
            if (e, w) > (best_e, best_w):
                chosen = count
        return chosen

    def choose_cover(self, mask: int, dice: tuple[int, ...]) -> Option:
        """The cover this table takes after ``dice``; ValueError if they reach nothing."""
        ranked = ranked_covers(mask, tuple(dice))
        if not ranked:
            raise ValueError(f"the dice {list(dice)} reach nothing among {sorted(from_mask(mask))}")
        top = POPCOUNT[mask]
        chosen, rest = ranked[0]
        best = self._scaled(rest, top)
        for option, rest in ranked[1:]:
            value = self._scaled(rest, top)
            if value > best:
                chosen, best = option, value
        return chosen


def solve_turn(worths: Sequence[Worth], denominator: int, to_beat: int | None) -> TurnTable:
    """Play every open set for the most equity, given ``worths[s]`` (over ``denominator``)
    of ending the turn on score ``s``; ``to_beat`` only sorts the ends for ``tie`` and
    ``over`` (None: no score to beat yet)."""
    plans = turn_plan()
    eq = [0] * MASKS
    win = [0] * MASKS
    draw = [0] * MASKS
    # Chances of ending exactly on the score to beat and above it, over 36 ** popcount.
    tie = [0] * MASKS
    over = [0] * MASKS
    eq[0], win[0], draw[0] = worths[0]
    by_count: dict[int, dict[int, Worth]] = {}
    for mask in range(1, MASKS):
        top = POPCOUNT[mask]
        left = SCORE[mask]
        end_e, end_w, end_d = worths[left]
        end_t = int(to_beat is not None and left == to_beat)
        end_o = int(to_beat is not None and left > to_beat)
        lift = POW36[top - 1]
        best: tuple[int, int, int, int, int] | None = None
        counts: dict[int, Worth] = {}
        for count, throws in plans[mask]:
            e = w = dr = t = o = 0
            for weight, rests in throws:
                if not rests:
                    f = weight * lift
                    e += end_e * f
                    w += end_w * f
                    dr += end_d * f
                    t += end_t * f
                    o += end_o * f
                    continue
                rest = rests[0]
                k = POW36[top - 1 - POPCOUNT[rest]]
                pick_e, pick_w, pick = eq[rest] * k, win[rest] * k, rest
                for rest in rests[1:]:
                    k2 = POW36[top - 1 - POPCOUNT[rest]]
                    ce = eq[rest] * k2
                    if ce > pick_e or (ce == pick_e and win[rest] * k2 > pick_w):
                        pick_e, pick_w, pick, k = ce, win[rest] * k2, rest, k2
                e += weight * pick_e
                w += weight * pick_w
                k *= weight
                dr += draw[pick] * k
                t += tie[pick] * k
                o += over[pick] * k
            counts[count] = (e, w, dr)
            if best is None or e > best[0] or (e == best[0] and w > best[1]):
                best = (e, w, dr, t, o)
        assert best is not None
        eq[mask], win[mask], draw[mask], tie[mask], over[mask] = best
        if len(counts) > 1:
            by_count[mask] = counts
    return TurnTable(
        to_beat=to_beat,
        denominator=denominator,
        equity=tuple(eq),
        win=tuple(win),
        draw=tuple(draw),
        by_count=by_count,
        tie=tie[FULL_MASK],
        over=over[FULL_MASK],
    )
