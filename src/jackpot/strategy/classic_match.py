"""Classic match equity, 2 to 4 seats: each seat plays the score to beat and the seats after it.

A Classic match is one round. When a seat plays, all that matters of the seats before
it is the lowest score among those still in (the score to beat) and how many of them
hold it; of the seats after it, only how many are still in, since each of them will
play from a full board in the same way. So a seat's state is the ``Facing`` triple
(to beat, holders, after), and its choices are solved once per triple
(classic_turn.py) by backward induction over the seats: a seat that ends on score s
becomes one of the holders of s, and what that is worth depends on how the next
seat, itself playing its best against s, ends (exactly on s, above it, or below).

Seats that have gone out do not compete and are left out of the state; the
later seats are assumed to stay in. A shut box wins at once and ends the match.

Every table is built on first use and kept for the life of the process: the
largest state space, a four-seat match, has 273 states; ``warm()`` builds them all
(under two seconds; docs/analysis.md gives the figures).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from jackpot.strategy.classic_turn import SCORES, TurnTable, Worth, solve_turn

MAX_SEATS = 4
#: Equities are shared by up to four seats: 12 makes 1/2, 1/3 and 1/4 whole.
SHARES = 12
#: The chances of one seat's turn from a full board are integers over 36 ** 9.
TURN = 36**9
#: The highest score a Classic turn can end on (the first throw always covers).
MAX_SCORE = 45


@dataclass(frozen=True, slots=True)
class Facing:
    """What a Classic seat plays against.

    ``to_beat``: the lowest score among the seats before it that are still in (None
    when none of them has played); ``holders``: how many of those seats are on it;
    ``after``: how many seats still in play after it.
    """

    to_beat: int | None
    holders: int
    after: int

    def __post_init__(self) -> None:
        if self.after < 0 or self.holders < 0:
            raise ValueError("holders and seats after must be zero or more")
        if (self.to_beat is None) != (self.holders == 0):
            raise ValueError("a score to beat is held by at least one seat, and only then")
        if self.to_beat is not None and not 1 <= self.to_beat <= MAX_SCORE:
            raise ValueError(f"a score to beat is 1 to {MAX_SCORE}, not {self.to_beat}")
        if self.holders + 1 + self.after > MAX_SEATS:
            raise ValueError(f"a match has at most {MAX_SEATS} seats")


def denominator(after: int) -> int:
    """The common denominator of what a final score is worth with ``after`` seats to come."""
    return SHARES * math.prod([TURN] * after)


@cache
def standing(best: int, holders: int, after: int) -> Worth:
    """(equity, win alone, draw) over ``denominator(after)`` for each of ``holders``
    seats on the lowest score ``best`` while ``after`` seats still play.

    The next seat, playing its best against (best, holders), ends on ``best`` (one
    more holder), above it (nothing changes) or below it or with a shut box (the
    holders have lost); the seats after it do the same in turn.
    """
    if after == 0:
        if holders == 1:
            return (SHARES, SHARES, 0)
        return (SHARES // holders, 0, SHARES)
    nxt = classic_table(Facing(best, holders, after - 1))
    tie_e, tie_w, tie_d = standing(best, holders + 1, after - 1)
    on_e, on_w, on_d = standing(best, holders, after - 1)
    return (
        nxt.tie * tie_e + nxt.over * on_e,
        nxt.tie * tie_w + nxt.over * on_w,
        nxt.tie * tie_d + nxt.over * on_d,
    )


def worths(facing: Facing) -> list[Worth]:
    """What ending the turn on each score is worth to the seat, over ``denominator(after)``."""
    whole = denominator(facing.after)
    found: list[Worth] = [(whole, whole, 0)]  # a shut box wins at once
    for s in range(1, SCORES):
        if facing.to_beat is None or s < facing.to_beat:
            found.append(standing(s, 1, facing.after))
        elif s == facing.to_beat:
            found.append(standing(s, facing.holders + 1, facing.after))
        else:
            found.append((0, 0, 0))
    return found


@cache
def classic_table(facing: Facing) -> TurnTable:
    """The seat's chances and choices from every open set against ``facing``."""
    return solve_turn(worths(facing), denominator(facing.after), facing.to_beat)


def facings(seats: int = MAX_SEATS) -> list[Facing]:
    """Every state a seat of a ``seats``-seat match can face, the last seat's first."""
    found = []
    for after in range(seats - 1):
        for holders in range(1, seats - after):
            found += [Facing(b, holders, after) for b in range(1, MAX_SCORE + 1)]
    found += [Facing(None, 0, after) for after in range(1, seats)]
    return found


def warm(seats: int = MAX_SEATS) -> int:
    """Build every table a ``seats``-seat match can need; returns how many there are."""
    states = facings(seats)
    for facing in states:
        classic_table(facing)
    return len(states)
