"""Monte Carlo turns of one bot, as a check on the exact solver and for `jackpot simulate`.

A Python loop over throws manages some ten thousand turns a second; a bot's choice
depends only on the open set and the throw, so it is precomputed once as a
next-state table and all live turns of a chunk step together in NumPy. A turn
covers at most nine times, so a chunk needs at most ten steps.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from jackpot.engine.tiles import FULL, Variant, from_mask, to_mask
from jackpot.strategy.bots import choose_cover_mask, choose_dice_count_mask
from jackpot.strategy.solver import MASKS, mask_options
from jackpot.strategy.strength import Strength

#: Turns stepped together: large enough to amortise NumPy's per-call cost, small
#: enough to keep a chunk's arrays in a few megabytes. Part of the reproducibility
#: contract: the same seed and chunk size give the same result.
CHUNK = 200_000

MAX_SCORE = 45
DEAD = -1
_Z95 = 1.959963984540054


@dataclass(frozen=True)
class SimulationResult:
    """What ``turns`` simulated turns of one bot came to."""

    variant: Variant
    strength: Strength
    turns: int
    shut: int
    #: Wilson score interval at 95% for the shut rate.
    interval: tuple[float, float]
    mean_score: float
    #: ``histogram[s]`` turns ended with score ``s``, for s = 0..45.
    histogram: tuple[int, ...]

    @property
    def shut_rate(self) -> float:
        return self.shut / self.turns if self.turns else 0.0

    @property
    def jackpot_rate(self) -> float:
        """Same as :attr:`shut_rate`: a shut box is a jackpot in the Jackpot variant."""
        return self.shut_rate


def wilson_interval(successes: int, trials: int, z: float = _Z95) -> tuple[float, float]:
    """Wilson's interval: unlike the normal one it stays inside [0, 1] for rare events."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class _Tables:
    next_two: npt.NDArray[np.int16]  # [512, 36], index (d1 - 1) * 6 + (d2 - 1)
    next_one: npt.NDArray[np.int16]  # [512, 6]
    one_die: npt.NDArray[np.bool_]  # [512]
    score: npt.NDArray[np.int64]  # [512]


@cache
def _tables(variant: Variant, strength: Strength) -> _Tables:
    next_two = np.full((MASKS, 36), DEAD, dtype=np.int16)
    next_one = np.full((MASKS, 6), DEAD, dtype=np.int16)
    one_die = np.zeros(MASKS, dtype=np.bool_)
    score = np.array([sum(from_mask(m)) for m in range(MASKS)], dtype=np.int64)
    for mask in range(1, MASKS):
        one_die[mask] = choose_dice_count_mask(variant, strength, mask) == 1
        for d1 in range(1, 7):
            if one_die[mask] and mask_options(variant, mask, (d1,)):
                cover = choose_cover_mask(variant, strength, mask, (d1,))
                next_one[mask, d1 - 1] = mask & ~to_mask(cover)
            for d2 in range(1, 7):
                if mask_options(variant, mask, (d1, d2)):
                    cover = choose_cover_mask(variant, strength, mask, (d1, d2))
                    next_two[mask, (d1 - 1) * 6 + d2 - 1] = mask & ~to_mask(cover)
    return _Tables(next_two, next_one, one_die, score)


def _run_chunk(
    tables: _Tables, n: int, rng: np.random.Generator
) -> tuple[int, npt.NDArray[np.int64]]:
    """Play ``n`` turns; return (shut count, histogram of scores)."""
    state = np.full(n, to_mask(FULL), dtype=np.int16)
    final = np.empty(n, dtype=np.int16)
    live = np.arange(n)
    while live.size:
        current = state[live]
        throw = rng.integers(0, 36, size=live.size)
        nxt = tables.next_two[current, throw]
        one = tables.one_die[current]
        if one.any():
            # Die 1 of the same draw: uniform on 1..6, and one draw per throw
            # keeps the stream independent of the bot's dice count.
            nxt = np.where(one, tables.next_one[current, throw // 6], nxt)
        dead = nxt == DEAD
        final[live[dead]] = current[dead]
        shut = nxt == 0
        final[live[shut]] = 0
        go_on = ~(dead | shut)
        state[live[go_on]] = nxt[go_on]
        live = live[go_on]
    scores = tables.score[final]
    histogram = np.bincount(scores, minlength=MAX_SCORE + 1).astype(np.int64)
    return int(histogram[0]), histogram


def simulate(
    variant: Variant,
    strength: Strength,
    turns: int,
    rng: np.random.Generator,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Simulate ``turns`` whole turns from a full board with the ``strength`` bot.

    ``progress`` is called after each chunk with the number of turns that chunk
    finished (an increment, so ``tqdm.update`` fits it directly).
    """
    if turns < 0:
        raise ValueError(f"turns must be zero or more, not {turns}")
    tables = _tables(variant, strength)
    histogram = np.zeros(MAX_SCORE + 1, dtype=np.int64)
    shut = 0
    done = 0
    while done < turns:
        n = min(CHUNK, turns - done)
        chunk_shut, chunk_hist = _run_chunk(tables, n, rng)
        shut += chunk_shut
        histogram += chunk_hist
        done += n
        if progress is not None:
            progress(n)
    total_score = int(np.dot(histogram, np.arange(MAX_SCORE + 1)))
    return SimulationResult(
        variant=variant,
        strength=strength,
        turns=turns,
        shut=shut,
        interval=wilson_interval(shut, turns),
        mean_score=total_score / turns if turns else 0.0,
        histogram=tuple(int(c) for c in histogram),
    )
