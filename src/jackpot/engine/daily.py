"""The daily deal's rules: ten solo turns on the same dice for everyone, scored and ranked.

Everybody who enters a day's deal faces the same dice turn by turn: turn t's throws
are numbered from ``THROW_STRIDE * t`` whatever was covered before, so an early dead
throw cannot shift the dice of a later turn. A turn that was never finished (the
player gave up, or the day closed first) scores ``UNPLAYED_SCORE``, the worst a turn
can score, so leaving early never pays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

#: Turns in an entry.
TURNS = 10
#: Turn t's throw k is throw number ``THROW_STRIDE * t + k`` (a turn never needs 16).
THROW_STRIDE = 16
#: What a turn scores when it was not finished: every tile open (1 + 2 + ... + 9).
UNPLAYED_SCORE = 45


def throw_number(turn: int, k: int) -> int:
    """The throw number of turn ``turn``'s throw ``k`` (both 0-based): the dice's label."""
    if not 0 <= k < THROW_STRIDE:
        raise ValueError(f"a turn's throws are numbered 0 to {THROW_STRIDE - 1}, not {k}")
    return THROW_STRIDE * turn + k


@dataclass(frozen=True, slots=True)
class DailyResult:
    """An entry's score: each turn's score, the turns that shut the box, and their sum."""

    turn_scores: tuple[int, ...]
    jackpots: int
    total: int

    @property
    def rounds(self) -> int:
        """The entry's turns, which are its rounds as a solo match counts them."""
        return len(self.turn_scores)

    @property
    def rank_key(self) -> tuple[int, int]:
        """Lower is better: more jackpots first, then the lower total."""
        return (-self.jackpots, self.total)

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn_scores": list(self.turn_scores),
            "jackpots": self.jackpots,
            "total": self.total,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DailyResult:
        return cls(
            turn_scores=tuple(int(s) for s in data["turn_scores"]),
            jackpots=int(data["jackpots"]),
            total=int(data["total"]),
        )


def daily_result(finished: Sequence[int], turns: int = TURNS) -> DailyResult:
    """The result of an entry whose first ``len(finished)`` turns scored ``finished``.

    Every later turn (the one in progress, and those never begun) scores
    ``UNPLAYED_SCORE`` and is no jackpot. A finished turn scores 0 exactly when it shut
    the box, so the jackpots are the turns that scored 0.
    """
    if len(finished) > turns:
        raise ValueError(f"an entry has {turns} turns, not {len(finished)}")
    scores = (*finished, *(UNPLAYED_SCORE,) * (turns - len(finished)))
    return DailyResult(
        turn_scores=scores,
        jackpots=sum(1 for s in finished if s == 0),
        total=sum(scores),
    )


def daily_places(results: Sequence[DailyResult]) -> list[int]:
    """Places of entries (1 = best): more jackpots, then a lower total; equal share a place.

    Standard competition ranking (1, 1, 3), in the order the results were given;
    one sort, so a board of many thousands of entries is ranked at once.
    """
    order = sorted(range(len(results)), key=lambda i: results[i].rank_key)
    places = [0] * len(results)
    for position, i in enumerate(order):
        if position and results[order[position - 1]].rank_key == results[i].rank_key:
            places[i] = places[order[position - 1]]
        else:
            places[i] = position + 1
    return places


Standing = Literal["better", "level", "worse"]


@dataclass(frozen=True, slots=True)
class VersusPar:
    """An entry against par: how many jackpots more, and how much higher its total."""

    jackpots: int
    #: The entry's total minus par's: below zero is under par (better).
    total: int
    standing: Standing


def versus_par(entry: DailyResult, par: DailyResult) -> VersusPar:
    """How ``entry`` compares with ``par`` by the board's order (jackpots, then total)."""
    mine, theirs = entry.rank_key, par.rank_key
    standing: Standing = "better" if mine < theirs else "level" if mine == theirs else "worse"
    return VersusPar(
        jackpots=entry.jackpots - par.jackpots,
        total=entry.total - par.total,
        standing=standing,
    )
