"""Jackpot match chances in closed form: what a turn's chance of a jackpot means for the match.

In Jackpot only a shut box decides a match: it ends at the end of the round in which
a seat still in shut the box, and since every jackpot takes nine throws all the seats
that shut it that round share first place. A turn therefore matters only through its
chance q of a jackpot, and the other seats only through theirs. Every other seat is
taken to play the ``best`` bot's strategy, whose chance from a full board is p (about
one turn in 12.5), and so is the seat itself in later rounds; then a round that
nobody wins leads to another just like it, and the later rounds add up to a geometric
series with a closed form. Everything stays an exact ``Fraction``.

The equity of a turn grows with q (its coefficient is positive whatever the state),
so in Jackpot the option with the best chance of a jackpot is also the one with the
best chance of winning: the match view changes the numbers shown, never the advice.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb

from jackpot.engine.tiles import FULL, Variant
from jackpot.strategy.chances import ONE, ZERO, Chances
from jackpot.strategy.solver import p_shut_max


def others_chance() -> Fraction:
    """The chance of a jackpot of a seat playing the ``best`` bot's strategy from a full board.

    That bot always keeps the highest chance of a jackpot, so its chance is the
    solver's optimum (tests/strategy check it against the bot's own table, which
    takes longer to build).
    """
    return p_shut_max(Variant.JACKPOT, FULL)


def _shared(p: Fraction, others: int, already: int) -> Fraction:
    """E[1 / (1 + already + X)] for X jackpots among ``others`` seats of chance ``p`` each:
    a jackpot's share of first place."""
    return sum(
        (
            comb(others, x) * p**x * (1 - p) ** (others - x) / (1 + already + x)
            for x in range(others + 1)
        ),
        ZERO,
    )


@cache
def fresh_round(seats_in: int, p: Fraction) -> Chances:
    """A seat's chances from the start of a round that ``seats_in`` seats play from a
    full board, each with chance ``p``, until a round has a jackpot."""
    if seats_in < 1:
        raise ValueError("a round needs at least one seat still in")
    if seats_in == 1:
        return Chances(ONE, ZERO, ONE)
    nobody = (1 - p) ** seats_in
    decided = 1 - nobody  # the chance that a round is the last one
    alone = p * (1 - p) ** (seats_in - 1)
    shared = p - alone
    # Every seat plays alike, so each has the same equity: one in seats_in.
    return Chances(alone / decided, shared / decided, Fraction(1, seats_in))


def jackpot_chances(
    q: Fraction,
    *,
    seats_in: int,
    shut_before: int,
    after: int,
    p: Fraction | None = None,
) -> Chances:
    """The chances of the seat now playing when its turn gives a jackpot with chance ``q``.

    ``seats_in``: seats still in, this one included; ``shut_before``: how many of them
    have shut the box earlier this round; ``after``: how many of them still play after
    this one this round; ``p``: every other turn's chance (the best bot's by default).
    A solo seat (``seats_in`` 1) is worth its chance of shutting the box this turn.
    """
    p = others_chance() if p is None else p
    if not 0 <= q <= 1:
        raise ValueError(f"a chance lies between 0 and 1, not {q}")
    # Every chance is linear in q: the line, kept per state, gives the rest cheaply.
    at_0, slope = _line(seats_in, shut_before, after, p)
    return Chances(
        at_0.p_win + q * slope.p_win,
        at_0.p_draw + q * slope.p_draw,
        at_0.equity + q * slope.equity,
    )


@cache
def _line(seats_in: int, shut_before: int, after: int, p: Fraction) -> tuple[Chances, Chances]:
    """The chances at q = 0, and how much each grows per unit of q."""
    at_0 = round_chances(ZERO, seats_in=seats_in, shut_before=shut_before, after=after, p=p)
    at_1 = round_chances(ONE, seats_in=seats_in, shut_before=shut_before, after=after, p=p)
    return at_0, Chances(
        at_1.p_win - at_0.p_win, at_1.p_draw - at_0.p_draw, at_1.equity - at_0.equity
    )


def round_chances(
    q: Fraction, *, seats_in: int, shut_before: int, after: int, p: Fraction
) -> Chances:
    """``jackpot_chances`` written out, case by case."""
    if not 0 <= p <= 1:
        raise ValueError(f"a chance lies between 0 and 1, not {p}")
    if seats_in < 1 or shut_before < 0 or after < 0 or 1 + shut_before + after > seats_in:
        raise ValueError(
            f"{shut_before} seats shut and {after} after this one do not fit {seats_in} seats in"
        )
    if seats_in == 1:
        return Chances(q, ZERO, q)
    if shut_before:
        # The match ends with this round; only a jackpot of its own lets this seat share it.
        return Chances(ZERO, q, q * _shared(p, after, shut_before))
    none_after = (1 - p) ** after
    later = fresh_round(seats_in, p)
    carried = (1 - q) * none_after  # nobody shuts the box this round: play on
    return Chances(
        p_win=q * none_after + carried * later.p_win,
        p_draw=q * (1 - none_after) + carried * later.p_draw,
        equity=q * _shared(p, after, 0) + carried * later.equity,
    )
