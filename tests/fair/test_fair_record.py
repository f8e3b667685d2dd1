"""jackpot-record/1 and /2: exact round trips and a clear refusal for every malformed field."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from jackpot.engine.tiles import Variant
from jackpot.fair import (
    OutEntry,
    Record,
    RecordFormatError,
    RecordResult,
    SeatEntry,
    ThrowEntry,
    parse_record,
)
from jackpot.strategy.strength import Strength

SEED = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
COMMIT = "7b3d979ca8330a94fa7e9e1b466d8b99e0bcdea1ec90596c0dcc8d7ef6b4300c"


def sample() -> dict[str, Any]:
    return {
        "format": "jackpot-record/1",
        "id": "m_8c1f",
        "variant": "jackpot",
        "deadline_seconds": 86400,
        "created": "2026-11-30T10:00:00Z",
        "seats": [{"name": "ana", "bot": None}, {"name": "Bot", "bot": "best"}],
        "commitment": COMMIT,
        "server_seed": SEED,
        "client_seed": "3fa94c1de2b07a55",
        "events": [
            {"type": "throw", "n": 0, "seat": 0, "dice": [3, 4], "cover": [7]},
            {"type": "throw", "n": 1, "seat": 0, "dice": [6, 6], "cover": []},
            {"type": "throw", "n": 2, "seat": 1, "dice": [1, 2], "cover": None},
            {"type": "out", "seat": 1, "reason": "resigned"},
        ],
        "result": {
            "rounds": 5,
            "totals": [31, 44],
            "shut": [9, None],
            "places": [1, 2],
            "winners": [0],
        },
    }


def test_parse_builds_typed_values() -> None:
    r = parse_record(sample())
    assert r.variant is Variant.JACKPOT
    assert r.seats == (SeatEntry("ana", None), SeatEntry("Bot", Strength.BEST))
    assert r.events[0] == ThrowEntry(0, 0, (3, 4), (7,))
    assert r.events[1] == ThrowEntry(1, 0, (6, 6), ())
    assert r.events[2] == ThrowEntry(2, 1, (1, 2), None)
    assert r.events[3] == OutEntry(1, "resigned")
    assert r.result == RecordResult(5, (31, 44), (9, None), (1, 2), (0,))
    assert len(r.throws) == 3


def test_dict_round_trip_is_exact_key_order_included() -> None:
    d = sample()
    out = parse_record(d).to_dict()
    assert out == d
    assert json.dumps(out) == json.dumps(d)


def test_json_round_trip_is_exact() -> None:
    r = parse_record(sample())
    text = r.to_json()
    assert parse_record(text) == r
    assert parse_record(text).to_json() == text
    assert json.loads(text) == sample()


def test_json_puts_one_event_per_line() -> None:
    lines = parse_record(sample()).to_json().splitlines()
    assert '    {"type": "out", "seat": 1, "reason": "resigned"}' in lines


def test_in_progress_record_round_trips() -> None:
    d = sample()
    d["server_seed"] = None
    d["result"] = None
    d["events"] = []
    r = parse_record(d)
    assert r.server_seed is None and r.result is None and r.events == ()
    assert r.to_dict() == d
    assert parse_record(r.to_json()) == r


def test_bytes_are_accepted() -> None:
    assert parse_record(json.dumps(sample()).encode()) == parse_record(sample())


def test_classic_one_die_and_solo() -> None:
    d = sample()
    d["variant"] = "classic"
    d["seats"] = [{"name": "solo", "bot": None}]
    d["events"] = [{"type": "throw", "n": 0, "seat": 0, "dice": [4], "cover": [1, 3]}]
    d["result"] = {"rounds": 1, "totals": [0], "shut": [1], "places": [1], "winners": [0]}
    r = parse_record(d)
    assert r.variant is Variant.CLASSIC and r.events[0] == ThrowEntry(0, 0, (4,), (1, 3))
    assert r.to_dict() == d


def test_records_are_frozen() -> None:
    r = parse_record(sample())
    with pytest.raises(AttributeError):
        r.id = "other"  # type: ignore[misc]


def _set(d: dict[str, Any], path: str, value: Any) -> None:
    keys: list[Any] = [int(k) if k.isdigit() else k for k in path.split("/")]
    target: Any = d
    for k in keys[:-1]:
        target = target[k]
    if value is _DELETE:
        del target[keys[-1]]
    else:
        target[keys[-1]] = value


_DELETE = object()

MALFORMED = [
    (
        "format",
        "jackpot-record/5",
        "format: expected 'jackpot-record/1', 'jackpot-record/2', 'jackpot-record/3' or "
        "'jackpot-record/4'",
    ),
    ("format", "jackpot-record/3", "record: missing field 'joined'"),
    ("format", "jackpot-record/2", "record: missing field 'joined'"),
    ("joined", [1, 0], "record: unknown field 'joined'"),
    ("format", _DELETE, "record: missing field 'format'"),
    ("id", "", "id: expected non-empty text"),
    ("id", 7, "id: expected non-empty text, got the number 7"),
    ("variant", "pub", 'variant: expected "jackpot" or "classic"'),
    ("variant", None, "variant: expected"),
    ("deadline_seconds", 0, "deadline_seconds: expected a whole number of seconds from 1"),
    ("deadline_seconds", 604801, "deadline_seconds: expected"),
    ("deadline_seconds", 600.0, "deadline_seconds: expected"),
    ("deadline_seconds", True, "deadline_seconds: expected .*, got true"),
    ("created", "yesterday", "created: expected an ISO 8601 time"),
    ("created", "2026-11-30T10:00:00", "created: expected an ISO 8601 time with its zone"),
    ("created", 0, "created: expected"),
    ("seats", [], "seats: expected 1 to 4 seats, got 0"),
    ("seats", [{"name": "a", "bot": None}] * 5, "seats: expected 1 to 4 seats, got 5"),
    ("seats", {"name": "a"}, "seats: expected a list"),
    ("seats/0/name", "", r"seats\[0\].name: expected non-empty text"),
    ("seats/1/bot", "strong", r"seats\[1\].bot: expected null \(a person\) or"),
    ("seats/1/bot", True, r"seats\[1\].bot: expected"),
    ("seats/1/colour", "red", r"seats\[1\]: unknown field 'colour'"),
    ("seats/0/bot", _DELETE, r"seats\[0\]: missing field 'bot'"),
    ("commitment", COMMIT.upper(), "commitment: expected 64 lowercase hex"),
    ("commitment", None, "commitment: expected 64 lowercase hex"),
    ("server_seed", SEED[:10], "server_seed: expected 64 lowercase hex"),
    ("client_seed", None, "client_seed: expected text, got null"),
    ("client_seed", 12, "client_seed: expected text"),
    ("events", {}, "events: expected a list of events"),
    ("events/0", [1], r"events\[0\]: expected an object, got a list"),
    ("events/0/type", "cover", r'events\[0\].type: expected "throw" or "out"'),
    ("events/0/type", _DELETE, r"events\[0\].type: expected .*, got null"),
    ("events/0/n", -1, r"events\[0\].n: expected a throw number >= 0"),
    ("events/0/n", "0", r"events\[0\].n: expected a throw number"),
    ("events/0/n", False, r"events\[0\].n: expected .*, got false"),
    ("events/0/seat", 2, r"events\[0\].seat: expected a seat number 0-1, got the number 2"),
    ("events/0/seat", True, r"events\[0\].seat: expected a seat number"),
    ("events/0/dice", [], r"events\[0\].dice: expected a list of 1 or 2 dice 1-6"),
    ("events/0/dice", [1, 2, 3], r"events\[0\].dice: expected a list of 1 or 2 dice 1-6"),
    ("events/0/dice", [0, 2], r"events\[0\].dice: expected a list of 1 or 2 dice 1-6, got 0"),
    ("events/0/dice", [7, 2], r"events\[0\].dice: expected .*, got 7"),
    ("events/0/dice", [True, 2], r"events\[0\].dice: expected .*, got True"),
    ("events/0/dice", [2.0, 2], r"events\[0\].dice: expected"),
    ("events/0/dice", "34", r"events\[0\].dice: expected"),
    ("events/0/cover", [10], r"events\[0\].cover: expected null or a list of distinct tiles"),
    ("events/0/cover", [0], r"events\[0\].cover: expected"),
    ("events/0/cover", [4, 3], r"events\[0\].cover: .*ascending order, got \[4, 3\]"),
    ("events/0/cover", [3, 3], r"events\[0\].cover: expected"),
    ("events/0/cover", 7, r"events\[0\].cover: expected"),
    ("events/0/cover", _DELETE, r"events\[0\]: missing field 'cover'"),
    ("events/0/extra", 1, r"events\[0\]: unknown field 'extra'"),
    ("events/3/reason", "quit", r'events\[3\].reason: expected "resigned" or "timeout"'),
    ("events/3/seat", -1, r"events\[3\].seat: expected a seat number 0-1"),
    ("result", [], "result: expected an object"),
    ("result/rounds", 0, "result.rounds: expected a round count >= 1"),
    ("result/rounds", 1.5, "result.rounds: expected"),
    ("result/totals", [1], r"result.totals: expected one entry per seat \(2\), got 1"),
    ("result/totals/0", -1, r"result.totals\[0\]: expected a running total >= 0"),
    ("result/totals/0", None, r"result.totals\[0\]: expected"),
    ("result/shut/0", 0, r"result.shut\[0\]: expected null or a throw count >= 1"),
    ("result/shut/1", False, r"result.shut\[1\]: expected"),
    ("result/places/0", 3, r"result.places\[0\]: expected a place 1-2"),
    ("result/places/0", 0, r"result.places\[0\]: expected a place 1-2"),
    ("result/winners", [1, 0], "result.winners: expected distinct seats in ascending order"),
    ("result/winners", [0, 0], "result.winners: expected distinct seats"),
    ("result/winners/0", 5, r"result.winners\[0\]: expected a seat number 0-1"),
    ("result/winners", None, "result.winners: expected a list"),
    ("result/extra", 1, "result: unknown field 'extra'"),
    ("result/places", _DELETE, "result: missing field 'places'"),
    ("extra", 1, "record: unknown field 'extra'"),
]


@pytest.mark.parametrize(("path", "value", "message"), MALFORMED)
def test_malformed_field_is_named(path: str, value: Any, message: str) -> None:
    d = copy.deepcopy(sample())
    _set(d, path, value)
    with pytest.raises(RecordFormatError, match=message):
        parse_record(d)


@pytest.mark.parametrize("value", [None, [], "text", 3])
def test_record_must_be_an_object(value: Any) -> None:
    with pytest.raises(RecordFormatError, match="record: expected an object"):
        parse_record(json.dumps(value))


def test_not_json_says_so() -> None:
    with pytest.raises(RecordFormatError, match="not JSON"):
        parse_record("{nope")


def test_format_error_is_a_value_error() -> None:
    assert issubclass(RecordFormatError, ValueError)


def test_constructed_record_serialises_like_the_parsed_one() -> None:
    r = Record(
        id="m_8c1f",
        variant=Variant.JACKPOT,
        deadline_seconds=86400,
        created="2026-11-30T10:00:00Z",
        seats=(SeatEntry("ana"), SeatEntry("Bot", Strength.BEST)),
        commitment=COMMIT,
        server_seed=SEED,
        client_seed="3fa94c1de2b07a55",
        events=(
            ThrowEntry(0, 0, (3, 4), (7,)),
            ThrowEntry(1, 0, (6, 6), ()),
            ThrowEntry(2, 1, (1, 2), None),
            OutEntry(1, "resigned"),
        ),
        result=RecordResult(5, (31, 44), (9, None), (1, 2), (0,)),
    )
    assert r.to_dict() == sample()
    assert parse_record(sample()) == r


def sample_v2() -> dict[str, Any]:
    """The sample as /2: the draw put the bot (joining index 1) first."""
    d = sample()
    seats = d.pop("seats")
    v2: dict[str, Any] = {}
    for key, value in d.items():
        v2[key] = value
        if key == "created":
            v2["seats"] = seats[::-1]
            v2["joined"] = [1, 0]
    v2["format"] = "jackpot-record/2"
    return v2


def test_v2_round_trips_with_joined_after_the_seats() -> None:
    d = sample_v2()
    r = parse_record(d)
    assert r.format == "jackpot-record/2" and r.joined == (1, 0)
    assert r.seats == (SeatEntry("Bot", Strength.BEST), SeatEntry("ana", None))
    assert list(r.to_dict()) == list(d)
    assert r.to_dict() == d
    text = r.to_json()
    assert '  "joined": [1, 0],' in text.splitlines()
    assert parse_record(text) == r and json.loads(text) == d


def test_v1_has_no_joined() -> None:
    r = parse_record(sample())
    assert r.format == "jackpot-record/1" and r.joined is None
    assert "joined" not in r.to_dict()


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, r"joined: expected each joining index 0-1 once, one per seat \(2\), got null"),
        ([0], r"joined: expected .*, got \[0\]"),
        ([0, 0], r"joined: expected .*, got \[0, 0\]"),
        ([0, 2], r"joined: expected .*, got \[0, 2\]"),
        ([0, 1, 2], r"joined: expected .*, got \[0, 1, 2\]"),
        ([True, 0], r"joined: expected .*, got true in it"),
        ([1.0, 0], r"joined: expected .*, got the number 1.0 in it"),
    ],
)
def test_malformed_joined_is_named(value: Any, message: str) -> None:
    d = sample_v2()
    d["joined"] = value
    with pytest.raises(RecordFormatError, match=message):
        parse_record(d)
