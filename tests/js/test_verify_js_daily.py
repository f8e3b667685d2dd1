"""The browser verifier and the Python one agree on daily entries: finished, given up,
closed unfinished, still being played, and tampered with; and on par.

Entries are played on the site's own engine and written by its recorder, with random
choices (Classic's one die or two included); each is verified by both, then changed in
one way that no honest record has, and both must refuse it for the same reason.
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from js_records import node_call, node_verify

from jackpot.engine import RULES, THROW_STRIDE, DailyResult, Match, Variant
from jackpot.fair import (
    DailyDeal,
    Record,
    RecordEvent,
    SeatEntry,
    commitment,
    daily_client_seed,
    throw_dice,
)
from jackpot.fair.par import daily_par
from jackpot.fair.recorder import append_events
from jackpot.fair.verify import verify

ENDINGS = ("finished", "gave_up", "day_closed", "playing")


def daily_record(rng: random.Random, ending: str, published: bool) -> dict[str, Any]:
    """An entry in a random day's deal, ended as ``ending`` says, with or without its seed."""
    server_seed = f"{rng.getrandbits(256):064x}"
    day = f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    variant = rng.choice(list(Variant))
    client_seed = daily_client_seed(day, variant)
    stop = (rng.randrange(10), rng.randrange(8))
    match = Match.new_daily(variant)
    log: list[RecordEvent] = []
    while match.turn is not None:
        turn = match.turn
        moves = turn.throws * 2 + (turn.dice is not None)
        if ending != "finished" and (match.round - 1, moves) >= stop:
            if ending == "playing":
                break
            match, events = match.leave(0, "resigned" if ending == "gave_up" else "timeout")
        elif turn.dice is None:
            count = 1 if match.may_throw_one_die and rng.random() < 0.4 else 2
            dice = throw_dice(server_seed, client_seed, match.throws, count)
            match, events = match.throw(0, dice)
        else:
            match, events = match.cover(0, rng.choice(turn.options))
        append_events(log, events)
    return Record(
        id=f"m_daily_{rng.getrandbits(32):x}",
        variant=variant,
        deadline_seconds=None,
        created=f"{day}T07:30:00Z",
        seats=(SeatEntry(name="Guest 1a2b" if rng.random() < 0.3 else "ana"),),
        commitment=commitment(server_seed),
        server_seed=server_seed if published else None,
        client_seed=client_seed,
        events=tuple(log),
        result=match.result,
        joined=(0,),
        rules=RULES,
        daily=DailyDeal(day),
    ).to_dict()


def entries(count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    made = []
    for k in range(count):
        ending = ENDINGS[k % len(ENDINGS)]
        made.append(daily_record(rng, ending, published=ending != "playing" and k % 3 != 1))
    return made


def test_python_and_javascript_agree_on_daily_entries() -> None:
    made = entries(24, seed=612)
    reports = node_verify(*made)
    for record, js in zip(made, reports, strict=True):
        py = verify(record)
        published = record["server_seed"] is not None
        assert js["ok"] == py.ok == published, (record["id"], js["problem"], py.problem)
        assert js["pending"] == py.awaiting_seed == (not published), (js, py.problem)
        assert py.daily is not None and js["daily"]["ending"] == py.daily.ending
        assert js["daily"]["played"] == list(py.daily.played_scores)
        if py.daily.result is not None:
            assert js["daily"]["entry"] == py.daily.result.to_dict()
        if published:
            assert py.daily.par is not None and py.daily.versus is not None
            assert js["daily"]["par"] == py.daily.par.to_dict()
            assert js["daily"]["versus"]["standing"] == py.daily.versus.standing
            assert js["summary"].startswith("Verified: the ")
        else:
            assert js["daily"]["par"] is None and py.daily.par is None
            assert js["problem"].startswith("the server seed is not published yet")


def test_par_agrees_and_matches_the_best_bot() -> None:
    seed = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
    days = (("2026-12-06", "jackpot"), ("2026-12-06", "classic"), ("2027-01-31", "classic"))
    for day, variant in days:
        js = node_call("dailyPar", seed, day, variant)
        assert js == daily_par(seed, day, variant).result.to_dict(), (day, variant)
    assert node_call("dailyClientSeed", "2026-12-06", "jackpot") == "daily-2026-12-06-jackpot"


def _throw_indices(record: dict[str, Any]) -> list[int]:
    return [i for i, e in enumerate(record["events"]) if e["type"] == "throw"]


def tamper(rng: random.Random, record: dict[str, Any], kind: str) -> dict[str, Any]:
    r = copy.deepcopy(record)
    throws = _throw_indices(r)
    if kind == "die":
        e = r["events"][rng.choice(throws)]
        e["dice"][0] = e["dice"][0] % 6 + 1
    elif kind == "renumber":
        # A later turn's throws numbered on from the turn before, as a match would.
        later = [i for i in throws if r["events"][i]["n"] >= THROW_STRIDE]
        for i in later:
            r["events"][i]["n"] -= 1
    elif kind == "score":
        r["result"]["turn_scores"][0] = (r["result"]["turn_scores"][0] + 1) % 46
    elif kind == "jackpots":
        r["result"]["jackpots"] += 1
    elif kind == "total":
        r["result"]["total"] -= 1
    elif kind == "client":
        r["client_seed"] = r["client_seed"].replace("daily-2026", "daily-2025")
    elif kind == "date":
        r["daily"]["date"] = "2025" + r["daily"]["date"][4:]
    elif kind == "drop-out":
        r["events"].pop()
    elif kind == "seats":
        r["seats"].append({"name": "ben", "bot": None})
    elif kind == "deadline":
        r["deadline_seconds"] = 86400
    return r


KINDS = (
    *("die", "renumber", "score", "jackpots", "total"),
    *("client", "date", "drop-out", "seats", "deadline"),
)


@pytest.mark.parametrize("ending", ["finished", "gave_up", "day_closed"])
def test_both_refuse_a_tampered_entry_for_the_same_reason(ending: str) -> None:
    rng = random.Random(ENDINGS.index(ending))
    made = [daily_record(rng, ending, published=True) for _ in range(4)]
    cases = []
    for record in made:
        for kind in KINDS:
            if kind == "drop-out" and ending == "finished":
                continue
            later = any(e.get("n", 0) >= THROW_STRIDE for e in record["events"])
            if kind == "renumber" and not later:
                continue
            cases.append((kind, tamper(rng, record, kind)))
    reports = node_verify(*(r for _, r in cases))
    for (kind, record), js in zip(cases, reports, strict=True):
        py = verify(record)
        assert not js["ok"] and not py.ok, (kind, js["problem"], py.problem)
        assert not js["pending"] and not py.awaiting_seed, kind
        problem = py.problem or ""
        if kind in ("die", "renumber"):
            # Both name the throw by its turn and its place in the turn.
            where = js["problem"].split(":")[0]
            assert where.startswith("turn ") and ", throw " in where, js["problem"]
            assert problem.startswith(where + ":"), (js["problem"], problem)
        elif kind in ("score", "jackpots", "total"):
            assert js["problem"].startswith("the result in the record is not what the throws give")
            assert problem.startswith("result.")
        elif kind in ("client", "date"):
            assert js["problem"].startswith("the client seed in the record")
            assert problem.startswith("client seed: the record says")
        elif kind == "drop-out":
            assert js["problem"].startswith("the day is over (its server seed is published)")
            assert problem.startswith("events: the day is over (its seed is published)")
        else:
            assert problem.startswith("format: ")


def test_a_daily_result_on_an_entry_still_being_played_is_refused_by_both() -> None:
    rng = random.Random(5)
    playing = daily_record(rng, "playing", published=False)
    finished = daily_record(rng, "finished", published=False)
    playing["result"] = finished["result"]
    (js,) = node_verify(playing)
    py = verify(playing)
    assert not js["ok"] and not js["pending"] and not py.ok and not py.awaiting_seed
    assert js["problem"].startswith("the record gives a result, but by its throws the entry")
    assert (py.problem or "").startswith("result: the record gives one, but by its throws")
    assert isinstance(DailyResult.from_dict(finished["result"]), DailyResult)


DOC = (Path(__file__).parents[2] / "docs" / "fair-play.md").read_text(encoding="utf-8")


def test_the_browser_verifier_checks_the_docs_records_and_vectors() -> None:
    blocks = {
        heading: json.loads(body)
        for heading, body in re.findall(r"### (A whole [^\n]*)\n.*?```json\n(.*?)```", DOC, re.S)
    }
    v3 = blocks["A whole record by the rules of `/3`"]
    daily = blocks["A whole daily entry"]
    as_2 = dict(v3, format="jackpot-record/2")
    reports = node_verify(*blocks.values(), as_2)
    for heading, report in zip([*blocks, "as /2"], reports, strict=True):
        assert report["ok"] == (heading != "as /2"), (heading, report["problem"])
    places = "the places: ben 2, ana 1, cy 2 in the record, ben 3, ana 1, cy 2"
    assert places in reports[-1]["problem"]
    entry = reports[list(blocks).index("A whole daily entry")]
    assert entry["daily"]["entry"] == daily["result"]
    assert entry["daily"]["par"]["total"] == 173 and entry["daily"]["ending"] == "gave_up"
    seed = daily["server_seed"]
    assert node_call("throwDice", seed, "daily-2026-12-06-jackpot", 0, 2) == [4, 6]
    assert node_call("throwDice", seed, "daily-2026-12-06-jackpot", 50, 2) == [6, 1]
