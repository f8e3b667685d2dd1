"""Par for a daily deal: the ``best`` bot's play of the same dice, from the published seed.

Par says how much of a result was the dice: on a day when the best bot scores badly,
everybody's dice were bad. It is a pure function of the seed, the date and the
variant, so anybody can compute it once the day has closed and its seed is public.
"""

from __future__ import annotations

from dataclasses import dataclass

from jackpot.engine import DailyResult, Match, Variant
from jackpot.fair.daily import daily_client_seed
from jackpot.fair.dice import throw_dice
from jackpot.fair.entries import RecordEvent
from jackpot.fair.recorder import append_events
from jackpot.strategy.autoplay import play_bots
from jackpot.strategy.strength import Strength


@dataclass(frozen=True, slots=True)
class Par:
    result: DailyResult
    #: The bot's entry as a record's events (its throws numbered 16t + k).
    events: tuple[RecordEvent, ...]


def daily_par(server_seed: str, day: str, variant: Variant | str) -> Par:
    """The best bot's entry in day ``day``'s deal of ``variant`` (every choice by the
    bot rules of jackpot-fair/1, Classic's one die or two included)."""
    client_seed = daily_client_seed(day, variant)

    def roll(n: int, count: int) -> tuple[int, ...]:
        return throw_dice(server_seed, client_seed, n, count)

    match, events = play_bots(Match.new_daily(Variant(variant)), [Strength.BEST], roll)
    result = match.result
    assert isinstance(result, DailyResult)
    log: list[RecordEvent] = []
    append_events(log, events)
    return Par(result=result, events=tuple(log))
