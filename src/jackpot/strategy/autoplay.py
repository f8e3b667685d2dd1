"""Bots taking their moves in a live match: shared by the site, selfplay and tests.

The dice arrive through ``roll(n, count)`` so this stays pure: the caller binds it
to the match's seed (``jackpot.fair.throw_dice``), a test binds it to chosen dice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from jackpot.engine import Event, Match
from jackpot.strategy.bots import choose_cover, choose_dice_count
from jackpot.strategy.strength import Strength

Roll = Callable[[int, int], tuple[int, ...]]


def bot_step(match: Match, strength: Strength, roll: Roll) -> tuple[Match, list[Event]]:
    """One action of the seat whose turn it is: a throw, or the cover it owes."""
    turn = match.turn
    if turn is None:
        raise ValueError("the match is over")
    if turn.dice is None:
        count = choose_dice_count(match.variant, strength, turn.open)
        return match.throw(turn.seat, roll(match.throws, count))
    return match.cover(turn.seat, choose_cover(match.variant, strength, turn.open, turn.dice))


def play_bots(
    match: Match, strengths: Sequence[Strength | None], roll: Roll
) -> tuple[Match, list[Event]]:
    """Let bot seats move until a human seat is due or the match ends ("bots move at once")."""
    events: list[Event] = []
    while match.turn is not None:
        strength = strengths[match.turn.seat]
        if strength is None:
            break
        match, caused = bot_step(match, strength, roll)
        events.extend(caused)
    return match, events
