"""A turn in progress: whose it is, the tiles still open, and the dice waiting for a cover.

Its snapshot lives here with it, so that the match's module keeps to the moves and
the match's own fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jackpot.engine.tiles import FULL, Option


@dataclass(frozen=True, slots=True)
class Turn:
    seat: int
    open: frozenset[int] = FULL
    #: The dice of the throw waiting for a cover; None while a throw is due.
    dice: tuple[int, ...] | None = None
    options: tuple[Option, ...] = ()
    #: Throws made so far in this turn.
    throws: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "open": sorted(self.open),
            "dice": None if self.dice is None else list(self.dice),
            "options": [list(o) for o in self.options],
            "throws": self.throws,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Turn:
        return cls(
            seat=int(data["seat"]),
            open=frozenset(data["open"]),
            dice=None if data["dice"] is None else tuple(data["dice"]),
            options=tuple(tuple(o) for o in data["options"]),
            throws=int(data["throws"]),
        )
