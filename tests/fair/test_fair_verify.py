"""verify(): random legal matches pass; any single change is caught and named."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

import pytest
from fair_matchgen import Plan, Played, fixed_plans, plans, play
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from jackpot.engine import Variant
from jackpot.fair import (
    OutEntry,
    Record,
    RecordResult,
    SeatEntry,
    ThrowEntry,
    bot_strength,
    commitment,
    order_of_play,
    parse_record,
    throw_dice,
)
from jackpot.fair.verify import Verification, verify
from jackpot.strategy.strength import STRENGTH_ORDER, Strength

SEED = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

PROPERTY = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _plan(variant: Variant, bots: tuple[bool, ...], play_seed: int, leave: float = 0.0) -> Plan:
    humans = sum(not b for b in bots)
    return Plan(
        variant=variant,
        bots=bots,
        server_seed=SEED,
        client_parts=tuple(f"seat{i}" for i in range(humans)),
        play_seed=play_seed,
        leave_rate=leave,
    )


def _failed(v: Verification) -> str:
    assert not v.ok, v.summary
    assert v.problem is not None
    assert v.summary == f"invalid: {v.problem}"
    return v.problem


def _throws(record: Record) -> list[tuple[int, ThrowEntry]]:
    return [(i, e) for i, e in enumerate(record.events) if isinstance(e, ThrowEntry)]


def _with_event(record: Record, i: int, event: ThrowEntry | OutEntry) -> Record:
    events = list(record.events)
    events[i] = event
    return replace(record, events=tuple(events))


# ------------------------------------------------------------------ fixed examples


@pytest.fixture(scope="module")
def jackpot_match() -> Played:
    return play(_plan(Variant.JACKPOT, (False, True, False), play_seed=7))


@pytest.fixture(scope="module")
def classic_match() -> Played:
    # Find a Classic match where someone threw one die (deterministic search).
    for seed in range(200):
        played = play(_plan(Variant.CLASSIC, (False, False), play_seed=seed))
        if any(len(e.dice) == 1 for e in played.record.throws):
            return played
    raise AssertionError("no one-die Classic match in 200 seeds")


def test_a_played_match_verifies(jackpot_match: Played) -> None:
    v = verify(jackpot_match.record)
    assert v.ok, v.problem
    assert v.problem is None
    r = jackpot_match.record
    assert r.result is not None
    assert v.summary.startswith(f"valid: jackpot, 3 seats, {len(r.throws)} throws, ")
    assert any(c.startswith("commitment:") for c in v.checks)
    assert any(c.startswith("bot strengths:") and "seat 1 (Bot 1)" in c for c in v.checks)
    assert any(c.startswith("result:") for c in v.checks)


def test_summary_names_the_winner(jackpot_match: Played) -> None:
    r = jackpot_match.record
    assert r.result is not None
    v = verify(r)
    if len(r.result.winners) == 1:
        w = r.result.winners[0]
        assert v.summary.endswith(f"winner seat {w} ({r.seats[w].name})")
    else:
        assert "draw between" in v.summary


def test_json_text_and_dict_are_accepted(jackpot_match: Played) -> None:
    r = jackpot_match.record
    assert verify(r.to_json()).ok
    assert verify(r.to_dict()).ok
    assert parse_record(r.to_json()) == r


def test_classic_with_one_die_verifies(classic_match: Played) -> None:
    v = verify(classic_match.record)
    assert v.ok, v.problem
    assert any(c.startswith("dice counts:") for c in v.checks)


def test_format_error_is_the_problem() -> None:
    d = {"format": "jackpot-record/1"}
    problem = _failed(verify(d))
    assert problem == "format: record: missing field 'id'"
    assert _failed(verify("{")).startswith("format: not JSON")


WAITS = "the server seed is not published yet (it is published when the match ends): "


def _in_progress(r: Record, events: int) -> Record:
    """``r`` as the site shows it during play: no seed, no result, bots' strengths hidden."""
    seats = tuple(SeatEntry(s.name, hidden=True) if s.is_bot else s for s in r.seats)
    return replace(r, server_seed=None, result=None, events=r.events[:events], seats=seats)


def test_unpublished_seed_checks_the_moves_and_says_what_waits(jackpot_match: Played) -> None:
    r = _in_progress(jackpot_match.record, len(jackpot_match.record.events) // 2)
    assert r.to_dict()["seats"][1]["bot"] == "hidden"
    v = verify(r)
    assert not v.ok and v.awaiting_seed and v.daily is None
    assert v.problem == WAITS + "the dice and the bots' strengths and moves wait for it"
    assert v.summary == f"not verifiable yet: {v.problem}"
    assert v.checks[0] == "format: the record is well-formed jackpot-record/1"
    assert any(c.startswith("throws:") for c in v.checks)
    assert any(c.startswith("covers:") for c in v.checks)
    assert not any(c.startswith(("commitment:", "dice:", "bots:")) for c in v.checks)


def test_unpublished_seed_still_catches_an_illegal_move(jackpot_match: Played) -> None:
    r = jackpot_match.record
    i, e = next((i, e) for i, e in _throws(r) if e.cover and r.seats[e.seat].bot is None)
    offered = jackpot_match.offered[e.n]
    wrong = next(t for t in range(1, 10) if (t,) not in offered)
    v = verify(_in_progress(_with_event(r, i, replace(e, cover=(wrong,))), len(r.events)))
    assert _failed(v).startswith(f"throw {e.n + 1}: cover [{wrong}] is not on offer")
    assert not v.awaiting_seed


def test_unpublished_seed_on_a_finished_match_checks_its_result(jackpot_match: Played) -> None:
    r = replace(jackpot_match.record, server_seed=None)
    v = verify(r)
    assert v.awaiting_seed and any(c.startswith("result:") for c in v.checks)
    assert v.problem == WAITS + "the dice and the bots' strengths and moves wait for it"
    assert r.result is not None
    wrong = replace(r.result, rounds=r.result.rounds + 1)
    assert _failed(verify(replace(r, result=wrong))).startswith("result.rounds: record says")
    assert _failed(verify(replace(r, result=None))).startswith("result: record says null")


def test_a_hidden_strength_needs_an_unpublished_seed(jackpot_match: Played) -> None:
    r = jackpot_match.record
    seats = tuple(SeatEntry(s.name, hidden=True) if s.is_bot else s for s in r.seats)
    problem = _failed(verify(replace(r, seats=seats)))
    assert problem.startswith('format: seats[1].bot: expected null (a person) or "lowest"')


def test_missing_result_is_named(jackpot_match: Played) -> None:
    problem = _failed(verify(replace(jackpot_match.record, result=None)))
    assert problem.startswith("result: record says null, replay gives {")


def test_truncated_record_ends_before_the_match_is_over(jackpot_match: Played) -> None:
    r = jackpot_match.record
    problem = _failed(verify(replace(r, events=r.events[:-1])))
    assert problem.startswith("events: the record ends before the match is over")


def test_event_after_the_end_is_refused(jackpot_match: Played) -> None:
    r = jackpot_match.record
    extra = OutEntry(seat=0, reason="resigned")
    problem = _failed(verify(replace(r, events=(*r.events, extra))))
    assert problem == f"events[{len(r.events)}]: the match was already over"


def test_misnumbered_throw(jackpot_match: Played) -> None:
    r = jackpot_match.record
    i, e = _throws(r)[3]
    problem = _failed(verify(_with_event(r, i, replace(e, n=e.n + 1))))
    # Problems count throws from 1, as the pages do: the record's n=3 is the page's throw 4.
    assert problem == (
        f"throw {e.n + 2}: numbered n={e.n + 1}, but the next throw of the match is "
        f"throw {e.n + 1} (n={e.n})"
    )


def test_changed_die_names_throw_and_both_dice(jackpot_match: Played) -> None:
    r = jackpot_match.record
    i, e = _throws(r)[5]
    other = (e.dice[0] % 6 + 1, e.dice[1])
    problem = _failed(verify(_with_event(r, i, replace(e, dice=other))))
    assert problem == (
        f"throw {e.n + 1}: dice [{other[0]}, {other[1]}] differ from the seed's "
        f"[{e.dice[0]}, {e.dice[1]}]"
    )


def test_one_die_in_jackpot_is_refused(jackpot_match: Played) -> None:
    r = jackpot_match.record
    i, e = _throws(r)[0]
    problem = _failed(verify(_with_event(r, i, replace(e, dice=e.dice[:1]))))
    assert problem == "throw 1: one die thrown, but Jackpot is always played with two dice"


def test_one_die_in_classic_before_the_high_tiles_are_down() -> None:
    played = play(_plan(Variant.CLASSIC, (False,), play_seed=1))
    r = played.record
    i, e = _throws(r)[0]
    problem = _failed(verify(_with_event(r, i, replace(e, dice=e.dice[:1]))))
    assert problem == (
        "throw 1: one die thrown, but one die is allowed only once 7, 8 and 9 are all covered"
    )


def test_cover_null_on_a_dead_throw_is_refused(jackpot_match: Played) -> None:
    r = jackpot_match.record
    i, e = next((i, e) for i, e in _throws(r) if e.cover == ())
    problem = _failed(verify(_with_event(r, i, replace(e, cover=None))))
    assert (
        problem
        == f"throw {e.n + 1}: cover null, but the dice offered nothing: a dead throw is written []"
    )


def test_dead_throw_claimed_while_something_was_on_offer(jackpot_match: Played) -> None:
    r = jackpot_match.record
    i, e = next((i, e) for i, e in _throws(r) if e.cover)
    problem = _failed(verify(_with_event(r, i, replace(e, cover=()))))
    opts = jackpot_match.offered[e.n]
    assert problem.startswith(f"throw {e.n + 1}: cover [] (a dead throw), but the dice offered ")
    assert str(opts[0][0]) in problem


def test_cover_not_on_offer_says_what_was(jackpot_match: Played) -> None:
    r = jackpot_match.record
    i, e = next((i, e) for i, e in _throws(r) if e.cover and r.seats[e.seat].bot is None)
    offered = jackpot_match.offered[e.n]
    bad = next((t,) for t in range(1, 10) if (t,) not in offered)
    problem = _failed(verify(_with_event(r, i, replace(e, cover=bad))))
    assert problem.startswith(f"throw {e.n + 1}: cover [{bad[0]}] is not on offer: the dice ")
    assert "reach" in problem


def test_wrong_seat_is_named(jackpot_match: Played) -> None:
    r = jackpot_match.record
    i, e = _throws(r)[0]
    problem = _failed(verify(_with_event(r, i, replace(e, seat=1))))
    assert problem == "throw 1: seat 1 (Bot 1) threw, but it is seat 0 (player1)'s turn"


def test_throw_while_a_cover_is_owed(jackpot_match: Played) -> None:
    r = jackpot_match.record
    i, e = next((i, e) for i, e in _throws(r) if e.cover and i + 1 < len(r.events))
    nxt = r.events[i + 1]
    assume_throw = isinstance(nxt, ThrowEntry) and nxt.seat == e.seat
    assert assume_throw, "fixture should have two throws in a row by one seat"
    problem = _failed(verify(_with_event(r, i, replace(e, cover=None))))
    assert "threw again before covering for the previous throw" in problem


def test_wrong_bot_strength_is_named(jackpot_match: Played) -> None:
    r = jackpot_match.record
    actual = r.seats[1].bot
    other = next(s for s in STRENGTH_ORDER if s is not actual)
    seats = (r.seats[0], SeatEntry("Bot 1", other), r.seats[2])
    problem = _failed(verify(replace(r, seats=seats)))
    assert (
        problem == f"seats[1].bot: record says {other}, the seed draws {actual} for seat 1 (Bot 1)"
    )


def test_client_seed_must_have_one_part_per_human(jackpot_match: Played) -> None:
    r = jackpot_match.record
    problem = _failed(verify(replace(r, client_seed="seat0")))
    assert problem.startswith(
        "client seed: 'seat0' has 1 part(s) joined by '.', but the match has 2"
    )
    bad = _failed(verify(replace(r, client_seed="seat0.a b")))
    assert bad.startswith("client seed may use only letters")
    assert bad.endswith("(the part of seat 2 (player2))")


def test_a_bot_only_match_accepts_any_well_formed_client_seed() -> None:
    played = play(_plan(Variant.CLASSIC, (True, True), play_seed=3))
    assert played.record.client_seed == ""
    v = verify(played.record)
    assert v.ok, v.problem
    assert any(c.startswith("client seed: well-formed (no seat is human") for c in v.checks)
    bad = _failed(verify(replace(played.record, client_seed="a b")))
    assert bad.startswith("client seed may use only letters")


def test_commitment_mismatch(jackpot_match: Played) -> None:
    r = jackpot_match.record
    other = "0" * 64
    problem = _failed(verify(replace(r, server_seed=other)))
    assert problem.startswith(f"commitment: the SHA-256 of the server seed is {commitment(other)}")


def test_result_field_difference_is_spelled_out(jackpot_match: Played) -> None:
    r = jackpot_match.record
    assert r.result is not None
    wrong = replace(r.result, places=tuple(reversed(r.result.places)))
    assume_differs = wrong.places != r.result.places
    assert assume_differs
    problem = _failed(verify(replace(r, result=wrong)))
    assert problem == (
        f"result.places: record says {json.dumps(list(wrong.places))}, "
        f"replay gives {json.dumps(list(r.result.places))}"
    )


def test_only_the_seat_whose_move_is_due_can_time_out(jackpot_match: Played) -> None:
    r = jackpot_match.record
    i, e = _throws(r)[0]
    assert e.seat == 0
    early = OutEntry(seat=2, reason="timeout")
    problem = _failed(verify(replace(r, events=(e, early, *r.events[i + 1 :]))))
    assert problem == (
        "events[1]: seat 2 (player2) timed out, but no move of theirs was due: "
        "it was seat 0 (player1)'s turn"
    )


def test_leaving_twice_is_refused(jackpot_match: Played) -> None:
    r = jackpot_match.record
    out = OutEntry(seat=2, reason="resigned")
    problem = _failed(verify(replace(r, events=(out, out, *r.events))))
    assert problem == "events[1] (out): seat 2 is out of the match (resigned)"


def test_solo_resignation_has_no_winner() -> None:
    r = Record(
        id="m_solo",
        variant=Variant.JACKPOT,
        deadline_seconds=60,
        created="2026-11-30T10:00:00Z",
        seats=(SeatEntry("ana"),),
        commitment=commitment(SEED),
        server_seed=SEED,
        client_seed="abc",
        events=(
            ThrowEntry(0, 0, throw_dice(SEED, "abc", 0), None),
            OutEntry(0, "resigned"),
        ),
        result=RecordResult(rounds=1, totals=(0,), shut=(None,), places=(1,), winners=()),
    )
    v = verify(r)
    assert v.ok, v.problem
    assert v.summary == "valid: jackpot, 1 seat, 1 throws, no winner"
    assert "outs: seat 0 (ana) resigned" in v.checks


def test_bot_cover_must_follow_its_strength() -> None:
    # Find a bot throw with more than one option and swap in another legal option.
    for seed in range(50):
        played = play(_plan(Variant.JACKPOT, (True,), play_seed=seed))
        r = played.record
        for i, e in _throws(r):
            opts = played.offered[e.n]
            if e.cover and len(opts) > 1:
                other = next(o for o in opts if o != e.cover)
                problem = _failed(verify(_with_event(r, i, replace(e, cover=other))))
                strength = r.seats[0].bot
                assert problem == (
                    f"throw {e.n + 1}: seat 0 (Bot 1) is a {strength} bot and covers "
                    f"[{e.cover[0]}] here, not [{other[0]}]"
                )
                return
    raise AssertionError("no bot throw with a choice found")


def test_a_spread_of_matches_verifies_and_covers_every_case() -> None:
    """The generator is not vacuous: over a fixed spread it reaches every kind of
    record the verifier must accept, and each one verifies."""
    seen: dict[str, int] = dict.fromkeys(
        [
            "jackpot",
            "classic",
            "solo",
            "4 seats",
            "bot",
            "cover null",
            "timeout",
            "resigned",
            "one die",
            "bot one die",
            "shut",
            "draw",
            "no winner",
        ],
        0,
    )
    for plan in fixed_plans(120, seed=2026):
        r = play(plan).record
        v = verify(r)
        assert v.ok, (plan, v.problem)
        assert r.result is not None
        outs = [e for e in r.events if isinstance(e, OutEntry)]
        flags = {
            str(r.variant): True,
            "solo": len(r.seats) == 1,
            "4 seats": len(r.seats) == 4,
            "bot": any(s.bot for s in r.seats),
            "cover null": any(e.cover is None for e in r.throws),
            "timeout": any(e.reason == "timeout" for e in outs),
            "resigned": any(e.reason == "resigned" for e in outs),
            "one die": any(len(e.dice) == 1 for e in r.throws),
            "bot one die": any(len(e.dice) == 1 and r.seats[e.seat].bot for e in r.throws),
            "shut": any(x is not None for x in r.result.shut),
            "draw": len(r.result.winners) > 1,
            "no winner": not r.result.winners,
        }
        for key, hit in flags.items():
            seen[key] += hit
    assert all(seen.values()), seen


# ------------------------------------------------------------------ properties


@PROPERTY
@given(plans())
def test_random_legal_matches_verify(plan: Plan) -> None:
    played = play(plan)
    r = played.record
    v = verify(r)
    assert v.ok, v.problem
    assert v.summary.startswith(f"valid: {plan.variant}, {len(plan.bots)} seat")
    # The record survives its own JSON exactly, and still verifies from text.
    text = r.to_json()
    assert parse_record(text) == r
    assert verify(text).ok


@PROPERTY
@given(plans(), st.data())
def test_changing_one_die_is_caught(plan: Plan, data: st.DataObject) -> None:
    r = play(plan).record
    throws = _throws(r)
    assume(throws)
    i, e = data.draw(st.sampled_from(throws))
    k = data.draw(st.integers(0, len(e.dice) - 1))
    new = data.draw(st.integers(1, 6).filter(lambda d: d != e.dice[k]))
    dice = list(e.dice)
    dice[k] = new
    problem = _failed(verify(_with_event(r, i, replace(e, dice=tuple(dice)))))
    assert problem.startswith(f"throw {e.n + 1}: dice {dice}")
    assert "differ from the seed's" in problem


@PROPERTY
@given(plans(), st.data())
def test_a_cover_not_on_offer_is_caught(plan: Plan, data: st.DataObject) -> None:
    played = play(plan)
    r = played.record
    throws = [(i, e) for i, e in _throws(r) if e.cover is not None]
    assume(throws)
    i, e = data.draw(st.sampled_from(throws))
    offered = played.offered[e.n]
    if e.cover == ():
        bad: tuple[int, ...] = (data.draw(st.integers(1, 9)),)
        expected = f"throw {e.n + 1}: cover [{bad[0]}], but the dice offered nothing"
    else:
        tiles = data.draw(st.sets(st.integers(1, 9), min_size=1, max_size=3))
        bad = tuple(sorted(tiles))
        assume(bad not in offered)
        expected = f"throw {e.n + 1}: cover [{', '.join(map(str, bad))}] is not on offer"
    problem = _failed(verify(_with_event(r, i, replace(e, cover=bad))))
    assert problem.startswith(expected)


@PROPERTY
@given(plans(), st.data())
def test_another_legal_cover_by_a_bot_is_caught(plan: Plan, data: st.DataObject) -> None:
    played = play(plan)
    r = played.record
    choices = [
        (i, e)
        for i, e in _throws(r)
        if e.cover and r.seats[e.seat].bot is not None and len(played.offered[e.n]) > 1
    ]
    assume(choices)
    i, e = data.draw(st.sampled_from(choices))
    assert e.cover is not None
    other = data.draw(st.sampled_from([o for o in played.offered[e.n] if o != e.cover]))
    problem = _failed(verify(_with_event(r, i, replace(e, cover=other))))
    assert problem.startswith(f"throw {e.n + 1}: seat {e.seat} (")
    assert f"bot and covers {list(e.cover)} here" in problem


@PROPERTY
@given(plans(), st.data())
def test_changing_a_throws_seat_is_caught(plan: Plan, data: st.DataObject) -> None:
    assume(len(plan.bots) > 1)
    r = play(plan).record
    throws = _throws(r)
    assume(throws)
    i, e = data.draw(st.sampled_from(throws))
    seat = data.draw(st.sampled_from([s for s in range(len(r.seats)) if s != e.seat]))
    problem = _failed(verify(_with_event(r, i, replace(e, seat=seat))))
    assert problem.startswith(f"throw {e.n + 1}: seat {seat} (")
    assert "threw" in problem


@PROPERTY
@given(plans(), st.binary(min_size=32, max_size=32))
def test_changing_the_server_seed_is_caught(plan: Plan, other: bytes) -> None:
    r = play(plan).record
    assume(other.hex() != r.server_seed)
    problem = _failed(verify(replace(r, server_seed=other.hex())))
    assert problem.startswith("commitment: the SHA-256 of the server seed is ")


@PROPERTY
@given(plans(), st.data())
def test_changing_the_client_seed_is_caught(plan: Plan, data: st.DataObject) -> None:
    r = play(plan).record
    assert r.server_seed is not None
    seed = r.server_seed
    new = data.draw(st.text("abcdefghijklmnopqrstuvwxyz0123456789_-.", min_size=0, max_size=30))
    assume(new != r.client_seed)
    humans = sum(s.bot is None for s in r.seats)
    parts = new.split(".") if new else []
    # With no human seat any well-formed client seed is acceptable (see _check_client_seed).
    well_formed = (len(parts) == humans or humans == 0) and all(
        re.fullmatch(r"[A-Za-z0-9_-]{1,64}", p) for p in parts
    )
    # A well-formed change can only be seen through what it draws: skip the rare change
    # under which the order of play, every die and bot strength come out the same anyway.
    if well_formed:
        assume(
            any(throw_dice(seed, new, e.n, len(e.dice)) != e.dice for e in r.throws)
            or any(
                s.bot is not None and bot_strength(seed, new, i) is not s.bot
                for i, s in enumerate(r.seats)
            )
            or (
                r.joined is not None
                and order_of_play(seed, new, len(r.seats), people=humans) != r.joined
            )
        )
    problem = _failed(verify(replace(r, client_seed=new)))
    if well_formed:
        assert (
            "differ from the seed's" in problem
            or ".bot: record says" in problem
            or problem.startswith("joined: record says")
        )
    else:
        assert problem.startswith("client seed")


@PROPERTY
@given(plans(), st.data())
def test_changing_a_bot_strength_is_caught(plan: Plan, data: st.DataObject) -> None:
    r = play(plan).record
    bots = [i for i, s in enumerate(r.seats) if s.bot is not None]
    assume(bots)
    seat = data.draw(st.sampled_from(bots))
    other = data.draw(st.sampled_from([s for s in Strength if s is not r.seats[seat].bot]))
    seats = list(r.seats)
    seats[seat] = replace(seats[seat], bot=other)
    problem = _failed(verify(replace(r, seats=tuple(seats))))
    assert problem.startswith(f"seats[{seat}].bot: record says {other}, the seed draws")


def _tamper_result(result: RecordResult, data: st.DataObject) -> tuple[str, RecordResult]:
    n = len(result.totals)
    keys = ["rounds", "totals", "shut", "places", "winners"]
    if n == 1:
        keys.remove("places")  # one seat: the only place there is, is 1
    key = data.draw(st.sampled_from(keys))
    s = data.draw(st.integers(0, n - 1))
    changed: Any
    if key == "rounds":
        changed = result.rounds + data.draw(st.integers(1, 5))
    elif key == "totals":
        t = list(result.totals)
        t[s] += data.draw(st.integers(1, 9))
        changed = tuple(t)
    elif key == "shut":
        sh = list(result.shut)
        v = sh[s]
        sh[s] = (
            data.draw(st.integers(1, 20))
            if v is None
            else data.draw(st.sampled_from([None, v + 1]))
        )
        changed = tuple(sh)
    elif key == "places":
        p = list(result.places)
        p[s] = data.draw(st.integers(1, n).filter(lambda x: x != result.places[s]))
        changed = tuple(p)
    else:
        w = set(result.winners) ^ {s}
        changed = tuple(sorted(w))
    return key, replace(result, **{key: changed})


@PROPERTY
@given(plans(), st.data())
def test_changing_a_result_field_is_caught(plan: Plan, data: st.DataObject) -> None:
    r = play(plan).record
    assert r.result is not None
    key, wrong = _tamper_result(r.result, data)
    assume(wrong != r.result)
    problem = _failed(verify(replace(r, result=wrong)))
    assert problem.startswith(f"result.{key}: record says ")
    assert ", replay gives " in problem


def test_a_record_built_in_code_is_checked_like_a_parsed_one(jackpot_match: Played) -> None:
    r = jackpot_match.record
    i, e = _throws(r)[0]
    bad = _with_event(r, i, replace(e, seat=7))
    assert (
        _failed(verify(bad))
        == "format: events[0].seat: expected a seat number 0-2, got the number 7"
    )


_JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=5),
    st.lists(st.integers(-1, 10), max_size=4),
    st.dictionaries(st.sampled_from(["type", "n", "seat"]), st.integers(0, 3), max_size=3),
)


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(obj, dict):
        for k, v in obj.items():
            found += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for k, v in enumerate(obj):
            found += _paths(v, (*prefix, k))
    return found


@PROPERTY
@given(plans(), st.data())
def test_verify_never_crashes_on_a_damaged_record(plan: Plan, data: st.DataObject) -> None:
    """Any value anywhere: verify answers (ok or a named problem), it never raises."""
    d = play(plan).record.to_dict()
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(d)))
        target: Any = d
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = data.draw(_JUNK)
    v = verify(d)
    assert isinstance(v, Verification)
    assert v.ok == (v.problem is None)
    if not v.ok:
        assert v.problem and v.summary == f"invalid: {v.problem}"


def test_a_resignation_while_a_shutting_cover_is_pending_counts_first() -> None:
    """Classic, 3 seats: seat 2 throws, seat 0 resigns, then seat 2's cover shuts the box.

    The record keeps the cover with its throw, so the out is listed after it; the
    verifier must see that the out came first (the cover ended the match).
    """
    from jackpot.engine import Match
    from jackpot.fair import (
        Record,
        RecordEvent,
        RecordResult,
        SeatEntry,
        commitment,
        throw_dice,
    )
    from jackpot.fair.recorder import append_events

    seed = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
    for attempt in range(2000):
        client = f"a{attempt}.b.c"
        m = Match.new(Variant.CLASSIC, 3)
        log: list[RecordEvent] = []
        found = False
        while not m.finished:
            assert m.turn is not None
            seat, turn = m.turn.seat, m.turn
            if turn.dice is None:
                m, ev = m.throw(seat, throw_dice(seed, client, m.throws, 2))
            else:
                choice = turn.options[-1]
                if seat == 2 and set(choice) == turn.open and m.out[0] is None:
                    m, more = m.leave(0, "resigned")
                    append_events(log, more)
                    found = True
                m, ev = m.cover(seat, choice)
            append_events(log, ev)
        if found:
            break
    assert found and m.result is not None and m.result.winners == (2,)
    record = Record(
        id="m_test",
        variant=Variant.CLASSIC,
        deadline_seconds=3600,
        created="2026-11-30T10:00:00Z",
        seats=(SeatEntry("ana"), SeatEntry("bo"), SeatEntry("cy")),
        commitment=commitment(seed),
        server_seed=seed,
        client_seed=client,
        events=tuple(log),
        result=RecordResult(**m.result.to_dict()),
    )
    v = verify(record)
    assert v.ok, v.problem
    assert record.to_dict()["events"][-1] == {"type": "out", "seat": 0, "reason": "resigned"}
