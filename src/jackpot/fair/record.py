"""``jackpot-record/1`` and ``/2``: one JSON document per match, read strictly, written canonically.

The record is the verifier's only input, so parsing is deliberately unforgiving: a
field of the wrong type, a bool where a number belongs, an unknown key or a tile out of
range is refused with a message naming the field, instead of being coerced into
something the match never contained. Whether the record is *true* (dice, covers,
result) is ``verify``'s business; this module only says whether it is well-formed.

``/2`` is ``/1`` plus ``joined``: the seats are listed in the order of play drawn from
the seed, and ``joined[p]`` is the joining index of the seat that plays p-th, so a
verifier can redo the draw. Records written before the draw stay ``/1`` and still read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from typing import Any, Literal, TypeAlias, cast

from jackpot.engine.result import Result
from jackpot.engine.tiles import Variant
from jackpot.strategy.strength import Strength

FORMAT_V1 = "jackpot-record/1"
FORMAT_V2 = "jackpot-record/2"
FORMATS = (FORMAT_V1, FORMAT_V2)
#: The site offers 60 s to 7 days; a test or demo server may lower the minimum
#: (JACKPOT_MIN_DEADLINE_SECONDS), and its records must still be readable.
DEADLINE_MIN = 1
DEADLINE_MAX = 7 * 24 * 3600
MAX_SEATS = 4

OutReason: TypeAlias = Literal["resigned", "timeout"]
OUT_REASONS: tuple[OutReason, ...] = ("resigned", "timeout")

_HEX64 = re.compile(r"[0-9a-f]{64}")
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
_RESULT_KEYS = ("rounds", "totals", "shut", "places", "winners")


class RecordFormatError(ValueError):
    """The document is not a well-formed record; the message names the field."""


@dataclass(frozen=True, slots=True)
class SeatEntry:
    name: str
    bot: Strength | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "bot": None if self.bot is None else str(self.bot)}


@dataclass(frozen=True, slots=True)
class ThrowEntry:
    """A throw and the cover chosen for it.

    ``cover`` is ``()`` for a dead throw (nothing on offer: the turn ended) and
    ``None`` when the seat went out, or the match ended, before a cover was chosen.
    """

    n: int
    seat: int
    dice: tuple[int, ...]
    cover: tuple[int, ...] | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "throw",
            "n": self.n,
            "seat": self.seat,
            "dice": list(self.dice),
            "cover": None if self.cover is None else list(self.cover),
        }


@dataclass(frozen=True, slots=True)
class OutEntry:
    seat: int
    reason: OutReason

    def to_dict(self) -> dict[str, Any]:
        return {"type": "out", "seat": self.seat, "reason": self.reason}


RecordEvent: TypeAlias = ThrowEntry | OutEntry


#: The record's ``result`` is exactly the engine's Result (same fields, same JSON).
RecordResult: TypeAlias = Result


@dataclass(frozen=True, slots=True)
class Record:
    id: str
    variant: Variant
    deadline_seconds: int
    created: str
    seats: tuple[SeatEntry, ...]
    commitment: str
    server_seed: str | None
    client_seed: str
    events: tuple[RecordEvent, ...]
    result: RecordResult | None = None
    #: ``/2`` only: for each seat in the order of play, its joining index (None: ``/1``).
    joined: tuple[int, ...] | None = None

    @property
    def format(self) -> str:
        return FORMAT_V1 if self.joined is None else FORMAT_V2

    @property
    def throws(self) -> tuple[ThrowEntry, ...]:
        return tuple(e for e in self.events if isinstance(e, ThrowEntry))

    def to_dict(self) -> dict[str, Any]:
        """The JSON object, keys in the order docs/fair-play.md lists them."""
        head: dict[str, Any] = {
            "format": self.format,
            "id": self.id,
            "variant": str(self.variant),
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
        raise _fail("format", f"{FORMAT_V1!r} or {FORMAT_V2!r}", obj["format"])
    v2 = isinstance(obj, Mapping) and obj.get("format") == FORMAT_V2
    d = _object(obj, "record", _TOP_KEYS_V2 if v2 else _TOP_KEYS)
    seats = _seats(d["seats"])
    n_seats = len(seats)
    server_seed = d["server_seed"]
    if server_seed is not None:
        server_seed = _hex64(server_seed, "server_seed")
    return Record(
        id=_text(d["id"], "id"),
        variant=_variant(d["variant"]),
        deadline_seconds=_deadline(d["deadline_seconds"]),
        created=_timestamp(d["created"]),
        seats=seats,
        commitment=_hex64(d["commitment"], "commitment"),
        server_seed=server_seed,
        client_seed=_string(d["client_seed"], "client_seed"),
        events=tuple(
            _event(e, f"events[{i}]", n_seats)
            for i, e in enumerate(_list(d["events"], "events", "a list of events"))
        ),
        result=None if d["result"] is None else _result(d["result"], n_seats),
        joined=_joined(d["joined"], n_seats) if v2 else None,
    )


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the text {value!r}" if len(value) <= 40 else "a long text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _fail(where: str, expected: str, value: object) -> RecordFormatError:
    return RecordFormatError(f"{where}: expected {expected}, got {_kind(value)}")


def _object(value: object, where: str, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(where, "an object", value)
    obj = cast(Mapping[str, Any], value)
    missing = [k for k in keys if k not in obj]
    if missing:
        raise RecordFormatError(f"{where}: missing field {missing[0]!r}")
    extra = [k for k in obj if k not in keys]
    if extra:
        raise RecordFormatError(f"{where}: unknown field {extra[0]!r}")
    return dict(obj)


def _list(value: object, where: str, expected: str) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(where, expected, value)
    return value


def _int(value: object, where: str, lo: int, hi: int | None, expected: str) -> int:
    # bool is a subclass of int in Python; JSON true must never pass for 1.
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(where, expected, value)
    if value < lo or (hi is not None and value > hi):
        raise _fail(where, expected, value)
    return value


def _string(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise _fail(where, "text", value)
    return value


def _text(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(where, "non-empty text", value)
    return value


def _hex64(value: object, where: str) -> str:
    if not isinstance(value, str) or not _HEX64.fullmatch(value):
        raise _fail(where, "64 lowercase hex characters", value)
    return value


def _variant(value: object) -> Variant:
    if value not in ("jackpot", "classic") or not isinstance(value, str):
        raise _fail("variant", '"jackpot" or "classic"', value)
    return Variant(value)


def _deadline(value: object) -> int:
    return _int(
        value,
        "deadline_seconds",
        DEADLINE_MIN,
        DEADLINE_MAX,
        f"a whole number of seconds from {DEADLINE_MIN} to {DEADLINE_MAX}",
    )


def _timestamp(value: object) -> str:
    expected = 'an ISO 8601 time with its zone, like "2026-11-30T10:00:00Z"'
    if not isinstance(value, str):
        raise _fail("created", expected, value)
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        raise _fail("created", expected, value) from None
    if when.tzinfo is None or "T" not in value:
        raise _fail("created", expected, value)
    return value


def _strength(value: object, where: str) -> Strength | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in {s.value for s in Strength}:
        raise _fail(where, 'null (a person) or "lowest", "highest" or "best"', value)
    return Strength(value)


def _seats(value: object) -> tuple[SeatEntry, ...]:
    seats = _list(value, "seats", f"a list of 1 to {MAX_SEATS} seats")
    if not 1 <= len(seats) <= MAX_SEATS:
        raise RecordFormatError(f"seats: expected 1 to {MAX_SEATS} seats, got {len(seats)}")
    out = []
    for i, raw in enumerate(seats):
        d = _object(raw, f"seats[{i}]", ("name", "bot"))
        name = _text(d["name"], f"seats[{i}].name")
        out.append(SeatEntry(name, _strength(d["bot"], f"seats[{i}].bot")))
    return tuple(out)


def _joined(value: object, n_seats: int) -> tuple[int, ...]:
    expected = f"each joining index 0-{n_seats - 1} once, one per seat ({n_seats})"
    items = _list(value, "joined", expected)
    for index in items:
        if isinstance(index, bool) or not isinstance(index, int):
            raise RecordFormatError(f"joined: expected {expected}, got {_kind(index)} in it")
    if sorted(items) != list(range(n_seats)):
        raise RecordFormatError(f"joined: expected {expected}, got {items!r}")
    return tuple(items)


def _seat(value: object, where: str, n_seats: int) -> int:
    return _int(value, where, 0, n_seats - 1, f"a seat number 0-{n_seats - 1}")


def _event(value: object, where: str, n_seats: int) -> RecordEvent:
    if not isinstance(value, Mapping):
        raise _fail(where, "an object", value)
    kind = cast(Mapping[str, Any], value).get("type")
    if kind == "throw":
        d = _object(value, where, ("type", "n", "seat", "dice", "cover"))
        return ThrowEntry(
            n=_int(d["n"], f"{where}.n", 0, None, "a throw number >= 0"),
            seat=_seat(d["seat"], f"{where}.seat", n_seats),
            dice=_dice(d["dice"], f"{where}.dice"),
            cover=None if d["cover"] is None else _cover(d["cover"], f"{where}.cover"),
        )
    if kind == "out":
        d = _object(value, where, ("type", "seat", "reason"))
        reason = d["reason"]
        if reason not in OUT_REASONS or not isinstance(reason, str):
            raise _fail(f"{where}.reason", '"resigned" or "timeout"', reason)
        seat = _seat(d["seat"], f"{where}.seat", n_seats)
        return OutEntry(seat=seat, reason=cast(OutReason, reason))
    raise _fail(f"{where}.type", '"throw" or "out"', kind)


def _dice(value: object, where: str) -> tuple[int, ...]:
    expected = "a list of 1 or 2 dice 1-6"
    if not isinstance(value, list) or not 1 <= len(value) <= 2:
        raise _fail(where, expected, value)
    for die in value:
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            raise RecordFormatError(f"{where}: expected {expected}, got {die!r} in it")
    return tuple(value)


def _cover(value: object, where: str) -> tuple[int, ...]:
    expected = "null or a list of distinct tiles 1-9 in ascending order"
    if not isinstance(value, list):
        raise _fail(where, expected, value)
    for tile in value:
        if isinstance(tile, bool) or not isinstance(tile, int) or not 1 <= tile <= 9:
            raise RecordFormatError(f"{where}: expected {expected}, got {tile!r} in it")
    if any(a >= b for a, b in pairwise(value)):
        raise RecordFormatError(f"{where}: expected {expected}, got {value!r}")
    return tuple(value)


def _result(value: object, n_seats: int) -> RecordResult:
    d = _object(value, "result", _RESULT_KEYS)

    def per_seat(key: str) -> list[Any]:
        items = _list(d[key], f"result.{key}", f"a list with one entry per seat ({n_seats})")
        if len(items) != n_seats:
            raise RecordFormatError(
                f"result.{key}: expected one entry per seat ({n_seats}), got {len(items)}"
            )
        return items

    totals = tuple(
        _int(v, f"result.totals[{i}]", 0, None, "a running total >= 0")
        for i, v in enumerate(per_seat("totals"))
    )
    shut = tuple(
        None if v is None else _int(v, f"result.shut[{i}]", 1, None, "null or a throw count >= 1")
        for i, v in enumerate(per_seat("shut"))
    )
    places = tuple(
        _int(v, f"result.places[{i}]", 1, n_seats, f"a place 1-{n_seats}")
        for i, v in enumerate(per_seat("places"))
    )
    raw_winners = _list(d["winners"], "result.winners", "a list of seat numbers")
    winners = tuple(_seat(v, f"result.winners[{i}]", n_seats) for i, v in enumerate(raw_winners))
    if any(a >= b for a, b in pairwise(winners)):
        raise RecordFormatError(
            f"result.winners: expected distinct seats in ascending order, got {list(winners)}"
        )
    return RecordResult(
        rounds=_int(d["rounds"], "result.rounds", 1, None, "a round count >= 1"),
        totals=totals,
        shut=shut,
        places=places,
        winners=winners,
    )
