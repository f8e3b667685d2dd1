"""A player's skill apart from their dice: the match-winning chance their decisions gave away.

Results mostly measure dice. What a player controls is each decision, and each can be
valued exactly: the match equity of the best option minus that of the option chosen
(strategy/match_odds.py). Averaged over many decisions this is zero for perfect play
whatever the dice did, and it grows with every mistake whether or not the dice later
forgave it, so it tells skill apart from luck.

Only real decisions count: a cover chosen among two options or more, and the choice
of one die or two. A forced cover says nothing about the player, and counting it
would flatter everyone by the same share of easy turns.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from jackpot.strategy.chances import ZERO

DecisionKind = Literal["cover", "dice"]


@dataclass(frozen=True, slots=True)
class Decision:
    """One choice a seat made: what kind, among how many options, and the equity it gave away."""

    kind: DecisionKind
    options: int
    given_away: Fraction

    @property
    def counts(self) -> bool:
        """Whether it says something about the player: two options or more."""
        return self.options >= 2


@dataclass(frozen=True, slots=True)
class Skill:
    """Decisions counted, how many of them gave away nothing, and the match equity
    they gave away in all (exact)."""

    decisions: int = 0
    best: int = 0
    given_away: Fraction = ZERO

    @property
    def average(self) -> Fraction | None:
        """Equity given away per decision (0 is perfect play); None before any decision."""
        return self.given_away / self.decisions if self.decisions else None

    def __add__(self, other: Skill) -> Skill:
        """Two sets of decisions together, to keep a running total as matches end."""
        return Skill(
            self.decisions + other.decisions,
            self.best + other.best,
            self.given_away + other.given_away,
        )


def skill(decisions: Iterable[Decision]) -> Skill:
    """The figures of one person's decisions, across any number of matches."""
    counted = [d for d in decisions if d.counts]
    return Skill(
        decisions=len(counted),
        best=sum(1 for d in counted if d.given_away == 0),
        given_away=sum((d.given_away for d in counted), ZERO),
    )
