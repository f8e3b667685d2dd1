"""Any stated position valued as a match's own: the analysis board's call is the odds' call."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from jackpot.engine import FULL, Match, Turn, Variant
from jackpot.engine.tiles import from_mask, options
from jackpot.strategy.chances import Chances
from jackpot.strategy.classic_match import Facing, facings
from jackpot.strategy.jackpot_match import jackpot_chances
from jackpot.strategy.match_odds import (
    JackpotRound,
    jackpot_rounds,
    match_odds,
    match_stake,
    position_odds,
)

CLASSIC = Variant.CLASSIC
JACKPOT = Variant.JACKPOT


def a_match(
    variant: Variant,
    seats: int,
    seat: int,
    open_tiles: frozenset[int],
    dice: tuple[int, ...] | None,
    totals: tuple[int, ...],
    shut: tuple[int | None, ...],
) -> Match:
    return Match(
        variant=variant,
        seats=seats,
        round=1,
        throws=10,
        totals=totals,
        out=(None,) * seats,
        left=(),
        shut=shut,
        turn=Turn(seat, open_tiles, dice, options(variant, open_tiles, dice) if dice else (), 1),
        result=None,
    )


def test_a_match_and_its_stated_position_have_the_same_odds() -> None:
    """Random positions of matches of one to four seats: match_odds is position_odds
    of the match's own stake, option for option."""
    rng = random.Random(7)
    checked = 0
    for _ in range(300):
        variant = rng.choice([CLASSIC, JACKPOT])
        seats = rng.randint(1, 4)
        seat = rng.randrange(seats)
        open_tiles = from_mask(rng.randrange(1, 512))
        dice: tuple[int, ...] | None = rng.choice([None, (rng.randint(1, 6), rng.randint(1, 6))])
        if dice is not None and not options(variant, open_tiles, dice):
            continue  # the engine ends a turn at once on a throw that reaches nothing
        totals = tuple(rng.randint(1, 45) if s < seat else 0 for s in range(seats))
        shut = tuple(
            1 if variant is JACKPOT and s < seat and rng.random() < 0.3 else None
            for s in range(seats)
        )
        m = a_match(variant, seats, seat, open_tiles, dice, totals, shut)
        stake = match_stake(m)
        assert (stake is None) == (seats == 1)
        want = match_odds(m)
        got = position_odds(variant, open_tiles, dice, stake, seat)
        assert got == want
        checked += 1
    assert checked > 200


def test_a_throw_that_reaches_nothing_ends_the_turn_on_its_score() -> None:
    """1, 5 and 9 open, a Classic throw of 4 (a double six in Jackpot): the turn ends on 15."""
    nothing = {CLASSIC: (1, 3), JACKPOT: (6, 6)}
    for variant, dice in nothing.items():
        assert not options(variant, frozenset({1, 5, 9}), dice)

    def worth(stake: Facing | JackpotRound | None, variant: Variant = CLASSIC) -> Chances:
        odds = position_odds(variant, frozenset({1, 5, 9}), nothing[variant], stake)
        assert odds.ends_turn and odds.options == () and odds.best is None
        assert odds.decision is None
        return odds.chances

    assert worth(Facing(20, 1, 0)) == Chances(Fraction(1), Fraction(0), Fraction(1))
    assert worth(Facing(12, 1, 0)) == Chances(Fraction(0), Fraction(0), Fraction(0))
    # On the score to beat with one seat there already: a draw, half the match.
    assert worth(Facing(15, 1, 0)) == Chances(Fraction(0), Fraction(1), Fraction(1, 2))
    assert worth(None) == Chances(Fraction(0), Fraction(0), Fraction(0))
    # Jackpot: no jackpot this turn, only later rounds (or nothing, when one was hit).
    for state in (JackpotRound(3, 0, 1), JackpotRound(2, 1, 0)):
        want = jackpot_chances(
            Fraction(0), seats_in=state.seats_in, shut_before=state.shut_before, after=state.after
        )
        assert worth(state, JACKPOT) == want
    assert worth(JackpotRound(2, 1, 0), JACKPOT).equity == 0


def test_the_choices_best_first() -> None:
    odds = position_odds(CLASSIC, FULL, (5, 6), Facing(27, 1, 0))
    ranked = odds.ranked()
    assert ranked[0] is odds.best and ranked[0].tiles == (3, 8)
    assert sorted(ranked, key=lambda o: o.tiles or ()) == sorted(
        odds.options, key=lambda o: o.tiles or ()
    )
    equities = [o.equity for o in ranked]
    assert equities == sorted(equities, reverse=True)


def test_every_stake_a_seat_can_face_is_taken() -> None:
    for facing in facings():
        assert position_odds(CLASSIC, FULL, None, facing).stake == facing
    for state in jackpot_rounds():
        assert position_odds(JACKPOT, FULL, None, state).stake == state


@pytest.mark.parametrize(
    ("variant", "open_tiles", "dice", "stake"),
    [
        (JACKPOT, frozenset(), None, None),
        (JACKPOT, frozenset({0, 1}), None, None),
        (JACKPOT, FULL, (3,), None),
        (CLASSIC, FULL, (3,), None),
        (CLASSIC, frozenset({1}), (7, 1), None),
        (CLASSIC, frozenset({1}), (1, 2, 3), None),
        (CLASSIC, FULL, None, JackpotRound(2, 0, 1)),
        (JACKPOT, FULL, None, Facing(9, 1, 0)),
        (JACKPOT, FULL, None, JackpotRound(2, 1, 1)),
        (JACKPOT, FULL, None, JackpotRound(5, 0, 0)),
    ],
)
def test_a_position_no_turn_reaches_is_refused(
    variant: Variant,
    open_tiles: frozenset[int],
    dice: tuple[int, ...] | None,
    stake: Facing | JackpotRound | None,
) -> None:
    with pytest.raises(ValueError):
        position_odds(variant, open_tiles, dice, stake)
