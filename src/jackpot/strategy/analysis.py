"""What each option of a throw was worth, for the post-match review.

A player who wants to know whether a cover was a mistake needs the exact chance it
kept of shutting the box this turn, next to the best that throw allowed. Values
are the solver's exact Fractions, so "gave away nothing" means exactly nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from jackpot.engine.tiles import Option, Variant, options
from jackpot.strategy.bots import choose_cover
from jackpot.strategy.solver import expected_score_min, p_shut_max
from jackpot.strategy.strength import Strength


@dataclass(frozen=True)
class OptionValue:
    """One option and the optimal values of the open set it leaves."""

    option: Option
    p_shut: Fraction
    expected_score: Fraction


@dataclass(frozen=True)
class PositionAnalysis:
    """Every option of one throw, valued; ``best`` is the best bot's choice."""

    variant: Variant
    open_tiles: frozenset[int]
    dice: tuple[int, ...]
    options: tuple[OptionValue, ...]
    best: Option

    def value_of(self, chosen: Option) -> OptionValue:
        key = tuple(sorted(chosen))
        for value in self.options:
            if value.option == key:
                return value
        raise ValueError(f"{list(key)} was not an option of this throw")

    def given_away(self, chosen: Option) -> Fraction:
        """Chance of shutting the box lost against the throw's best option (0 if none)."""
        top = max(v.p_shut for v in self.options)
        return top - self.value_of(chosen).p_shut

    def score_cost(self, chosen: Option) -> Fraction:
        """Expected turn score added against the throw's lowest-scoring option."""
        low = min(v.expected_score for v in self.options)
        return self.value_of(chosen).expected_score - low


def analyse(
    variant: Variant, open_tiles: frozenset[int], dice: tuple[int, ...]
) -> PositionAnalysis:
    """Value every option of ``dice`` from ``open_tiles``; ValueError if there is none.

    In Jackpot the best bot maximises the chance of a jackpot, so its choice gives
    nothing away. In Classic it minimises the expected score, which now and then
    costs a little chance of shutting: ``given_away`` shows that honestly.
    """
    best = choose_cover(variant, Strength.BEST, open_tiles, dice)
    values = tuple(
        OptionValue(
            option=o,
            p_shut=p_shut_max(variant, open_tiles - set(o)),
            expected_score=expected_score_min(variant, open_tiles - set(o)),
        )
        for o in options(variant, open_tiles, dice)
    )
    return PositionAnalysis(variant, open_tiles, tuple(dice), values, best)
