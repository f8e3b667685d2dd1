"""What an action caused, so the server can persist and publish it and a page can
apply it to the state it already shows (lichess-style: a move returns events)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jackpot.engine.daily import DailyResult
from jackpot.engine.result import Result
from jackpot.engine.tiles import Option


@dataclass(frozen=True, slots=True)
class Thrown:
    n: int
    seat: int
    dice: tuple[int, ...]
    options: tuple[Option, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "thrown",
            "n": self.n,
            "seat": self.seat,
            "dice": list(self.dice),
            "options": [list(o) for o in self.options],
        }


@dataclass(frozen=True, slots=True)
class Covered:
    n: int
    seat: int
    tiles: Option
    open: frozenset[int]

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "covered",
            "n": self.n,
            "seat": self.seat,
            "tiles": list(self.tiles),
            "open": sorted(self.open),
        }


@dataclass(frozen=True, slots=True)
class TurnStarted:
    seat: int
    round: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "turn_started", "seat": self.seat, "round": self.round}


@dataclass(frozen=True, slots=True)
class TurnEnded:
    seat: int
    score: int
    throws: int
    shut: bool
    total: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "turn_ended",
            "seat": self.seat,
            "score": self.score,
            "throws": self.throws,
            "shut": self.shut,
            "total": self.total,
        }


@dataclass(frozen=True, slots=True)
class SeatOut:
    seat: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": "seat_out", "seat": self.seat, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class SpareUsed:
    """A seat's deadline passed and one of its spares was used: its deadline starts again."""

    seat: int
    #: The seat's spares left after this one.
    left: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "spare_used", "seat": self.seat, "left": self.left}


@dataclass(frozen=True, slots=True)
class MatchEnded:
    #: A DailyResult when a daily entry ends.
    result: Result | DailyResult

    def to_dict(self) -> dict[str, Any]:
        return {"type": "match_ended", "result": self.result.to_dict()}


@dataclass(frozen=True, slots=True)
class LastRound:
    """The match ends with the round in progress: its tournament round's time ran out."""

    round: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "last_round", "round": self.round}


Event = Thrown | Covered | TurnStarted | TurnEnded | SeatOut | SpareUsed | MatchEnded | LastRound
