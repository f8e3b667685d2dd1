"""A tournament table's record whose round's time ran out: written, replayed and checked."""

from __future__ import annotations

import copy
import hashlib
from typing import Any

import pytest

from jackpot.engine import Variant
from jackpot.fair import RecordFormatError, parse_record, verify
from jackpot.fair.match_review import review_match
from jackpot.fair.tournament import Settings
from jackpot.fair.tournament_play import Player, play_tournament
from jackpot.strategy.strength import Strength


def table_record(variant: Variant = Variant.JACKPOT, time_up: int = 4) -> dict[str, Any]:
    """Round 1, table 1 of a two-player tournament, its time out after ``time_up`` throws."""
    settings = Settings(
        variant=variant, table_size=2, deadline_seconds=3600, spares=0, rounds=1,
        round_seconds=3600, starts="2026-12-10T18:00:00Z", public=True, max_players=2,
    )  # fmt: skip
    people = [
        Player(name, 0.0, f"s{name}", hashlib.sha256(name.encode()).hexdigest(), Strength.BEST)
        for name in ("ana", "ben")
    ]
    export = play_tournament(settings, people, time_up={(1, 1): time_up})
    return export.rounds[0].tables[0].record.to_dict()


def test_the_record_says_when_the_time_ran_out_and_verifies() -> None:
    record = table_record()
    marks = [e for e in record["events"] if e["type"] == "last_round"]
    assert marks == [{"type": "last_round", "round": 1}]
    report = verify(record)
    assert report.ok, report.problem
    assert any(c.startswith("last round: the tournament round's time ran out in round 1")
               for c in report.checks)  # fmt: skip
    assert record["result"]["rounds"] == 1
    review = review_match(record)
    assert review.rounds == 1


def test_classic_writes_nothing_its_one_round_is_its_last() -> None:
    record = table_record(Variant.CLASSIC)
    assert all(e["type"] != "last_round" for e in record["events"])
    assert verify(record).ok


def problem_of(record: dict[str, Any]) -> str:
    report = verify(record)
    assert not report.ok and report.problem is not None
    return report.problem


def test_a_misplaced_or_repeated_mark_is_refused() -> None:
    record = table_record()
    i = next(i for i, e in enumerate(record["events"]) if e["type"] == "last_round")
    wrong = copy.deepcopy(record)
    wrong["events"][i]["round"] = 2
    assert "the match is to end with round 2, but round 1 was being played" in problem_of(wrong)
    twice = copy.deepcopy(record)
    twice["events"].insert(i, {"type": "last_round", "round": 1})
    assert "already to end with round 1" in problem_of(twice)
    # Without the mark the same events leave the match unfinished.
    gone = copy.deepcopy(record)
    del gone["events"][i]
    assert "the record ends before the match is over" in problem_of(gone)


def test_a_classic_record_with_a_mark_is_refused() -> None:
    record = table_record(Variant.CLASSIC)
    record["events"].insert(1, {"type": "last_round", "round": 1})
    assert "Classic has one round" in problem_of(record)


def test_only_a_tournament_tables_record_may_carry_it() -> None:
    record = table_record()
    assert record["format"] == "jackpot-record/4" and record["tournament"]["round"] == 1
    plain = {k: v for k, v in record.items() if k not in ("tournament", "parts", "spares")}
    plain["format"] = "jackpot-record/3"
    with pytest.raises(RecordFormatError, match="only a tournament table's"):
        parse_record(plain)
