"""The daily deal in jackpot-fair/1: its date, its client seed, and the record's daily parts.

A day's deal has no players' seeds to wait for: its client seed is fixed by the date
and the variant (``daily-2026-12-06-jackpot``), so it is known before the server seed
is committed to, and the operator picks nothing after the commitment. Everybody who
enters the deal faces the same dice: by number, throw k of turn t is throw 16t + k
(``engine/daily.py``); by position, the throw of turn t facing the open tiles O is the
label ``client_seed:t:O``, so a friend who played first knows only the throws of the
positions they reached, not a sequence to plan a whole turn around.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date as Date
from typing import Any, Literal, TypeAlias

from jackpot.engine.daily import TURNS, UNPLAYED_SCORE, DailyResult
from jackpot.engine.match import Match
from jackpot.engine.tiles import Variant
from jackpot.fair.dice import position_dice, throw_dice
from jackpot.fair.fields import (
    RecordFormatError,
    read_int,
    read_list,
    read_object,
    refusal,
)

#: How a deal's dice are found: by the throw's number, or by the position it is thrown in.
DiceBy: TypeAlias = Literal["by-number", "by-position"]
BY_NUMBER: DiceBy = "by-number"
BY_POSITION: DiceBy = "by-position"

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def check_daily_date(day: object) -> str:
    """A UTC day as ``YYYY-MM-DD`` that the calendar has; ValueError otherwise."""
    if isinstance(day, str) and _DATE.fullmatch(day):
        try:
            Date.fromisoformat(day)
        except ValueError:
            pass
        else:
            return day
    raise ValueError(f"a daily deal's date is a day written YYYY-MM-DD, not {day!r}")


def daily_client_seed(day: str, variant: Variant | str) -> str:
    """The client seed of day ``day``'s deal in ``variant``: ``daily-<day>-<variant>``."""
    return f"daily-{check_daily_date(day)}-{Variant(variant).value}"


@dataclass(frozen=True, slots=True)
class DailyDeal:
    """The record's ``"daily"``: which day's deal the entry played, and its turns."""

    date: str
    turns: int = TURNS
    #: By position from ``jackpot-record/4`` on (its record says ``"dice": "by-position"``).
    dice: DiceBy = BY_NUMBER

    @property
    def by_position(self) -> bool:
        return self.dice == BY_POSITION

    def to_dict(self) -> dict[str, Any]:
        how = {"dice": BY_POSITION} if self.by_position else {}
        return {"date": self.date, "turns": self.turns, **how}


def dice_due(
    server_seed: str, client_seed: str, match: Match, count: int = 2, *, by_position: bool = False
) -> tuple[int, ...]:
    """The dice of the throw now due in ``match``: by its number (``match.throws``), or in a
    daily deal by position (turn ``match.round - 1``, the open tiles of the turn)."""
    turn = match.turn
    if turn is None or turn.dice is not None:
        raise ValueError("no throw is due: the match is over, or a cover is due")
    if not by_position:
        return throw_dice(server_seed, client_seed, match.throws, count)
    if not match.daily:
        raise ValueError("dice go by position only in a daily entry")
    return position_dice(server_seed, client_seed, match.round - 1, turn.open, count)


def read_daily_deal(value: object, *, by_position_allowed: bool = False) -> DailyDeal:
    """The record's ``"daily"``; ``"dice": "by-position"`` is ``/4``'s (``by_position_allowed``)."""
    optional = ("dice",) if by_position_allowed else ()
    d = read_object(value, "daily", ("date", "turns"), optional)
    try:
        day = check_daily_date(d["date"])
    except ValueError:
        expected = 'a day written YYYY-MM-DD, like "2026-12-06"'
        raise refusal("daily.date", expected, d["date"]) from None
    turns = read_int(d["turns"], "daily.turns", TURNS, TURNS, f"{TURNS} (turns in an entry)")
    if "dice" in d and d["dice"] != BY_POSITION:
        expected = f'"{BY_POSITION}" (without it, the dice go by number)'
        raise refusal("daily.dice", expected, d["dice"])
    return DailyDeal(date=day, turns=turns, dice=BY_POSITION if "dice" in d else BY_NUMBER)


def read_daily_result(value: object, turns: int) -> DailyResult:
    """A daily entry's result, well-formed; whether it is *true* is the verifier's business."""
    d = read_object(value, "result", ("turn_scores", "jackpots", "total"))
    expected = f"a list of {turns} turn scores"
    scores = read_list(d["turn_scores"], "result.turn_scores", expected)
    if len(scores) != turns:
        raise RecordFormatError(f"result.turn_scores: expected {expected}, got {len(scores)}")
    return DailyResult(
        turn_scores=tuple(
            read_int(s, f"result.turn_scores[{i}]", 0, UNPLAYED_SCORE, "a turn score 0-45")
            for i, s in enumerate(scores)
        ),
        jackpots=read_int(d["jackpots"], "result.jackpots", 0, turns, f"a count 0-{turns}"),
        total=read_int(d["total"], "result.total", 0, None, "a total >= 0"),
    )
