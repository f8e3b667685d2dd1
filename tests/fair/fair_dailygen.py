"""Random daily entries written as records, for the verifier's property tests.

As in ``fair_matchgen.py``, hypothesis draws the plan and one integer that drives a
``random.Random`` for the choices of play; the record is written through
``jackpot.fair.recorder``, the path the site uses.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date
from typing import Literal

from hypothesis import strategies as st

from jackpot.engine import RULES, DailyResult, Match, Option, Thrown, Variant
from jackpot.fair import (
    BY_NUMBER,
    BY_POSITION,
    DailyDeal,
    Record,
    RecordEvent,
    SeatEntry,
    commitment,
    daily_client_seed,
    dice_due,
)
from jackpot.fair.recorder import append_events

Ending = Literal["finished", "gave_up", "day_closed", "playing"]
ENDINGS: tuple[Ending, ...] = ("finished", "gave_up", "day_closed", "playing")


@dataclass(frozen=True)
class DailyPlan:
    variant: Variant
    server_seed: str
    date: str
    play_seed: int
    ending: Ending
    #: Whether the record shows the seed (the day has closed); never for "playing".
    published: bool
    #: The deal's dice go by position (jackpot-record/4), else by number.
    by_position: bool = False


@dataclass
class PlayedDaily:
    record: Record
    #: What each throw offered, by throw number.
    offered: dict[int, tuple[Option, ...]] = field(default_factory=dict)


@st.composite
def daily_plans(
    draw: st.DrawFn, ending: Ending | None = None, by_position: bool = False
) -> DailyPlan:
    chosen = ending if ending is not None else draw(st.sampled_from(ENDINGS))
    day = draw(st.dates(min_value=date(2026, 1, 1), max_value=date(2099, 12, 31)))
    return DailyPlan(
        variant=draw(st.sampled_from(list(Variant))),
        server_seed=draw(st.binary(min_size=32, max_size=32)).hex(),
        date=day.isoformat(),
        play_seed=draw(st.integers(0, 2**32 - 1)),
        ending=chosen,
        published=chosen != "playing" and (chosen == "day_closed" or draw(st.booleans())),
        by_position=by_position,
    )


def play_daily(plan: DailyPlan) -> PlayedDaily:
    rng = random.Random(plan.play_seed)
    client_seed = daily_client_seed(plan.date, plan.variant)
    match = Match.new_daily(plan.variant)
    log: list[RecordEvent] = []
    offered: dict[int, tuple[Option, ...]] = {}
    # Where an entry that does not reach its end stops: a turn, and a moment in it.
    stop_turn = rng.randrange(10)
    stop_after = rng.randrange(8)
    if stop_turn == 9:
        # The last turn may end before any later moment (a dead first throw): an entry
        # that is not to be finished stops before its first move there.
        stop_after = 0
    while not match.finished:
        turn = match.turn
        assert turn is not None
        moves = turn.throws * 2 + (turn.dice is not None)
        if plan.ending != "finished" and (match.round - 1, moves) >= (stop_turn, stop_after):
            if plan.ending == "playing":
                break
            match, events = match.leave(0, "resigned" if plan.ending == "gave_up" else "timeout")
            append_events(log, events)
            continue
        if turn.dice is None:
            count = rng.choice((1, 2)) if match.may_throw_one_die else 2
            dice = dice_due(
                plan.server_seed, client_seed, match, count, by_position=plan.by_position
            )
            match, events = match.throw(0, dice)
            for e in events:
                if isinstance(e, Thrown):
                    offered[e.n] = e.options
        else:
            match, events = match.cover(0, rng.choice(turn.options))
        append_events(log, events)
    result = match.result
    assert result is None or isinstance(result, DailyResult)
    record = Record(
        id=f"m_daily_{plan.play_seed:08x}",
        variant=plan.variant,
        deadline_seconds=None,
        created=f"{plan.date}T08:00:00Z",
        seats=(SeatEntry("player1"),),
        commitment=commitment(plan.server_seed),
        server_seed=plan.server_seed if plan.published else None,
        client_seed=client_seed,
        events=tuple(log),
        result=result,
        joined=(0,),
        rules=RULES,
        daily=DailyDeal(plan.date, dice=BY_POSITION if plan.by_position else BY_NUMBER),
    )
    return PlayedDaily(record=record, offered=offered)
