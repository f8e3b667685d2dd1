"""Monte Carlo matches played with the policies the match odds compute, to check their exact values.

Only the choices come from ``jackpot.strategy`` (each table's ``choose_cover`` and
``choose_dice_count``, and the best bot's); the turns, who plays when, who wins and
how a first place is shared are played out here from the rules, independently of
the backward induction that produced the values. Turns step together in NumPy, as in
``jackpot.strategy.simulate``: every choice is turned into a next-state table first.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from jackpot.engine.tiles import FULL, Option, Variant, from_mask, may_throw_one_die, to_mask
from jackpot.strategy.bots import choose_cover_mask
from jackpot.strategy.classic_match import Facing, classic_table
from jackpot.strategy.solver import MASKS, mask_options
from jackpot.strategy.strength import Strength

FULL_MASK = to_mask(FULL)
DEAD = -1
Z999 = 3.2905267314918945  # two-sided 99.9%
SCORES = np.array([sum(from_mask(m)) for m in range(MASKS)], dtype=np.int64)

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Policy:
    next_two: Ints  # [512, 36]: open set after the ordered throw (d1 - 1) * 6 + d2 - 1
    next_one: Ints  # [512, 6]
    one_die: npt.NDArray[np.bool_]  # [512]


def policy_arrays(
    variant: Variant,
    cover: Callable[[int, tuple[int, ...]], Option],
    count: Callable[[int], int],
) -> Policy:
    next_two = np.full((MASKS, 36), DEAD, dtype=np.int64)
    next_one = np.full((MASKS, 6), DEAD, dtype=np.int64)
    one_die = np.zeros(MASKS, dtype=np.bool_)
    for mask in range(1, MASKS):
        chosen: dict[object, int] = {}
        for d1 in range(1, 7):
            for d2 in range(1, 7):
                dice = (d1, d2)
                # Classic choices depend on the total only; Jackpot's on the pair.
                key = d1 + d2 if variant is Variant.CLASSIC else (min(dice), max(dice))
                if key not in chosen:
                    chosen[key] = (
                        mask & ~to_mask(cover(mask, dice))
                        if mask_options(variant, mask, dice)
                        else DEAD
                    )
                next_two[mask, (d1 - 1) * 6 + d2 - 1] = chosen[key]
        if may_throw_one_die(variant, from_mask(mask)) and count(mask) == 1:
            one_die[mask] = True
            for d in range(1, 7):
                if mask_options(variant, mask, (d,)):
                    next_one[mask, d - 1] = mask & ~to_mask(cover(mask, (d,)))
    return Policy(next_two, next_one, one_die)


@cache
def classic_policy(facing: Facing) -> Policy:
    table = classic_table(facing)
    return policy_arrays(Variant.CLASSIC, table.choose_cover, table.choose_dice_count)


@cache
def jackpot_best_policy() -> Policy:
    return policy_arrays(
        Variant.JACKPOT,
        lambda m, d: choose_cover_mask(Variant.JACKPOT, Strength.BEST, m, d),
        lambda m: 2,
    )


def play_turns(policy: Policy, start: Ints, rng: np.random.Generator) -> Ints:
    """Play one turn from each open set in ``start``; the open sets they end on (0: shut)."""
    state = start.astype(np.int64).copy()
    final = np.empty_like(state)
    live = np.arange(state.size)
    while live.size:
        current = state[live]
        throw = rng.integers(0, 36, size=live.size)
        nxt = policy.next_two[current, throw]
        one = policy.one_die[current]
        if one.any():
            nxt = np.where(one, policy.next_one[current, throw // 6], nxt)
        ended = nxt == DEAD
        final[live[ended]] = current[ended]
        shut = nxt == 0
        final[live[shut]] = 0
        go_on = ~(ended | shut)
        state[live[go_on]] = nxt[go_on]
        live = live[go_on]
    return final


@dataclass(frozen=True)
class Tally:
    """One seat's results over ``games`` simulated matches."""

    games: int
    wins: int
    draws: int
    equity_sum: float
    equity_sq: float

    def holds(self, p_win: float, p_draw: float, equity: float) -> list[str]:
        """What lies outside its 99.9% interval (empty: all three inside)."""
        wrong = []
        for name, hits, exact in (("p_win", self.wins, p_win), ("p_draw", self.draws, p_draw)):
            low, high = wilson(hits, self.games)
            if not low <= exact <= high:
                wrong.append(f"{name} {exact:.5f} outside [{low:.5f}, {high:.5f}]")
        outside = self.equity_outside(equity)
        return wrong + ([outside] if outside else [])

    def equity_outside(self, equity: float) -> str | None:
        """What is wrong with ``equity`` against the mean share (None: inside 99.9%)."""
        mean = self.equity_sum / self.games
        sd = math.sqrt(max(self.equity_sq / self.games - mean * mean, 0.0))
        half = Z999 * sd / math.sqrt(self.games)
        if abs(mean - equity) > half:
            return f"equity {equity:.5f} outside {mean:.5f} ± {half:.5f}"
        return None


def wilson(successes: int, trials: int, z: float = Z999) -> tuple[float, float]:
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return centre - half, centre + half


def tally(first: npt.NDArray[np.bool_], sharing: Ints, seat: int) -> Tally:
    """``first[g, s]``: seat s came first in game g; ``sharing[g]``: how many did."""
    mine = first[:, seat]
    share = np.where(mine, 1.0 / sharing, 0.0)
    return Tally(
        games=int(first.shape[0]),
        wins=int(np.sum(mine & (sharing == 1))),
        draws=int(np.sum(mine & (sharing > 1))),
        equity_sum=float(share.sum()),
        equity_sq=float((share * share).sum()),
    )


def classic_match(
    earlier: list[int], start: int, after: int, games: int, rng: np.random.Generator
) -> list[Tally]:
    """Classic from the turn of seat ``len(earlier)``: the seats before it ended on
    ``earlier`` (none shut), it plays from open set ``start``, then ``after`` seats play
    from a full board; every seat from this one on plays its equity policy."""
    k = len(earlier)
    seats = k + 1 + after
    scores = np.full((games, seats), 99, dtype=np.int64)
    scores[:, :k] = earlier
    shut_by = np.full(games, -1, dtype=np.int64)
    for seat in range(k, seats):
        playing = np.flatnonzero(shut_by < 0)
        before = scores[playing, :seat]
        low = before.min(axis=1) if seat else np.full(playing.size, 99)
        holders = (before == low[:, None]).sum(axis=1) if seat else np.zeros(playing.size, int)
        origin = start if seat == k else FULL_MASK
        for to_beat, count in sorted(set(zip(low.tolist(), holders.tolist(), strict=True))):
            group = playing[(low == to_beat) & (holders == count)]
            facing = Facing(None if seat == 0 else to_beat, count, seats - 1 - seat)
            ends = play_turns(classic_policy(facing), np.full(group.size, origin), rng)
            scores[group, seat] = SCORES[ends]
            shut_by[group[ends == 0]] = seat
    best = scores.min(axis=1)
    first = scores == best[:, None]
    ended = shut_by >= 0
    # A shut box wins at once: the seats after it never threw (they hold 99 here).
    first[ended] = False
    first[np.flatnonzero(ended), shut_by[ended]] = True
    sharing = first.sum(axis=1)
    return [tally(first, sharing, s) for s in range(seats)]


def jackpot_match(
    seats: int,
    seat: int,
    start: int,
    shut_before: list[int],
    games: int,
    rng: np.random.Generator,
) -> list[Tally]:
    """Jackpot from the turn of ``seat`` (playing from open set ``start``) with the seats
    in ``shut_before`` having shut the box this round; every turn plays the best bot."""
    policy = jackpot_best_policy()
    shut = np.zeros((games, seats), dtype=np.bool_)
    shut[:, shut_before] = True
    shut[:, seat] = play_turns(policy, np.full(games, start), rng) == 0
    for s in range(seat + 1, seats):
        shut[:, s] = play_turns(policy, np.full(games, FULL_MASK), rng) == 0
    live = np.flatnonzero(~shut.any(axis=1))
    while live.size:
        for s in range(seats):
            shut[live, s] = play_turns(policy, np.full(live.size, FULL_MASK), rng) == 0
        live = live[~shut[live].any(axis=1)]
    sharing = shut.sum(axis=1)
    return [tally(shut, sharing, s) for s in range(seats)]
