"""The browser verifier on jackpot-record/4 (seeds made of parts, tournament tables, spare
deadlines, daily deals by position) and on the origin and server-made client seeds that
any format may carry, each checked against the Python verifier and the vectors."""

from __future__ import annotations

import copy
import hashlib
import random
from typing import Any

import pytest
from js_records import SEED, node_call, node_verify, stream

from jackpot.engine import RULES, DailyResult, Match, Variant
from jackpot.fair import (
    BY_POSITION,
    DailyDeal,
    Record,
    RecordEvent,
    RecordResult,
    SeatEntry,
    SeedPart,
    TournamentTable,
    bot_strength,
    combine_client_seeds,
    commitment,
    daily_client_seed,
    dice_due,
    order_of_play,
    part_commitment,
    seed_from_parts,
    throw_dice,
)
from jackpot.fair.recorder import append_events
from jackpot.fair.verify import verify
from jackpot.strategy.bots import choose_cover, choose_dice_count

PART_1 = SEED
PART_2 = "74291ea14082e35353432f6c8d98d3ad25b90f762401aa5a321d078fd81e6ce0"


def position_dice_by_hand(seed: str, label: str, count: int) -> list[int]:
    """An independent reading: the label's stream, bytes of 252 and up skipped."""
    out: list[int] = []
    for b in stream(seed, label):
        if b < 252:
            out.append(b % 6 + 1)
            if len(out) == count:
                return out
    raise AssertionError("unreachable")


# -- vectors ---------------------------------------------------------------------------


def test_seed_from_parts_vectors() -> None:
    assert node_call("seedFromParts", [PART_1, PART_2]) == (
        "893a04d9e60e9765170fedc0a64f1bf4e2e3fb52d1fa291b550868d08fddf76b"
    )
    table = {"id": "t_1", "round": 3, "table": 2}
    assert node_call("seedFromParts", [PART_1, PART_2], table) == (
        "0c314704c342f72e0c347e56db98eed648cd38da4cb9bf9ab3393aa0ebe29944"
    )
    assert node_call("seedFromParts", [PART_2]) == hashlib.sha256(PART_2.encode()).hexdigest()


@pytest.mark.parametrize(
    ("variant", "turn", "open_tiles", "count", "dice"),
    [
        ("jackpot", 0, [1, 2, 3, 4, 5, 6, 7, 8, 9], 2, [6, 1]),
        ("jackpot", 3, [5, 3, 2, 1], 2, [3, 3]),
        ("jackpot", 9, [1, 2, 3, 4, 5, 6, 7, 8, 9], 2, [4, 5]),
        ("classic", 0, [1, 2, 3, 4, 5, 6, 7, 8, 9], 2, [4, 5]),
        ("classic", 2, [1, 2, 3], 1, [5]),
    ],
)
def test_position_dice_vectors(
    variant: str, turn: int, open_tiles: list[int], count: int, dice: list[int]
) -> None:
    client = f"daily-2026-12-06-{variant}"
    label = node_call("positionLabel", client, turn, open_tiles)
    assert label == f"{client}:{turn}:{''.join(map(str, sorted(open_tiles)))}"
    assert node_call("positionDice", SEED, client, turn, open_tiles, count) == dice
    assert position_dice_by_hand(SEED, label, count) == dice


# -- records made on the engine ------------------------------------------------------


def v4_record(
    rng: random.Random,
    *,
    people: int = 2,
    bots: int = 0,
    parts: bool = True,
    table: TournamentTable | None = None,
    spares: int = 0,
    miss: float = 0.0,
    variant: Variant | None = None,
) -> dict[str, Any]:
    """A /4 match played on the engine: its seed made of one part per person (or drawn),
    people missing deadlines at rate ``miss`` (a spare while they have one, else out)."""
    chosen = variant or rng.choice([Variant.JACKPOT, Variant.CLASSIC])
    seats = people + bots
    seed_parts = [f"{rng.getrandbits(256):064x}" for _ in range(people)] if parts else []
    server_seed = seed_from_parts(seed_parts, table) if parts else f"{rng.getrandbits(256):064x}"
    client_seed = combine_client_seeds([f"h{k}{rng.getrandbits(20):x}" for k in range(people)])
    joined = order_of_play(server_seed, client_seed, seats, people=people)
    strengths = [
        None if joined[s] < people else bot_strength(server_seed, client_seed, s)
        for s in range(seats)
    ]
    match = Match.new(chosen, seats, rules=RULES, spares=spares)
    log: list[RecordEvent] = []
    while (turn := match.turn) is not None:
        strength = strengths[turn.seat]
        if strength is None and rng.random() < miss:
            match, events = match.deadline_passed(turn.seat)
        elif turn.dice is None:
            count = (
                choose_dice_count(chosen, strength, turn.open)
                if strength is not None
                else 1 if match.may_throw_one_die and rng.random() < 0.4 else 2
            )
            match, events = match.throw(
                turn.seat, throw_dice(server_seed, client_seed, match.throws, count)
            )
        else:
            tiles = (
                choose_cover(chosen, strength, turn.open, turn.dice)
                if strength is not None
                else rng.choice(turn.options)
            )
            match, events = match.cover(turn.seat, tiles)
        append_events(log, events)
    assert match.result is not None
    return Record(
        id=f"m_v4_{rng.getrandbits(32):x}",
        variant=chosen,
        deadline_seconds=3600,
        created="2026-12-01T18:00:00Z",
        seats=tuple(
            SeatEntry(name=f"p{joined[s]}", bot=strengths[s]) for s in range(seats)
        ),
        commitment=commitment(server_seed),
        server_seed=server_seed,
        client_seed=client_seed,
        events=tuple(log),
        result=RecordResult(**match.result.to_dict()),
        joined=joined,
        rules=RULES,
        parts=tuple(SeedPart(part_commitment(p), p) for p in seed_parts) if parts else None,
        tournament=table,
        spares=spares,
    ).to_dict()


def many_v4(count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    made = []
    for k in range(count):
        people = rng.randint(1, 4)
        with_parts = k % 3 != 2
        table = (
            TournamentTable(f"t_{k}", rng.randint(1, 15), rng.randint(1, 9))
            if with_parts and k % 2
            else None
        )
        made.append(
            v4_record(
                rng,
                people=people,
                bots=rng.randint(0, 4 - people),
                parts=with_parts,
                table=table,
                spares=rng.randint(0 if with_parts else 1, 5),
                miss=rng.choice([0.0, 0.1, 0.3]),
            )
        )
    return made


def test_both_verifiers_accept_every_v4_match() -> None:
    made = many_v4(30, seed=4)
    assert sum(1 for r in made if "tournament" in r) >= 5
    assert sum(1 for r in made if any(e["type"] == "spare" for e in r["events"])) >= 8
    timed_out = [
        r for r in made if any(e.get("reason") == "timeout" for e in r["events"])
    ]
    assert len(timed_out) >= 3
    for record, js in zip(made, node_verify(*made), strict=True):
        assert js["ok"], (js["problem"], record["id"])
        py = verify(record)
        assert py.ok, (py.problem, record["id"])
        if "parts" in record:
            assert any("is made of" in c for c in js["checks"]), js["checks"]
        if "spares" in record:
            assert any(c.startswith("Each player had") for c in js["checks"]), js["checks"]


def tamper_v4(k: int, record: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    r = copy.deepcopy(record)
    spare_at = [k for k, e in enumerate(r["events"]) if e["type"] == "spare"]
    timeouts = [k for k, e in enumerate(r["events"]) if e.get("reason") == "timeout"]
    order = ["die", "part", "commitment", "swap-parts", "table", "drop-spare", "fewer-spares"]
    kind = order[k % len(order)]
    if kind in ("part", "commitment", "swap-parts", "table") and "parts" not in r:
        kind = "fewer-spares"
    if kind == "drop-spare" and not (spare_at and timeouts):
        kind = "die"
    if kind == "die":
        e = next(e for e in r["events"] if e["type"] == "throw")
        e["dice"][0] = e["dice"][0] % 6 + 1
    elif kind == "part":
        r["parts"][0]["part"] = "0" * 64
    elif kind == "commitment":
        r["parts"][-1]["commitment"] = "f" * 64
    elif kind == "swap-parts" and len(r["parts"]) > 1:
        r["parts"].reverse()
    elif kind == "table":
        if "tournament" in r:
            r["tournament"]["round"] += 1
        else:
            r["tournament"] = {"id": "t_x", "round": 1, "table": 1}
    elif kind == "drop-spare":
        seat = r["events"][timeouts[0]]["seat"]
        k = next(k for k in spare_at if r["events"][k]["seat"] == seat)
        del r["events"][k]
    else:
        kind = "fewer-spares"
        if "spares" in r and any(e["type"] == "spare" for e in r["events"]):
            r["spares"] = 0
        else:
            r["events"].insert(0, {"type": "spare", "seat": 0})
            r.pop("spares", None)
    return kind, r


def test_both_verifiers_reject_tampered_v4_records() -> None:
    made = many_v4(24, seed=12)
    changed = [tamper_v4(k, r) for k, r in enumerate(made)]
    kinds = set()
    for (kind, record), js in zip(changed, node_verify(*(r for _, r in changed)), strict=True):
        py = verify(record)
        if kind == "swap-parts" and len(record["parts"]) == 1:
            continue
        kinds.add(kind)
        assert not js["ok"] and not js["pending"], (kind, js)
        assert not py.ok and not py.waiting, (kind, py.problem)
    assert {"die", "part", "commitment", "table", "fewer-spares"} <= kinds, kinds


def test_what_each_verifier_says_of_parts_and_spares() -> None:
    rng = random.Random(5)
    base = v4_record(
        rng, people=2, table=TournamentTable("t_9", 3, 2), spares=1, miss=0.3,
        variant=Variant.JACKPOT,
    )
    assert any(e["type"] == "spare" for e in base["events"])
    wrong_part = copy.deepcopy(base)
    wrong_part["parts"][1]["commitment"] = "f" * 64
    other_table = copy.deepcopy(base)
    other_table["tournament"]["table"] = 1
    hidden = copy.deepcopy(base)
    for p in hidden["parts"]:
        p["part"] = None
    fewer = copy.deepcopy(base)
    k = next(k for k, e in enumerate(fewer["events"]) if e["type"] == "spare")
    spare_seat = fewer["events"][k]["seat"]
    fewer["events"].insert(k, {"type": "spare", "seat": spare_seat})
    good, bad_part, bad_table, waiting, too_many = node_verify(
        base, wrong_part, other_table, hidden, fewer
    )
    assert good["ok"], good["problem"]
    assert "The server seed belongs to round 3, table 2 of the tournament" in " ".join(
        good["checks"]
    )
    second = next(s for s, j in enumerate(base["joined"]) if j == 1)
    who = base["seats"][second]["name"]
    assert bad_part["problem"].startswith(
        f"the part of the server seed from {who} is not the one promised to them: it gives "
        f"{base['parts'][1]['commitment']}, not the commitment {'f' * 64}"
    )
    assert bad_table["problem"].startswith(
        "the server seed is not made of its parts: in the order the players took their seats, "
        "as round 3, table 1 of the tournament, they give "
    )
    assert waiting["pending"] and waiting["pendingParts"] and not waiting["ok"]
    assert waiting["problem"].startswith("the parts of the server seed are not published yet")
    assert too_many["problem"] == (
        f"{base['seats'][spare_seat]['name']} used more spare deadlines than the 1 the match "
        "gives each player"
    )
    assert not verify(fewer).ok


def test_a_timeout_with_a_spare_left_is_said() -> None:
    rng = random.Random(21)
    for _ in range(50):
        record = v4_record(rng, people=2, parts=False, spares=1, miss=0.4)
        timeouts = [k for k, e in enumerate(record["events"]) if e.get("reason") == "timeout"]
        if timeouts:
            break
    else:
        raise AssertionError("no timeout in 50 matches")
    seat = record["events"][timeouts[0]]["seat"]
    spare = next(
        k for k, e in enumerate(record["events"]) if e["type"] == "spare" and e["seat"] == seat
    )
    del record["events"][spare]
    (js,) = node_verify(record)
    name = record["seats"][seat]["name"]
    assert js["problem"] == (
        f"{name} ran out of time with 1 spare deadline left: a missed deadline uses a spare "
        "while the player has one"
    )
    assert verify(record).problem is not None


# -- the form of /4, and the keys every format may carry ------------------------------


def base_v3() -> dict[str, Any]:
    record = v4_record(random.Random(2), people=2, parts=False, spares=1)
    record["format"] = "jackpot-record/3"
    del record["spares"]
    record["events"] = [e for e in record["events"] if e["type"] != "spare"]
    return record


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (
            lambda r: r.update(spares=2),
            "the record says it is a jackpot-record/3, yet it holds spare deadlines, which "
            "only a jackpot-record/4 has",
        ),
        (
            lambda r: r["events"].insert(0, {"type": "spare", "seat": 0}),
            "move 1 of the record uses a spare deadline, but the match gives none",
        ),
        (
            lambda r: r.update(format="jackpot-record/4"),
            "the record says it is a jackpot-record/4, yet it has none of what a "
            "jackpot-record/4 adds (parts of the server seed, spare deadlines, dice by "
            "position): it should be a jackpot-record/3",
        ),
        (
            lambda r: r.update(
                format="jackpot-record/4", tournament={"id": "t", "round": 1, "table": 1}
            ),
            "the record names a tournament table, but not the parts the table's server seed "
            "is made of",
        ),
        (
            lambda r: r.update(format="jackpot-record/4", spares=6),
            "the record's spare deadlines are damaged: each player has 1 to 5 of them",
        ),
        (
            lambda r: r.update(origin={"kind": "lobby", "id": None}),
            "the record's origin is damaged",
        ),
        (
            lambda r: r["seats"][0].update(seed_by="person"),
            "seat 1 carries a mark this page does not know",
        ),
    ],
)
def test_a_malformed_addition_is_said(change: Any, problem: str) -> None:
    record = base_v3()
    change(record)
    (js,) = node_verify(record)
    assert js["problem"].startswith(problem), js["problem"]
    assert not verify(record).ok


@pytest.mark.parametrize("fmt", ["jackpot-record/1", "jackpot-record/2", "jackpot-record/3"])
def test_origin_and_seed_by_in_every_format_change_nothing_checked(fmt: str) -> None:
    plain = base_v3()
    plain["format"] = fmt
    if fmt == "jackpot-record/1":
        del plain["joined"]
    marked = copy.deepcopy(plain)
    marked["origin"] = {"kind": "rematch", "id": "m_0123"}
    marked["seats"][1]["seed_by"] = "server"
    js_plain, js_marked = node_verify(plain, marked)
    assert js_plain["ok"] == js_marked["ok"] == verify(marked).ok == verify(plain).ok
    assert js_plain["problem"] == js_marked["problem"]
    assert js_plain["notes"] == []
    name = marked["seats"][1]["name"]
    assert js_marked["notes"] == [
        "The record says this was a rematch (m_0123); that changes nothing checked here.",
        f"{name} sent no client seed, so the server made one: that piece gave {name} no say "
        "in the dice.",
    ]
    if js_marked["ok"]:
        assert (
            f"the server made the piece of {name}, who sent none." in " ".join(js_marked["checks"])
        )


def test_a_bot_has_no_client_seed_to_be_made() -> None:
    record = v4_record(random.Random(3), people=1, bots=1, parts=False, spares=1)
    bot = next(s for s, seat in enumerate(record["seats"]) if seat["bot"])
    record["seats"][bot]["seed_by"] = "server"
    (js,) = node_verify(record)
    assert js["problem"].startswith(f"seat {bot + 1} is a bot, yet is marked")


# -- a daily deal by position -----------------------------------------------------------


def position_entry(rng: random.Random, variant: Variant) -> dict[str, Any]:
    day = "2026-12-06"
    client = daily_client_seed(day, variant)
    match = Match.new_daily(variant)
    log: list[RecordEvent] = []
    while (turn := match.turn) is not None:
        if turn.dice is None:
            count = 1 if match.may_throw_one_die and rng.random() < 0.5 else 2
            match, events = match.throw(0, dice_due(SEED, client, match, count, by_position=True))
        else:
            match, events = match.cover(0, rng.choice(turn.options))
        append_events(log, events)
    assert isinstance(match.result, DailyResult)
    return Record(
        id="m_daily_position",
        variant=variant,
        deadline_seconds=None,
        created=f"{day}T08:00:00Z",
        seats=(SeatEntry("ana"),),
        commitment=commitment(SEED),
        server_seed=SEED,
        client_seed=client,
        events=tuple(log),
        result=match.result,
        joined=(0,),
        rules=RULES,
        daily=DailyDeal(day, dice=BY_POSITION),
    ).to_dict()


@pytest.mark.parametrize("variant", [Variant.JACKPOT, Variant.CLASSIC])
def test_a_daily_entry_by_position_verifies_against_par_by_position(variant: Variant) -> None:
    record = position_entry(random.Random(6), variant)
    assert record["format"] == "jackpot-record/4" and record["daily"]["dice"] == "by-position"
    as_number = copy.deepcopy(record)
    as_number["format"] = "jackpot-record/3"
    del as_number["daily"]["dice"]
    changed = copy.deepcopy(record)
    first = changed["events"][0]
    first["dice"] = [first["dice"][0] % 6 + 1, first["dice"][1]]
    good, by_number, bad = node_verify(record, as_number, changed)
    py = verify(record)
    assert good["ok"] and py.ok, (good["problem"], py.problem)
    assert py.daily is not None and py.daily.par is not None
    assert good["daily"]["par"] == py.daily.par.to_dict()
    assert any(c.startswith("This deal's dice go by position") for c in good["checks"])
    assert not by_number["ok"] and not verify(as_number).ok
    assert bad["problem"].startswith(
        "turn 1, throw 1: the record shows the dice "
    ) and "for this turn and these open tiles the seeds give" in bad["problem"]
    par = node_call("dailyPar", SEED, "2026-12-06", variant.value, 10, True)
    assert par == py.daily.par.to_dict()
