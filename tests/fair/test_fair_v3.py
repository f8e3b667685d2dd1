"""jackpot-record/3: a Classic match ended by a shut box places every other seat still in
second together, and each format is verified by its own rules."""

from __future__ import annotations

from dataclasses import replace

import pytest
from fair_matchgen import Plan, Played, play
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jackpot.engine import RULES, RULES_BEFORE_SHARED_PLACE, Result, Variant
from jackpot.fair import parse_record, record_format
from jackpot.fair.verify import verify

SEED = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"


def classic_plan(play_seed: int, rules: int, seats: int = 3) -> Plan:
    return Plan(
        variant=Variant.CLASSIC,
        bots=(False,) * seats,
        server_seed=SEED,
        client_parts=tuple(f"p{s}" for s in range(seats)),
        play_seed=play_seed,
        leave_rate=0.0,
        drawn=True,
        rules=rules,
    )


@pytest.fixture(scope="module")
def shared() -> Played:
    """A /3 Classic match of three whose places differ from what /2 would give."""
    for play_seed in range(2000):
        played = play(classic_plan(play_seed, RULES))
        result = played.record.result
        assert isinstance(result, Result)
        old = play(classic_plan(play_seed, RULES_BEFORE_SHARED_PLACE)).record.result
        assert isinstance(old, Result)
        if result.places != old.places:
            return played
    raise AssertionError("no Classic match in 2000 where a shut box leaves seats to share")


def test_the_shared_place_verifies_as_3_and_not_as_2(shared: Played) -> None:
    record = shared.record
    assert record.format == "jackpot-record/3" and record.to_dict()["format"] == record.format
    result = record.result
    assert isinstance(result, Result)
    winner = result.winners[0]
    assert result.shut[winner] is not None
    assert sorted(result.places) == [1, 2, 2]
    v = verify(record)
    assert v.ok, v.problem
    assert any("(by /3: a shut box's followers share the next place)" in c for c in v.checks)
    # The same match written as /2 must carry /2's places: /3's are refused.
    as_v2 = replace(record, rules=RULES_BEFORE_SHARED_PLACE)
    assert as_v2.format == "jackpot-record/2"
    problem = verify(as_v2).problem
    assert problem is not None and problem.startswith("result.places: record says [")
    # And the match played by /2's rules is refused as /3.
    play_seed = int(record.id.removeprefix("m_"), 16)
    old = play(classic_plan(play_seed, RULES_BEFORE_SHARED_PLACE)).record
    assert isinstance(old.result, Result) and verify(old).ok
    assert verify(replace(old, rules=RULES)).problem == (
        f"result.places: record says {list(old.result.places)}, "
        f"replay gives {list(result.places)}"
    )


def test_a_3_record_round_trips_and_needs_its_order_of_play(shared: Played) -> None:
    record = shared.record
    assert parse_record(record.to_json()) == record
    d = record.to_dict()
    del d["joined"]
    assert "missing field 'joined'" in (verify(d).problem or "")


def test_the_format_follows_the_rules_played() -> None:
    assert record_format(RULES, drawn=True) == "jackpot-record/3"
    assert record_format(RULES_BEFORE_SHARED_PLACE, drawn=True) == "jackpot-record/2"
    assert record_format(RULES_BEFORE_SHARED_PLACE, drawn=False) == "jackpot-record/1"


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4), st.booleans())
def test_random_classic_matches_verify_by_their_own_rules(
    play_seed: int, seats: int, v3: bool
) -> None:
    rules = RULES if v3 else RULES_BEFORE_SHARED_PLACE
    record = play(classic_plan(play_seed, rules, seats)).record
    assert record.format == ("jackpot-record/3" if v3 else "jackpot-record/2")
    v = verify(record)
    assert v.ok, v.problem
    result = record.result
    assert isinstance(result, Result)
    if v3 and any(s is not None for s in result.shut):
        assert sorted(result.places) == [1, *[2] * (seats - 1)]
