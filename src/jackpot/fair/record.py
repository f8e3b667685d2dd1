"""``jackpot-record/1``, ``/2`` and ``/3``: one JSON document per match or daily entry.

Read strictly, written canonically. The record is the verifier's only input, so parsing
is deliberately unforgiving: a field of the wrong type, a bool where a number belongs,
an unknown key or a tile out of range is refused with a message naming the field,
instead of being coerced into something the match never contained. Whether the record
is *true* (dice, covers, result) is ``verify``'s business; this module only says
whether it is well-formed.

``/2`` is ``/1`` plus ``joined``: the seats are listed in the order of play drawn from
the seed, and ``joined[p]`` is the joining index of the seat that plays p-th, so a
verifier can redo the draw. ``/3`` is ``/2`` played by the rules of ``/3`` (Classic's
shared place after a shut box), and is also the format of a daily entry, which adds
``"daily"``. Each format is verified by its own rules, so old records still read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from typing import Any, TypeAlias

from jackpot.engine.daily import DailyResult
from jackpot.engine.match import RULES, RULES_BEFORE_SHARED_PLACE
from jackpot.engine.result import Result
from jackpot.engine.tiles import Variant
from jackpot.fair.daily import DailyDeal, read_daily_deal, read_daily_result
from jackpot.fair.entries import (
    HIDDEN,
    MAX_SEATS,
    OUT_REASONS,
    LastRoundEntry,
    OutEntry,
    OutReason,
    RecordEvent,
    SeatEntry,
    ThrowEntry,
    read_event,
    read_seat,
    read_seats,
)
from jackpot.fair.fields import (
    RecordFormatError,
    kind_of,
    read_hex64,
    read_int,
    read_list,
    read_object,
    read_string,
    read_text,
    refusal,
)

#: The seats' and events' values (entries.py) are part of what a record is made of.
__all__ = [
    "FORMATS",
    "FORMAT_V1",
    "FORMAT_V2",
    "FORMAT_V3",
    "HIDDEN",
    "MAX_SEATS",
    "OUT_REASONS",
    "LastRoundEntry",
    "OutEntry",
    "OutReason",
    "Record",
    "RecordEvent",
    "RecordFormatError",
    "RecordResult",
    "SeatEntry",
    "ThrowEntry",
    "parse_record",
    "record_format",
]

FORMAT_V1 = "jackpot-record/1"
FORMAT_V2 = "jackpot-record/2"
FORMAT_V3 = "jackpot-record/3"
FORMATS = (FORMAT_V1, FORMAT_V2, FORMAT_V3)
#: The site offers 60 s to 7 days; a test or demo server may lower the minimum
#: (JACKPOT_MIN_DEADLINE_SECONDS), and its records must still be readable.
DEADLINE_MIN = 1
DEADLINE_MAX = 7 * 24 * 3600
_TOP_KEYS = (
    "format",
    "id",
    "variant",
    "deadline_seconds",
    "created",
    "seats",
    "commitment",
    "server_seed",
    "client_seed",
    "events",
    "result",
)
#: /2 adds ``joined`` right after the seats it describes.
_TOP_KEYS_V2 = (*_TOP_KEYS[:6], "joined", *_TOP_KEYS[6:])
#: A daily entry (/3) adds ``daily`` right after the variant it is a deal of.
_TOP_KEYS_DAILY = (*_TOP_KEYS_V2[:3], "daily", *_TOP_KEYS_V2[3:])
_RESULT_KEYS = ("rounds", "totals", "shut", "places", "winners")


def record_format(rules: int, *, drawn: bool) -> str:
    """The format a match's record is written in: ``/3`` for a match played by the
    rules of /3 (``Match.rules``), else ``/2`` once the order of play was drawn, else ``/1``."""
    if rules >= RULES:
        return FORMAT_V3
    return FORMAT_V2 if drawn else FORMAT_V1


#: The record's ``result`` is exactly the engine's Result (same fields, same JSON).
RecordResult: TypeAlias = Result


@dataclass(frozen=True, slots=True)
class Record:
    id: str
    variant: Variant
    #: None for a daily entry, which has no deadline per throw.
    deadline_seconds: int | None
    created: str
    seats: tuple[SeatEntry, ...]
    commitment: str
    server_seed: str | None
    client_seed: str
    events: tuple[RecordEvent, ...]
    #: A daily entry's is a DailyResult.
    result: RecordResult | DailyResult | None = None
    #: ``/2`` and ``/3``: for each seat in the order of play, its joining index (None: ``/1``).
    joined: tuple[int, ...] | None = None
    #: The rules played, as ``Match.rules``: RULES makes a ``/3`` record.
    rules: int = RULES_BEFORE_SHARED_PLACE
    #: A daily entry's deal (a ``/3`` record); None for a match.
    daily: DailyDeal | None = None

    @property
    def format(self) -> str:
        if self.daily is not None:
            return FORMAT_V3
        return record_format(self.rules, drawn=self.joined is not None)

    @property
    def throws(self) -> tuple[ThrowEntry, ...]:
        return tuple(e for e in self.events if isinstance(e, ThrowEntry))

    def to_dict(self) -> dict[str, Any]:
        """The JSON object, keys in the order docs/fair-play.md lists them."""
        head: dict[str, Any] = {"format": self.format, "id": self.id, "variant": str(self.variant)}
        if self.daily is not None:
            head["daily"] = self.daily.to_dict()
        head |= {
            "deadline_seconds": self.deadline_seconds,
            "created": self.created,
            "seats": [s.to_dict() for s in self.seats],
        }
        if self.joined is not None:
            head["joined"] = list(self.joined)
        return head | {
            "commitment": self.commitment,
            "server_seed": self.server_seed,
            "client_seed": self.client_seed,
            "events": [e.to_dict() for e in self.events],
            "result": None if self.result is None else self.result.to_dict(),
        }

    def to_json(self) -> str:
        """Canonical text: one line per top-level field, seat and event.

        Line-per-event keeps a long match readable and makes two records diff well,
        while staying plain JSON that any parser reads.
        """
        d = self.to_dict()
        lines = []
        for key in d:
            value = d[key]
            if key in ("seats", "events") and value:
                items = ",\n".join("    " + _dump(item) for item in value)
                text = f"[\n{items}\n  ]"
            else:
                text = _dump(value)
            lines.append(f"  {_dump(key)}: {text}")
        return "{\n" + ",\n".join(lines) + "\n}\n"


def _dump(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


# ---------------------------------------------------------------- parsing


def parse_record(source: str | bytes | Mapping[str, Any]) -> Record:
    """Read a record from JSON text or an already-decoded object, or say what is wrong."""
    if isinstance(source, str | bytes):
        try:
            obj = json.loads(source)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RecordFormatError(f"not JSON: {exc}") from None
    else:
        obj = source
    if isinstance(obj, Mapping) and "format" in obj and obj["format"] not in FORMATS:
        # Checked first: a different format explains every other difference at once.
        named = ", ".join(map(repr, FORMATS[:-1])) + f" or {FORMATS[-1]!r}"
        raise refusal("format", named, obj["format"])
    has_format = isinstance(obj, Mapping) and "format" in obj
    version = FORMATS.index(obj["format"]) + 1 if has_format else 1
    is_daily = version == 3 and "daily" in obj
    keys = _TOP_KEYS_DAILY if is_daily else _TOP_KEYS_V2 if version >= 2 else _TOP_KEYS
    d = read_object(obj, "record", keys)
    server_seed = d["server_seed"]
    if server_seed is not None:
        server_seed = read_hex64(server_seed, "server_seed")
    seats = read_seats(d["seats"], hidden_allowed=server_seed is None)
    n_seats = len(seats)
    daily = read_daily_deal(d["daily"]) if is_daily else None
    if daily is not None:
        _check_daily_shape(d, seats)
    result: RecordResult | DailyResult | None = None
    if d["result"] is not None:
        result = (
            _result(d["result"], n_seats)
            if daily is None
            else read_daily_result(d["result"], daily.turns)
        )
    return Record(
        id=read_text(d["id"], "id"),
        variant=_variant(d["variant"]),
        deadline_seconds=None if daily is not None else _deadline(d["deadline_seconds"]),
        created=_timestamp(d["created"]),
        seats=seats,
        commitment=read_hex64(d["commitment"], "commitment"),
        server_seed=server_seed,
        client_seed=read_string(d["client_seed"], "client_seed"),
        events=tuple(
            read_event(e, f"events[{i}]", n_seats, last_round=version == 3 and daily is None)
            for i, e in enumerate(read_list(d["events"], "events", "a list of events"))
        ),
        result=result,
        joined=_joined(d["joined"], n_seats) if version >= 2 else None,
        rules=RULES if version == 3 else RULES_BEFORE_SHARED_PLACE,
        daily=daily,
    )


def _check_daily_shape(d: dict[str, Any], seats: tuple[SeatEntry, ...]) -> None:
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


def _variant(value: object) -> Variant:
    if value not in ("jackpot", "classic") or not isinstance(value, str):
        raise refusal("variant", '"jackpot" or "classic"', value)
    return Variant(value)


def _deadline(value: object) -> int:
    return read_int(
        value,
        "deadline_seconds",
        DEADLINE_MIN,
        DEADLINE_MAX,
        f"a whole number of seconds from {DEADLINE_MIN} to {DEADLINE_MAX}",
    )


def _timestamp(value: object) -> str:
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


def _joined(value: object, n_seats: int) -> tuple[int, ...]:
    expected = f"each joining index 0-{n_seats - 1} once, one per seat ({n_seats})"
    items = read_list(value, "joined", expected)
    for index in items:
        if isinstance(index, bool) or not isinstance(index, int):
            raise RecordFormatError(f"joined: expected {expected}, got {kind_of(index)} in it")
    if sorted(items) != list(range(n_seats)):
        raise RecordFormatError(f"joined: expected {expected}, got {items!r}")
    return tuple(items)


def _result(value: object, n_seats: int) -> RecordResult:
    d = read_object(value, "result", _RESULT_KEYS)

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
    return RecordResult(
        rounds=read_int(d["rounds"], "result.rounds", 1, None, "a round count >= 1"),
        totals=totals,
        shut=shut,
        places=places,
        winners=winners,
    )
