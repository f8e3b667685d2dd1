"""The browser verifier and the Python one (jackpot.fair.verify) agree on many records.

Records come from the site's own engine and recorder (random human choices, bots by
their strengths, seats going out at random moments, mid-turn too) and from the
`jackpot selfplay` command. Each is verified by both; then each is tampered with and
both must reject it.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from typing import Any

from js_records import node_verify

from jackpot.engine import RULES, RULES_BEFORE_SHARED_PLACE, Match, Result, Variant
from jackpot.fair import (
    OutEntry,
    Record,
    RecordEvent,
    RecordResult,
    SeatEntry,
    bot_strength,
    commitment,
    order_of_play,
    throw_dice,
)
from jackpot.fair.recorder import append_events
from jackpot.fair.verify import verify
from jackpot.strategy.autoplay import bot_step
from jackpot.strategy.strength import Strength


def random_record(rng: random.Random, variant: Variant, seats: int) -> dict[str, Any]:
    """A /1 record with people anywhere, or a /2 or /3 one seated by the seed's draw (a
    /3 played by its rules: in Classic, a shut box's followers share the next place)."""
    server_seed = f"{rng.getrandbits(256):064x}"
    humans = [s for s in range(seats) if s == 0 or rng.random() < 0.4]
    client_seed = ".".join(f"h{s}-{rng.getrandbits(24):x}" for s in humans)
    joined = None
    rules = RULES_BEFORE_SHARED_PLACE
    if rng.random() < 0.5:
        # People join first, then bots; the draw then seats them.
        joined = order_of_play(server_seed, client_seed, seats, people=len(humans))
        humans = [s for s in range(seats) if joined[s] < len(humans)]
        rules = rng.choice([RULES, RULES_BEFORE_SHARED_PLACE])
    strengths = [
        None if s in humans else bot_strength(server_seed, client_seed, s) for s in range(seats)
    ]
    p_out = rng.choice([0.0, 0.005, 0.03])
    match = Match.new(variant, seats, rules=rules)
    log: list[RecordEvent] = []
    while match.turn is not None:
        turn = match.turn
        still_in = [s for s in range(seats) if match.out[s] is None]
        if rng.random() < p_out:
            # Anybody may resign at any moment; only the seat whose move is due times out.
            if rng.random() < 0.5:
                match, events = match.leave(turn.seat, "timeout")
            else:
                match, events = match.leave(rng.choice(still_in), "resigned")
        elif strengths[turn.seat] is not None:
            match, events = bot_step(
                match,
                strengths[turn.seat],
                lambda n, count: throw_dice(server_seed, client_seed, n, count),
            )
        elif turn.dice is None:
            count = 1 if match.may_throw_one_die and rng.random() < 0.4 else 2
            dice = throw_dice(server_seed, client_seed, match.throws, count)
            match, events = match.throw(turn.seat, dice)
        else:
            match, events = match.cover(turn.seat, rng.choice(turn.options))
        append_events(log, events)
    result = match.result
    assert result is not None
    record = Record(
        id=f"m_cross_{rng.getrandbits(32):x}",
        variant=variant,
        deadline_seconds=3600,
        created="2026-11-30T10:00:00Z",
        seats=tuple(SeatEntry(name=f"seat{s}", bot=strengths[s]) for s in range(seats)),
        commitment=commitment(server_seed),
        server_seed=server_seed,
        client_seed=client_seed,
        events=tuple(log),
        result=RecordResult(**result.to_dict()),
        joined=joined,
        rules=rules,
    )
    return record.to_dict()


def records(count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    made = []
    while len(made) < count:
        variant = rng.choice([Variant.JACKPOT, Variant.CLASSIC])
        made.append(random_record(rng, variant, rng.randint(1, 4)))
    return made


def tamper(rng: random.Random, record: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    r = copy.deepcopy(record)
    throws = [e for e in r["events"] if e["type"] == "throw"]
    kind = rng.choice(["die", "result", "cover", "bot", "drop-out", "seed", "client", "joined"])
    if kind == "die" and throws:
        e = rng.choice(throws)
        e["dice"][0] = e["dice"][0] % 6 + 1
    elif kind == "cover" and any(e["cover"] for e in throws):
        e = rng.choice([e for e in throws if e["cover"]])
        e["cover"] = [t % 9 + 1 for t in e["cover"]]
    elif kind == "bot" and any(s["bot"] for s in r["seats"]):
        seat = next(s for s in r["seats"] if s["bot"])
        seat["bot"] = {"lowest": "highest", "highest": "best", "best": "lowest"}[seat["bot"]]
    elif kind == "drop-out" and any(e["type"] == "out" for e in r["events"]):
        r["events"].remove(next(e for e in r["events"] if e["type"] == "out"))
    elif kind == "seed":
        r["server_seed"] = r["server_seed"][::-1]
    elif kind == "client":
        r["client_seed"] = r["client_seed"] + "x"
    elif kind == "joined" and len(r.get("joined", ())) > 1:
        r["joined"][0], r["joined"][1] = r["joined"][1], r["joined"][0]
    else:
        kind = "result"
        r["result"]["rounds"] += 1
    return kind, r


def test_python_and_javascript_agree_on_random_engine_records() -> None:
    made = records(60, seed=20261130)
    assert sum(1 for r in made if any(e["type"] == "out" for e in r["events"])) >= 10
    assert sum(1 for r in made if r["variant"] == "classic") >= 10
    assert sum(1 for r in made if r.get("joined", [0]) != sorted(r.get("joined", [0]))) >= 10
    assert sum(1 for r in made if r["format"] == "jackpot-record/3") >= 10
    reports = node_verify(*made)
    for record, js in zip(made, reports, strict=True):
        assert js["ok"], (js["problem"], record["id"])
        py = verify(record)
        assert py.ok, (py.problem, record["id"])


def test_both_reject_tampered_records() -> None:
    rng = random.Random(7)
    made = records(40, seed=99)
    changed = [tamper(rng, r) for r in made]
    reports = node_verify(*(r for _, r in changed))
    kinds = set()
    for (kind, record), js in zip(changed, reports, strict=True):
        py = verify(record)
        kinds.add(kind)
        assert js["ok"] == py.ok, (kind, record["id"], js["problem"], py.problem)
        if kind not in ("cover", "drop-out"):
            # These change something no honest record could; a moved cover or a dropped
            # out may, rarely, still describe a legal match with the same result.
            assert not js["ok"], (kind, record["id"])
        if kind == "die":
            # Both name the same throw.
            n = js["problem"].split(":")[0]
            assert n.startswith("throw ")
            assert py.problem is not None and py.problem.startswith(n + ":"), (js, py.problem)
    assert len(kinds) >= 5


def test_selfplay_records_verify_in_both() -> None:
    texts = []
    for seats, variant in ((1, "jackpot"), (2, "classic"), (3, "jackpot"), (4, "classic")):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "jackpot.cli",
                "selfplay",
                "--seats",
                str(seats),
                "--variant",
                variant,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        texts.append(done.stdout)
    reports = node_verify(*(json.dumps(json.loads(t)) for t in texts))
    for text, js in zip(texts, reports, strict=True):
        py = verify(text)
        assert js["ok"] and py.ok, (js["problem"], py.problem)
        record = json.loads(text)
        assert record["server_seed"] and record["result"] is not None


def test_an_out_between_a_throw_and_its_shutting_cover_counts_first() -> None:
    # Classic, three seats; seat 2 (the last) throws; seat 0 resigns; seat 2's cover then
    # shuts the box and wins. The record lists the cover with its throw, then the out, so
    # a verifier must count the out first: seat 0 is placed as a leaver, last.
    server_seed = "ab" * 32
    for attempt in range(400):
        client_seed = f"t{attempt}.b.c"

        def roll(n: int, count: int, cs: str = client_seed) -> tuple[int, ...]:
            return throw_dice(server_seed, cs, n, count)

        match = Match.new(Variant.CLASSIC, 3)
        log: list[RecordEvent] = []
        while match.turn is not None:
            turn = match.turn
            if turn.seat == 2 and turn.dice and any(set(o) == turn.open for o in turn.options):
                break
            match, events = bot_step(match, Strength.BEST, roll)
            append_events(log, events)
        if match.turn is not None:
            break
    else:
        raise AssertionError("no seed in 400 where the last seat shuts the box")
    match, events = match.leave(0, "resigned")
    append_events(log, events)
    match, events = match.cover(2, sorted(match.turn.open))
    append_events(log, events)
    assert match.result is not None
    record = Record(
        id="m_between",
        variant=Variant.CLASSIC,
        deadline_seconds=3600,
        created="2026-11-30T10:00:00Z",
        seats=tuple(SeatEntry(name=f"p{s}") for s in range(3)),
        commitment=commitment(server_seed),
        server_seed=server_seed,
        client_seed=client_seed,
        events=tuple(log),
        result=RecordResult(**match.result.to_dict()),
    ).to_dict()
    assert record["events"][-1] == OutEntry(seat=0, reason="resigned").to_dict()
    assert record["result"]["winners"] == [2]
    assert record["result"]["places"][0] == 3
    (js,) = node_verify(record)
    assert js["ok"], js["problem"]


def shared_place_records(count: int) -> list[dict[str, Any]]:
    """/3 Classic matches of three or four where a shut box left seats to share a place
    (and so whose places /2 would rank), each with its /2 twin: the same moves relabelled."""
    rng = random.Random(3)
    made: list[dict[str, Any]] = []
    while len(made) < count:
        record = random_record(rng, Variant.CLASSIC, rng.randint(3, 4))
        if record["format"] != "jackpot-record/3":
            continue
        shut = [s for s, n in enumerate(record["result"]["shut"]) if n is not None]
        twin = dict(record, format="jackpot-record/2")
        if shut and record["result"]["places"].count(2) >= 2 and not verify(twin).ok:
            made.append(record)
    return made


def test_both_place_a_classic_shut_by_the_rules_of_its_format() -> None:
    made = shared_place_records(6)
    as_v2 = []
    for record in made:
        twin = copy.deepcopy(record)
        twin["format"] = "jackpot-record/2"
        as_v2.append(twin)
    reports = node_verify(*made, *as_v2)
    for record, js in zip([*made, *as_v2], reports, strict=True):
        py = verify(record)
        assert js["ok"] == py.ok, (record["id"], js["problem"], py.problem)
        if record["format"] == "jackpot-record/3":
            assert js["ok"], js["problem"]
        else:
            # /2 ranks the seats after the shutter by their totals of 0, so /3's shared
            # place is not /2's: both say the places differ.
            assert js["problem"].startswith("the result in the record is not what the throws")
            assert "the places" in js["problem"]
            assert py.problem is not None and py.problem.startswith("result.places:")
    assert all(isinstance(Result.from_dict(r["result"]), Result) for r in made)
