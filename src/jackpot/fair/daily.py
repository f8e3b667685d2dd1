"""The daily deal in jackpot-fair/1: its date, its client seed, and the record's daily parts.

A day's deal has no players' seeds to wait for: its client seed is fixed by the date
and the variant (``daily-2026-12-06-jackpot``), so it is known before the server seed
is committed to, and the operator picks nothing after the commitment. Everybody who
enters the deal faces the same dice (``engine/daily.py`` numbers them turn by turn).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date as Date
from typing import Any

from jackpot.engine.daily import TURNS, UNPLAYED_SCORE, DailyResult
from jackpot.engine.tiles import Variant
from jackpot.fair.fields import (
    RecordFormatError,
    read_int,
    read_list,
    read_object,
    refusal,
)

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

    def to_dict(self) -> dict[str, Any]:
        return {"date": self.date, "turns": self.turns}


def read_daily_deal(value: object) -> DailyDeal:
    d = read_object(value, "daily", ("date", "turns"))
    try:
        day = check_daily_date(d["date"])
    except ValueError:
        expected = 'a day written YYYY-MM-DD, like "2026-12-06"'
        raise refusal("daily.date", expected, d["date"]) from None
    turns = read_int(d["turns"], "daily.turns", TURNS, TURNS, f"{TURNS} (turns in an entry)")
    return DailyDeal(date=day, turns=turns)


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
