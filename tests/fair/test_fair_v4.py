"""jackpot-record/4 (spares, a daily entry by position, what /4 adds only where it applies)
and the keys every format may carry: the match's origin and the server-made client seed."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Any

import pytest
from fair_dailygen import DailyPlan, daily_plans, play_daily
from fair_matchgen import Plan, Played, play
from hypothesis import HealthCheck, given, settings

from jackpot.engine import RULES, RULES_BEFORE_SHARED_PLACE, Match, Result, Variant
from jackpot.fair import (
    Origin,
    OutEntry,
    Record,
    RecordEvent,
    RecordFormatError,
    SeatEntry,
    SpareEntry,
    daily_client_seed,
    dice_due,
    parse_record,
    position_dice,
    position_label,
    record_format,
    verify,
)
from jackpot.fair.par import daily_par
from jackpot.fair.recorder import append_events

SEED = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"


def spares_match(play_seed: int = 3, spares: int = 2, rate: float = 0.3) -> Played:
    return play(
        Plan(
            variant=Variant.CLASSIC,
            bots=(False, False, True),
            server_seed=SEED,
            client_parts=("ana", "ben"),
            play_seed=play_seed,
            leave_rate=0.0,
            drawn=True,
            rules=RULES,
            spares=spares,
            deadline_rate=rate,
        )
    )


@pytest.fixture(scope="module")
def with_timeout() -> Played:
    """A match with spares in which a seat used them all and then went out by timeout."""
    for seed in range(200):
        played = spares_match(seed)
        if any(isinstance(e, OutEntry) and e.reason == "timeout" for e in played.record.events):
            return played
    raise AssertionError("no seed of 200 timed a seat out")


# -- the record's form --------------------------------------------------------------


def test_a_record_with_spares_is_a_v4_and_reads_back(with_timeout: Played) -> None:
    record = with_timeout.record
    assert record.format == "jackpot-record/4" and record.spares == 2
    d = record.to_dict()
    assert d["spares"] == 2
    assert list(d).index("spares") == list(d).index("deadline_seconds") + 1
    assert {"type": "spare", "seat": 0} in d["events"] or {"type": "spare", "seat": 1} in d[
        "events"
    ]
    assert parse_record(record.to_json()) == record


def test_record_format_gives_v4_only_for_what_v4_adds() -> None:
    assert record_format(RULES, drawn=True) == "jackpot-record/3"
    assert record_format(RULES, drawn=True, uses_v4=True) == "jackpot-record/4"
    with pytest.raises(ValueError):
        record_format(RULES_BEFORE_SHARED_PLACE, drawn=True, uses_v4=True)


def test_a_v4_that_uses_nothing_of_v4_is_refused(with_timeout: Played) -> None:
    d = with_timeout.record.to_dict()
    d["events"] = [e for e in d["events"] if e["type"] != "spare"]
    del d["spares"]
    with pytest.raises(RecordFormatError, match=r"format: a jackpot-record/4 has parts"):
        parse_record(d)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("spares", 2),
        ("parts", [{"commitment": "0" * 64, "part": None}]),
        ("tournament", {"id": "t", "round": 1, "table": 1}),
    ],
)
@pytest.mark.parametrize("fmt", ["jackpot-record/1", "jackpot-record/2", "jackpot-record/3"])
def test_what_v4_adds_is_refused_in_older_formats(fmt: str, key: str, value: Any) -> None:
    d = spares_match(rate=0.0).record.to_dict()
    del d["spares"]
    d["format"] = fmt
    if fmt == "jackpot-record/1":
        del d["joined"]
    d[key] = value
    message = rf"{key}: a field of jackpot-record/4, not of {fmt}"
    with pytest.raises(RecordFormatError, match=message):
        parse_record(d)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("spares", 0, "spares: expected the spare deadlines of each seat, 1-5"),
        ("spares", 6, "spares: expected the spare deadlines of each seat, 1-5"),
        ("spares", True, "spares: expected"),
        ("tournament", {"id": "t", "round": 1, "table": 1}, "tournament: a tournament table's"),
        ("events", [{"type": "spare", "seat": 5}], r"events\[0\].seat: expected a seat number"),
        ("events", [{"type": "spare"}], r"events\[0\]: missing field 'seat'"),
        ("parts", [], "parts: expected a list of"),
    ],
)
def test_malformed_v4_fields_are_named(path: str, value: Any, message: str) -> None:
    d = spares_match(rate=0.0).record.to_dict()
    d[path] = value
    with pytest.raises(RecordFormatError, match=message):
        parse_record(d)


def test_a_spare_in_a_record_without_spares_is_refused() -> None:
    d = spares_match(rate=0.0).record.to_dict()
    del d["spares"]
    d["format"] = "jackpot-record/3"
    d["events"].insert(0, {"type": "spare", "seat": 0})
    with pytest.raises(RecordFormatError, match=r'events\[0\]: a spare deadline used, but the'):
        parse_record(d)


def test_parts_are_shown_all_together_and_never_before_the_seed() -> None:
    hidden = {"commitment": "a" * 64, "part": None}
    shown = {"commitment": "a" * 64, "part": "b" * 64}
    d = spares_match(rate=0.0).record.to_dict()
    d["parts"] = [hidden, shown]
    with pytest.raises(RecordFormatError, match="parts: 1 of 2 parts are shown"):
        parse_record(d)
    d["parts"] = [shown]
    d["server_seed"] = None
    d["result"] = None
    with pytest.raises(RecordFormatError, match="parts: a part is shown while the server seed"):
        parse_record(d)


# -- spares in the verifier -----------------------------------------------------------


def test_spares_used_and_a_timeout_with_none_left_verify(with_timeout: Played) -> None:
    v = verify(with_timeout.record)
    assert v.ok, v.problem
    sentence = next(c for c in v.checks if c.startswith("spares:"))
    assert sentence.startswith("spares: each seat had 2 spare deadline(s) and used at most that")


def _timed_out(record: Record) -> tuple[int, int]:
    """The index of the record's first timeout, and its seat."""
    k, out = next(
        (k, e)
        for k, e in enumerate(record.events)
        if isinstance(e, OutEntry) and e.reason == "timeout"
    )
    return k, out.seat


def test_a_timeout_with_a_spare_left_is_a_difference(with_timeout: Played) -> None:
    record = with_timeout.record
    _, seat = _timed_out(record)
    first_spare = next(
        k for k, e in enumerate(record.events) if isinstance(e, SpareEntry) and e.seat == seat
    )
    fewer = replace(record, events=record.events[:first_spare] + record.events[first_spare + 1 :])
    timeout, _ = _timed_out(fewer)
    name = record.seats[seat].name
    assert verify(fewer).problem == (
        f"events[{timeout}]: seat {seat} ({name}) went out by timeout with 1 spare "
        "deadline left: a passed deadline uses a spare while the seat has one"
    )


def test_more_spares_than_given_is_a_difference(with_timeout: Played) -> None:
    record = replace(with_timeout.record, spares=1)
    used: dict[int, int] = {}
    for k, e in enumerate(record.events):
        if isinstance(e, SpareEntry):
            used[e.seat] = used.get(e.seat, 0) + 1
            if used[e.seat] == 2:
                name = record.seats[e.seat].name
                assert verify(record).problem == (
                    f"events[{k}]: seat {e.seat} ({name}) used a spare deadline for the "
                    "second time, but the match gives each seat 1"
                )
                return
    raise AssertionError("the seat that timed out used both its spares first")


def test_a_spare_after_going_out_is_a_difference(with_timeout: Played) -> None:
    record = with_timeout.record
    out, seat = _timed_out(record)
    late = replace(
        record, events=(*record.events[: out + 1], SpareEntry(seat), *record.events[out + 1 :])
    )
    name = record.seats[seat].name
    assert verify(late).problem == (
        f"events[{out + 1}]: seat {seat} ({name}) used a spare deadline after going out"
    )


def test_a_spare_while_a_shutting_cover_was_due_is_listed_after_its_throw() -> None:
    """The recorder writes a spare where it happened: after the throw whose cover was
    due. Here that cover shuts the box in Classic and ends the match, so the replay
    meets the spare after the end: the record is still right."""
    m = Match.new(Variant.CLASSIC, 2, spares=1)
    log: list[RecordEvent] = []
    moves = [((6, 3), [9]), ((6, 2), [8]), ((4, 3), [7]), ((6, 5), [5, 6]), ((2, 2), [4])]
    for dice, tiles in moves:
        m, events = m.throw(0, dice)
        append_events(log, events)
        m, events = m.cover(0, tiles)
        append_events(log, events)
    m, events = m.throw(0, (3, 3))
    append_events(log, events)
    m, events = m.deadline_passed(0)
    append_events(log, events)
    m, events = m.cover(0, [1, 2, 3])
    append_events(log, events)
    assert m.finished and log[-1] == SpareEntry(0) and isinstance(m.result, Result)
    record = Record(
        id="m_spare_late",
        variant=Variant.CLASSIC,
        deadline_seconds=3600,
        created="2026-12-01T18:00:00Z",
        seats=(SeatEntry("ana"), SeatEntry("ben")),
        commitment="0" * 64,
        server_seed=None,
        client_seed="ana.ben",
        events=tuple(log),
        result=m.result,
        joined=(0, 1),
        rules=RULES,
        spares=1,
    )
    v = verify(record)
    # Everything but the dice holds (the seed is not published: they wait for it).
    assert v.awaiting_seed, v.problem
    assert "spares: each seat had 1 spare deadline(s) and used at most that (seat 0 (ana) 1" \
        in next(c for c in v.checks if c.startswith("spares:"))


# -- origin and the server-made client seed, in every format --------------------------


@pytest.mark.parametrize("fmt", ["jackpot-record/1", "jackpot-record/2", "jackpot-record/3"])
def test_origin_and_seed_by_are_read_in_every_format(fmt: str) -> None:
    record = spares_match(rate=0.0).record
    d = record.to_dict()
    del d["spares"]
    d["format"] = fmt
    if fmt == "jackpot-record/1":
        # A /1 lists seats in the order they played: this record's, with joined dropped.
        del d["joined"]
    d["events"] = [e for e in d["events"] if e["type"] != "spare"]
    d["origin"] = {"kind": "challenge", "id": "c_0123456789abcdef"}
    person = next(s for s, seat in enumerate(d["seats"]) if seat["bot"] is None)
    d["seats"][person]["seed_by"] = "server"
    plain = copy.deepcopy(d)
    del plain["origin"]
    del plain["seats"][person]["seed_by"]
    with_keys, without = verify(d), verify(plain)
    # The same checks hold or fail in the same way; only the notes differ.
    assert with_keys.ok == without.ok and with_keys.problem == without.problem
    assert with_keys.notes[0] == "origin: a challenge (c_0123456789abcdef)"
    name = d["seats"][person]["name"]
    assert with_keys.notes[1] == (
        f"client seed: the server made the part of seat {person} ({name}), as none was sent "
        "with the seat"
    )
    assert without.notes == []
    parsed = parse_record(d)
    assert parsed.origin == Origin("challenge", "c_0123456789abcdef")
    assert parsed.seats[person].seed_by_server
    assert parse_record(parsed.to_dict()) == parsed


def test_the_server_made_part_is_said_in_the_client_seed_check() -> None:
    record = spares_match(rate=0.0).record
    seats = tuple(
        replace(s, seed_by_server=True) if s.name == "player2" else s for s in record.seats
    )
    v = verify(replace(record, seats=seats, origin=Origin("play_now")))
    assert v.ok, v.problem
    assert v.notes[0] == "origin: play now (people paired at once)"
    check = next(c for c in v.checks if c.startswith("client seed:"))
    assert "the server made the part of seat" in check and "had a hand" not in check


@pytest.mark.parametrize(
    ("origin", "message"),
    [
        ({"kind": "lobby", "id": None}, 'origin.kind: expected "bot", "solo", "people"'),
        ({"kind": "bot"}, "origin: missing field 'id'"),
        ({"kind": "bot", "id": 3}, "origin.id: expected non-empty text"),
        ("bot", "origin: expected an object"),
    ],
)
def test_a_malformed_origin_is_named(origin: Any, message: str) -> None:
    d = spares_match(rate=0.0).record.to_dict()
    d["origin"] = origin
    with pytest.raises(RecordFormatError, match=message):
        parse_record(d)


def test_seed_by_is_a_persons_and_says_server() -> None:
    d = spares_match(rate=0.0).record.to_dict()
    bot = next(s for s, seat in enumerate(d["seats"]) if seat["bot"] is not None)
    d["seats"][bot]["seed_by"] = "server"
    with pytest.raises(RecordFormatError, match=rf"seats\[{bot}\].seed_by: a bot adds no part"):
        parse_record(d)
    d["seats"][bot].pop("seed_by")
    d["seats"][1 - bot if bot < 2 else 0]["seed_by"] = "person"
    with pytest.raises(RecordFormatError, match=r'seed_by: expected "server"'):
        parse_record(d)


# -- a daily entry by position --------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "turn", "open_tiles", "count", "dice"),
    [
        ("jackpot", 0, "123456789", 2, (6, 1)),
        ("jackpot", 3, "1235", 2, (3, 3)),
        ("jackpot", 9, "123456789", 2, (4, 5)),
        ("classic", 0, "123456789", 2, (4, 5)),
        ("classic", 2, "123", 1, (5,)),
    ],
)
def test_the_by_position_vectors(
    variant: str, turn: int, open_tiles: str, count: int, dice: tuple[int, ...]
) -> None:
    client = daily_client_seed("2026-12-06", variant)
    tiles = [int(t) for t in open_tiles]
    assert position_label(client, turn, tiles) == f"daily-2026-12-06-{variant}:{turn}:{open_tiles}"
    assert position_dice(SEED, client, turn, tiles, count) == dice


def test_dice_due_follows_the_position_and_the_number_alike() -> None:
    client = daily_client_seed("2026-12-06", "jackpot")
    m = Match.new_daily(Variant.JACKPOT)
    assert dice_due(SEED, client, m, by_position=True) == (6, 1)
    assert dice_due(SEED, client, m) == (4, 6)  # by number: throw n = 0
    m, _ = m.throw(0, (6, 1))
    m, _ = m.cover(0, [7])
    open_now = frozenset({1, 2, 3, 4, 5, 6, 8, 9})
    assert dice_due(SEED, client, m, by_position=True) == position_dice(SEED, client, 0, open_now)
    with pytest.raises(ValueError, match="no throw is due"):
        dice_due(SEED, client, m.throw(0, (1, 1))[0], by_position=True)
    with pytest.raises(ValueError, match="only in a daily entry"):
        dice_due(SEED, "x", Match.new(Variant.JACKPOT, 1), by_position=True)


def test_by_position_the_same_position_gets_the_same_throw() -> None:
    """Two players who reach the same open tiles in turn 4 by different roads face the
    same throw; by number, a different count of throws would give them different ones."""
    client = daily_client_seed("2026-12-06", "jackpot")
    roads = [[((6, 3), 9), ((2, 2), 4), ((4, 4), 8)], [((5, 4), 9), ((6, 2), 8), ((3, 1), 4)]]
    ends = []
    for road in roads:
        m = Match.new_daily(Variant.JACKPOT)
        for _ in range(3):  # three dead turns: 6 + 6 reaches nothing once 6 is down
            m, _ = m.throw(0, (6, 6))
            m, _ = m.cover(0, [6])
            m, _ = m.throw(0, (6, 6))
        assert m.round == 4 and m.throws == 48
        for dice, tile in road:
            m, _ = m.throw(0, dice)
            m, _ = m.cover(0, [tile])
        ends.append(m)
    first, second = ends
    assert first.turn is not None and second.turn is not None
    assert first.turn.open == second.turn.open == frozenset({1, 2, 3, 5, 6, 7})
    assert dice_due(SEED, client, first, by_position=True) == position_dice(
        SEED, client, 3, {1, 2, 3, 5, 6, 7}
    ) == dice_due(SEED, client, second, by_position=True)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(daily_plans(by_position=True))
def test_every_daily_entry_by_position_verifies(plan: DailyPlan) -> None:
    record = play_daily(plan).record
    assert record.format == "jackpot-record/4"
    assert record.to_dict()["daily"] == {"date": plan.date, "turns": 10, "dice": "by-position"}
    v = verify(record.to_json())
    if plan.ending == "playing" or not plan.published:
        assert v.awaiting_seed, v.problem
    else:
        assert v.ok, v.problem
        assert v.daily is not None and v.daily.par == daily_par(
            plan.server_seed, plan.date, plan.variant, by_position=True
        ).result


def by_position_entry() -> Record:
    plan = DailyPlan(Variant.JACKPOT, SEED, "2026-12-06", 11, "finished", True, by_position=True)
    return play_daily(plan).record


def test_a_by_position_entry_with_the_numbers_dice_is_refused() -> None:
    record = by_position_entry()
    v = verify(record)
    assert v.ok, v.problem
    assert (
        "dice: every throw's dice are the ones the seeds give for its turn and the tiles it "
        "faced (by position)"
    ) in v.checks
    par = "par: the best bot on the same dice (by position) makes"
    assert any(c.startswith(par) for c in v.checks)
    # The same entry read as a deal by number: its first throw is not n = 0's dice.
    d = record.to_dict()
    d["format"] = "jackpot-record/3"
    del d["daily"]["dice"]
    problem = verify(d).problem
    assert problem is not None and problem.startswith("turn 1, throw 1: dice [6, 1] differ")
    # And a by-position entry whose dice are changed names the position's label.
    d = record.to_dict()
    d["events"][0]["dice"] = [4, 6]
    assert verify(d).problem == (
        "turn 1, throw 1: dice [4, 6] differ from the seed's [6, 1] for this turn and these "
        "open tiles (label 'daily-2026-12-06-jackpot:0:123456789')"
    )


def test_by_position_is_only_v4s_and_v4s_daily_is_by_position() -> None:
    d = by_position_entry().to_dict()
    d["format"] = "jackpot-record/3"
    with pytest.raises(RecordFormatError, match="daily: unknown field 'dice'"):
        parse_record(d)
    d = by_position_entry().to_dict()
    del d["daily"]["dice"]
    with pytest.raises(RecordFormatError, match="daily: missing field 'dice'"):
        parse_record(d)
    d = by_position_entry().to_dict()
    d["daily"]["dice"] = "by-number"
    with pytest.raises(RecordFormatError, match=r'daily\.dice: expected "by-position"'):
        parse_record(d)
    d = by_position_entry().to_dict()
    d["spares"] = 2
    with pytest.raises(RecordFormatError, match="spares: a daily entry has none"):
        parse_record(d)


def test_par_by_position_differs_from_par_by_number() -> None:
    by_number = daily_par(SEED, "2026-12-06", "jackpot").result
    by_position = daily_par(SEED, "2026-12-06", "jackpot", by_position=True)
    assert by_number.total == 173
    assert by_position.result != by_number
    # Its events keep the numbers 16t + k.
    first = by_position.events[0]
    assert json.loads(json.dumps(first.to_dict()))["n"] == 0
