"""The three bot strengths, drawn per match from the seed (jackpot-fair/1)."""

from __future__ import annotations

from enum import StrEnum


class Strength(StrEnum):
    LOWEST = "lowest"
    HIGHEST = "highest"
    BEST = "best"


#: Index order of the draw: byte % 3 -> strength.
STRENGTH_ORDER: tuple[Strength, ...] = (Strength.LOWEST, Strength.HIGHEST, Strength.BEST)
