"""One match's figures per seat, read from its review: turns, choice accuracy and skill.

Everything the site stores or shows about how a seat played comes from one walk of
the record, ``fair.match_review.review_match``: the rows written when a match ends
(ratings.py), the replay's summary (replay.py) and the rebuild, so they always agree.

Two measures of a choice stand side by side, because they answer two questions:

- the chance of shutting the box this turn that a cover kept (``choices``,
  ``best_choices``, ``shut_given_away``: the profile's "choice accuracy", the turn's
  own question, which the site has always shown);
- the match equity a decision gave away (``skill``, strategy/skill.py): where a match
  is at stake, the chance of winning it (a draw counted as a share); in a solo match,
  where nobody is to be beaten, the chance of shutting the box. It counts the choice
  of one die or two as well as covers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from jackpot.fair.match_review import MatchReview, ReviewStep
from jackpot.strategy.skill import Skill


@dataclass
class SeatSummary:
    """One seat's figures over a match (all zero for a seat whose record could not be read)."""

    turns: int = 0
    jackpots: int = 0
    score_sum: int = 0
    #: Covers chosen among two options or more, and how many kept the best chance of
    #: shutting the box this turn.
    choices: int = 0
    best_choices: int = 0
    #: The chance of shutting the box those covers gave away, in all (exact).
    shut_given_away: Fraction = Fraction(0)
    #: Decisions and the match equity they gave away (exact).
    skill: Skill = field(default_factory=Skill)
    #: Running total at the end of each round's turn (None: no turn that round).
    totals_by_round: list[int | None] = field(default_factory=list)

    @property
    def accuracy(self) -> float | None:
        return self.best_choices / self.choices if self.choices else None

    @property
    def given_away_per_turn(self) -> float | None:
        """The chance of shutting the box given away per turn, as the profile shows it."""
        return float(self.shut_given_away) / self.turns if self.turns else None


def shut_given_away(step: ReviewStep) -> Fraction | None:
    """The chance of shutting the box this turn that the step's cover gave away against
    the cover keeping the most; None unless it was chosen among two options or more."""
    odds = step.cover_odds
    if odds is None or not step.cover or len(odds.options) < 2:
        return None
    top = max(o.p_shut for o in odds.options)
    return top - odds.option(step.cover).p_shut


def summarise(review: MatchReview) -> list[SeatSummary]:
    """Every seat's figures, in the order of play."""
    seats = [
        SeatSummary(
            turns=figures.turns,
            jackpots=figures.jackpots,
            score_sum=figures.score_sum,
            skill=figures.skill,
            totals_by_round=list(figures.totals_by_round),
        )
        for figures in review.seats
    ]
    for step in review.steps:
        given = shut_given_away(step)
        if given is None:
            continue
        summary = seats[step.seat]
        summary.choices += 1
        summary.best_choices += given == 0
        summary.shut_given_away += given
    return seats
