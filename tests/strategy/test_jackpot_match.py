"""Jackpot match chances: the closed forms against a plain sum over outcomes, and fixed vectors."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from jackpot.engine.tiles import FULL, Variant
from jackpot.strategy.jackpot_match import (
    fresh_round,
    jackpot_chances,
    others_chance,
    round_chances,
)
from jackpot.strategy.policy import policy_values
from jackpot.strategy.strength import Strength

F = Fraction
P = F(14103327415, 176319369216)  # the best bot's jackpot chance from a full board


def by_outcomes(
    q: Fraction, p: Fraction, seats_in: int, shut_before: int, after: int
) -> tuple[Fraction, Fraction, Fraction]:
    """(p_win, p_draw, equity) by listing who shuts the box in this round and, when
    nobody did, in one later round (every seat at p), then dividing by the chance that
    a later round decides: no closed form, only counting."""
    this_round = [F(0)] * 3
    go_on = F(0)
    for mine, *others in product((True, False), repeat=1 + after):
        chance = q if mine else 1 - q
        for o in others:
            chance *= p if o else 1 - p
        shutters = shut_before + mine + sum(others)
        if shutters == 0:
            go_on += chance
        elif mine:
            this_round[0 if shutters == 1 else 1] += chance
            this_round[2] += chance / shutters
    later = [F(0)] * 3
    undecided = F(0)
    for outcome in product((True, False), repeat=seats_in):
        chance = F(1)
        for o in outcome:
            chance *= p if o else 1 - p
        shutters = sum(outcome)
        if shutters == 0:
            undecided += chance
        elif outcome[0]:
            later[0 if shutters == 1 else 1] += chance
            later[2] += chance / shutters
    return tuple(t + go_on * x / (1 - undecided) for t, x in zip(this_round, later, strict=True))  # type: ignore[return-value]


def test_the_other_seats_chance_is_the_best_bots() -> None:
    assert others_chance() == P == policy_values(Variant.JACKPOT, Strength.BEST, FULL)[0]


@pytest.mark.parametrize(
    ("seats_in", "shut_before", "after"),
    [
        (2, 0, 1),
        (2, 0, 0),
        (2, 1, 0),
        (3, 0, 2),
        (3, 1, 1),
        (3, 2, 0),
        (3, 0, 0),
        (4, 0, 3),
        (4, 1, 2),
        (4, 2, 1),
        (4, 0, 1),
    ],
)
@pytest.mark.parametrize("q", [F(0), F(1, 7), P, F(1)])
def test_closed_forms_match_counting_outcomes(
    q: Fraction, seats_in: int, shut_before: int, after: int
) -> None:
    c = jackpot_chances(q, seats_in=seats_in, shut_before=shut_before, after=after)
    assert (c.p_win, c.p_draw, c.equity) == by_outcomes(q, P, seats_in, shut_before, after)
    assert c == round_chances(q, seats_in=seats_in, shut_before=shut_before, after=after, p=P)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_alike_seats_share_the_match_evenly(seats: int) -> None:
    assert fresh_round(seats, P).equity == F(1, seats)
    first = jackpot_chances(P, seats_in=seats, shut_before=0, after=seats - 1)
    assert first.equity == F(1, seats)


def test_a_seat_that_already_shut_leaves_only_a_share() -> None:
    # Three seats in; the first shut the box this round; the second is to throw from a
    # full board, the third after it. Only a jackpot of its own lets the second share.
    c = jackpot_chances(P, seats_in=3, shut_before=1, after=1)
    assert c.p_win == 0
    assert c.p_draw == P
    assert c.equity == F(7261165536803868987695, 186531119764368770727936)  # 0.0389274
    assert c.equity == P * (P / 3 + (1 - P) / 2)


def test_two_seats_fixed_vectors() -> None:
    first = jackpot_chances(P, seats_in=2, shut_before=0, after=1)
    assert first.p_win == F(162216041801, 338535411017)  # 0.4791701
    assert first.p_draw == F(14103327415, 338535411017)  # 0.0416598
    second = jackpot_chances(P, seats_in=2, shut_before=0, after=0)
    assert second.p_win == F(176319369216, 338535411017)  # 0.5208299
    assert second.equity == F(190422696631, 352638738432)  # 0.5399937


def test_more_chance_of_a_jackpot_is_always_more_chance_to_win() -> None:
    for seats_in, shut_before, after in [(2, 0, 1), (3, 1, 1), (4, 0, 0), (4, 0, 3)]:
        low = jackpot_chances(F(1, 20), seats_in=seats_in, shut_before=shut_before, after=after)
        high = jackpot_chances(F(1, 10), seats_in=seats_in, shut_before=shut_before, after=after)
        assert high.equity > low.equity
        assert high.p_win >= low.p_win


def test_a_solo_seat_is_worth_its_chance_of_shutting() -> None:
    c = jackpot_chances(F(1, 9), seats_in=1, shut_before=0, after=0)
    assert (c.p_win, c.p_draw, c.equity) == (F(1, 9), 0, F(1, 9))


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"seats_in": 2, "shut_before": 1, "after": 1}, "do not fit"),
        ({"seats_in": 0, "shut_before": 0, "after": 0}, "do not fit"),
        ({"seats_in": 3, "shut_before": -1, "after": 0}, "do not fit"),
    ],
)
def test_impossible_rounds_are_refused(kwargs: dict[str, int], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        jackpot_chances(P, **kwargs)


def test_a_chance_outside_zero_and_one_is_refused() -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        jackpot_chances(F(3, 2), seats_in=2, shut_before=0, after=1)
    with pytest.raises(ValueError, match="between 0 and 1"):
        jackpot_chances(P, seats_in=2, shut_before=0, after=1, p=F(-1, 2))
