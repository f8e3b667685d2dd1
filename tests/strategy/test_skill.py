"""Skill figures: which decisions count, and the average given away per decision."""

from __future__ import annotations

from fractions import Fraction

from jackpot.strategy.skill import Decision, Skill, skill

F = Fraction


def test_only_real_choices_count() -> None:
    decisions = [
        Decision("cover", 3, F(1, 50)),
        Decision("cover", 1, F(0)),  # forced: says nothing
        Decision("dice", 2, F(0)),
        Decision("cover", 2, F(3, 100)),
    ]
    figures = skill(decisions)
    assert figures == Skill(decisions=3, best=1, given_away=F(1, 20))
    assert figures.average == F(1, 60)


def test_no_decision_has_no_average() -> None:
    assert skill([]).average is None
    assert skill([Decision("cover", 1, F(0))]) == Skill()


def test_figures_of_several_matches_add_up() -> None:
    one = [Decision("cover", 2, F(1, 10)), Decision("dice", 2, F(0))]
    two = [Decision("cover", 4, F(1, 5))]
    assert skill(one) + skill(two) == skill(one + two) == Skill(3, 1, F(3, 10))
    assert (skill(one) + skill(two)).average == F(1, 10)
