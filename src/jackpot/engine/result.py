"""The outcome of a finished match and how places are ranked (the rules page, "Places")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Result:
    rounds: int
    totals: tuple[int, ...]
    #: Throws of each seat's shutting turn in the final round, else None.
    shut: tuple[int | None, ...]
    places: tuple[int, ...]
    winners: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "rounds": self.rounds,
            "totals": list(self.totals),
            "shut": list(self.shut),
            "places": list(self.places),
            "winners": list(self.winners),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Result:
        return cls(
            rounds=int(data["rounds"]),
            totals=tuple(data["totals"]),
            shut=tuple(data["shut"]),
            places=tuple(data["places"]),
            winners=tuple(data["winners"]),
        )


def decide(
    *,
    seats: int,
    rounds: int,
    totals: Sequence[int],
    shut: Sequence[int | None],
    out: Sequence[str | None],
    left: Sequence[int],
    shared_after_shut: bool = False,
) -> Result:
    """Winners and places once the match is over.

    Winners: the last seat in when the others have gone; else, among seats still in,
    those who shut the box with the fewest throws; else the lowest running total
    (only Classic ends without a shut box). Places use standard competition ranking.

    ``shared_after_shut`` (Classic from jackpot-record/3 on): when a shut box ended
    the match, every other seat still in shares the place after the winner. The
    seats after the shutter never threw, so their totals of 0 rank nothing; the
    older rule ranked them by those totals, above the seats that had played.
    """
    still_in = [s for s in range(seats) if out[s] is None]
    shutters = [s for s in still_in if shut[s] is not None]
    winners: list[int]
    if seats == 1 or len(still_in) == 1:
        winners = still_in
    elif shutters:
        fewest = min(shut[s] or 0 for s in shutters)
        winners = [s for s in shutters if shut[s] == fewest]
    else:
        lowest = min(totals[s] for s in still_in)
        winners = [s for s in still_in if totals[s] == lowest]

    def key(s: int) -> tuple[int, int, int]:
        throws = shut[s]
        return (0, throws, totals[s]) if throws is not None else (1, 0, totals[s])

    places = [0] * seats
    for s in winners:
        places[s] = 1
    others = [s for s in still_in if s not in winners]
    for s in others:
        if shared_after_shut and shutters:
            places[s] = len(winners) + 1
        else:
            places[s] = len(winners) + 1 + sum(1 for o in others if key(o) < key(s))
    for rank, s in enumerate(reversed(left)):
        places[s] = len(still_in) + 1 + rank
    return Result(
        rounds=rounds,
        totals=tuple(totals),
        shut=tuple(shut),
        places=tuple(places),
        winners=tuple(winners),
    )
