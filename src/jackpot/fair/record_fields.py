"""A record's top-level fields read strictly: variant, deadline, time, order, result, spares.

Each refusal names the field and says what was expected, as ``fields.py``'s readers do;
``record.py`` puts the fields together into a ``Record``. What ``jackpot-record/4`` adds
is checked here too: each addition only where it applies, and a ``/4`` that uses none
of them is refused (it is a ``/3``).
"""

from __future__ import annotations

from datetime import datetime
from itertools import pairwise
from typing import Any

from jackpot.engine.match import MAX_SPARES
from jackpot.engine.result import Result
from jackpot.engine.tiles import Variant
from jackpot.fair.daily import DailyDeal
from jackpot.fair.entries import SeatEntry, read_seat
from jackpot.fair.fields import (
    RecordFormatError,
    kind_of,
    read_int,
    read_list,
    read_object,
    refusal,
)
from jackpot.fair.parts import SeedPart, TournamentTable

FORMAT_V1 = "jackpot-record/1"
FORMAT_V2 = "jackpot-record/2"
FORMAT_V3 = "jackpot-record/3"
FORMAT_V4 = "jackpot-record/4"
FORMATS = (FORMAT_V1, FORMAT_V2, FORMAT_V3, FORMAT_V4)
#: The site offers 60 s to 7 days; a test or demo server may lower the minimum
#: (JACKPOT_MIN_DEADLINE_SECONDS), and its records must still be readable.
DEADLINE_MIN = 1
DEADLINE_MAX = 7 * 24 * 3600
RESULT_KEYS = ("rounds", "totals", "shut", "places", "winners")


def check_v4_uses(
    daily: DailyDeal | None,
    parts: tuple[SeedPart, ...] | None,
    tournament: TournamentTable | None,
    spares: int,
) -> None:
    """What /4 adds, each where it applies; a /4 that uses none of it is a /3."""
    if daily is not None:
        for key, value in (("parts", parts), ("tournament", tournament), ("spares", spares)):
            if value:
                raise RecordFormatError(f"{key}: a daily entry has none (its seed is the deal's)")
        if not daily.by_position:
            raise RecordFormatError(
                f"daily: missing field 'dice' (a {FORMAT_V4} daily entry's dice go "
                f'"by-position"; one whose dice go by number is a {FORMAT_V3})'
            )
        return
    if tournament is not None and parts is None:
        raise RecordFormatError(
            "tournament: a tournament table's server seed is made of parts, "
            "but the record has no 'parts'"
        )
    if parts is None and not spares:
        raise RecordFormatError(
            f"format: a {FORMAT_V4} has parts, a tournament table, spares or a daily entry "
            f"by position, and this record has none of them: it is a {FORMAT_V3}"
        )


def read_spares(value: object) -> int:
    return read_int(
        value,
        "spares",
        1,
        MAX_SPARES,
        f"the spare deadlines of each seat, 1-{MAX_SPARES} (a match without spares has no "
        "'spares')",
    )


def check_daily_shape(d: dict[str, Any], seats: tuple[SeatEntry, ...]) -> None:
    """A daily entry is one person's play, with no deadline per throw."""
    if len(seats) != 1:
        raise RecordFormatError(
            f"seats: expected one seat (a daily entry is one person's), got {len(seats)}"
        )
    if seats[0].is_bot:
        raise refusal("seats[0].bot", "null (a daily entry is a person's)", d["seats"][0]["bot"])
    if d["deadline_seconds"] is not None:
        raise refusal(
            "deadline_seconds", "null (a daily entry has no deadline per throw)",
            d["deadline_seconds"],
        )


def read_variant(value: object) -> Variant:
    if value not in ("jackpot", "classic") or not isinstance(value, str):
        raise refusal("variant", '"jackpot" or "classic"', value)
    return Variant(value)


def read_deadline(value: object) -> int:
    return read_int(
        value,
        "deadline_seconds",
        DEADLINE_MIN,
        DEADLINE_MAX,
        f"a whole number of seconds from {DEADLINE_MIN} to {DEADLINE_MAX}",
    )


def read_created(value: object) -> str:
    expected = 'an ISO 8601 time with its zone, like "2026-11-30T10:00:00Z"'
    if not isinstance(value, str):
        raise refusal("created", expected, value)
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        raise refusal("created", expected, value) from None
    if when.tzinfo is None or "T" not in value:
        raise refusal("created", expected, value)
    return value


def read_joined(value: object, n_seats: int) -> tuple[int, ...]:
    expected = f"each joining index 0-{n_seats - 1} once, one per seat ({n_seats})"
    items = read_list(value, "joined", expected)
    for index in items:
        if isinstance(index, bool) or not isinstance(index, int):
            raise RecordFormatError(f"joined: expected {expected}, got {kind_of(index)} in it")
    if sorted(items) != list(range(n_seats)):
        raise RecordFormatError(f"joined: expected {expected}, got {items!r}")
    return tuple(items)


def read_result(value: object, n_seats: int) -> Result:
    d = read_object(value, "result", RESULT_KEYS)

    def per_seat(key: str) -> list[Any]:
        items = read_list(d[key], f"result.{key}", f"a list with one entry per seat ({n_seats})")
        if len(items) != n_seats:
            raise RecordFormatError(
                f"result.{key}: expected one entry per seat ({n_seats}), got {len(items)}"
            )
        return items

    totals = tuple(
        read_int(v, f"result.totals[{i}]", 0, None, "a running total >= 0")
        for i, v in enumerate(per_seat("totals"))
    )
    shut = tuple(
        None
        if v is None
        else read_int(v, f"result.shut[{i}]", 1, None, "null or a throw count >= 1")
        for i, v in enumerate(per_seat("shut"))
    )
    places = tuple(
        read_int(v, f"result.places[{i}]", 1, n_seats, f"a place 1-{n_seats}")
        for i, v in enumerate(per_seat("places"))
    )
    raw_winners = read_list(d["winners"], "result.winners", "a list of seat numbers")
    winners = tuple(
        read_seat(v, f"result.winners[{i}]", n_seats) for i, v in enumerate(raw_winners)
    )
    if any(a >= b for a, b in pairwise(winners)):
        raise RecordFormatError(
            f"result.winners: expected distinct seats in ascending order, got {list(winners)}"
        )
    return Result(
        rounds=read_int(d["rounds"], "result.rounds", 1, None, "a round count >= 1"),
        totals=totals,
        shut=shut,
        places=places,
        winners=winners,
    )
