"""Par for a daily deal: the ``best`` bot's play of the same dice, from the published seed.

Par says how much of a result was the dice: on a day when the best bot scores badly,
everybody's dice were bad. It is a pure function of the seed, the date, the variant and
how the deal's dice go (by number, or by position), so anybody can compute it once the
day has closed and its seed is public.
"""

from __future__ import annotations

from dataclasses import dataclass

from jackpot.engine import DailyResult, Event, Match, Variant
from jackpot.fair.daily import daily_client_seed, dice_due
from jackpot.fair.entries import RecordEvent
from jackpot.fair.recorder import append_events
from jackpot.strategy.bots import choose_cover, choose_dice_count
from jackpot.strategy.strength import Strength


@dataclass(frozen=True, slots=True)
class Par:
    result: DailyResult
    #: The bot's entry as a record's events (its throws numbered 16t + k).
    events: tuple[RecordEvent, ...]


def daily_par(
    server_seed: str, day: str, variant: Variant | str, *, by_position: bool = False
) -> Par:
    """The best bot's entry in day ``day``'s deal of ``variant`` (every choice by the
    bot rules of jackpot-fair/1, Classic's one die or two included), on the deal's dice:
    by number, or ``by_position`` (each throw from its turn and the tiles it faces)."""
    client_seed = daily_client_seed(day, variant)
    match = Match.new_daily(Variant(variant))
    events: list[Event] = []
    while (turn := match.turn) is not None:
        if turn.dice is None:
            count = choose_dice_count(match.variant, Strength.BEST, turn.open)
            dice = dice_due(server_seed, client_seed, match, count, by_position=by_position)
            match, caused = match.throw(0, dice)
        else:
            cover = choose_cover(match.variant, Strength.BEST, turn.open, turn.dice)
            match, caused = match.cover(0, cover)
        events.extend(caused)
    result = match.result
    assert isinstance(result, DailyResult)
    log: list[RecordEvent] = []
    append_events(log, events)
    return Par(result=result, events=tuple(log))
