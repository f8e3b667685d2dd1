"""Daily entries in jackpot-record/3: they read, verify against par, and any change is caught."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Any

import pytest
from fair_dailygen import DailyPlan, PlayedDaily, daily_plans, play_daily
from hypothesis import HealthCheck, given, settings

from jackpot.engine import THROW_STRIDE, DailyResult, Variant, versus_par
from jackpot.fair import (
    RecordFormatError,
    ThrowEntry,
    check_daily_date,
    daily_client_seed,
    parse_record,
    throw_dice,
)
from jackpot.fair.par import daily_par
from jackpot.fair.verify import Verification, verify

SEED = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
DAY = "2026-12-06"

PROPERTY = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def plan(ending: str, variant: Variant = Variant.JACKPOT, published: bool = True) -> DailyPlan:
    return DailyPlan(variant, SEED, DAY, play_seed=11, ending=ending, published=published)  # type: ignore[arg-type]


def failed(v: Verification) -> str:
    assert not v.ok and not v.awaiting_seed, v.summary
    assert v.problem is not None and v.summary == f"invalid: {v.problem}"
    return v.problem


def where(record_dict: dict[str, Any], i: int) -> str:
    n = record_dict["events"][i]["n"]
    return f"turn {n // THROW_STRIDE + 1}, throw {n % THROW_STRIDE + 1}"


# ------------------------------------------------------------------ the deal itself


def test_the_deals_client_seed_and_its_dice() -> None:
    client = daily_client_seed(DAY, Variant.JACKPOT)
    assert client == "daily-2026-12-06-jackpot"
    assert daily_client_seed(DAY, "classic") == "daily-2026-12-06-classic"
    assert throw_dice(SEED, client, 0) == (4, 6)
    assert throw_dice(SEED, client, 50) == (6, 1)


@pytest.mark.parametrize("day", ["2026-02-30", "20261206", "2026-1-6", "2026-12-06T00:00", 7])
def test_a_date_must_be_a_day_of_the_calendar(day: object) -> None:
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        check_daily_date(day)
    with pytest.raises(ValueError):
        daily_client_seed("2026-12-06", "pub")


def test_par_is_the_best_bot_on_the_same_dice() -> None:
    par = daily_par(SEED, DAY, Variant.JACKPOT)
    assert par.result == DailyResult((11, 28, 15, 22, 0, 35, 10, 22, 16, 14), 1, 173)
    assert daily_par(SEED, DAY, "classic").result == DailyResult(
        (11, 12, 18, 17, 11, 1, 14, 0, 10, 9), 1, 103
    )
    # The bot's play is a legal entry of the deal, level with par.
    record = play_daily(plan("finished")).record
    as_entry = replace(record, events=par.events, result=par.result)
    v = verify(as_entry)
    assert v.ok, v.problem
    assert v.daily is not None and v.daily.versus is not None
    assert v.daily.versus.standing == "level"
    assert v.summary.endswith("level with par (the same total)")


# ------------------------------------------------------------------ whole entries


def test_a_finished_entry_verifies_against_par() -> None:
    played = play_daily(plan("finished"))
    v = verify(played.record)
    assert v.ok, v.problem
    report = v.daily
    assert report is not None and report.ending == "finished" and report.turns_played == 10
    par = daily_par(SEED, DAY, Variant.JACKPOT).result
    assert report.result == played.record.result and report.par == par
    assert report.versus == versus_par(report.result, par)
    assert v.checks[0] == "format: the record is well-formed jackpot-record/3 (a daily entry)"
    assert "client seed: 'daily-2026-12-06-jackpot', fixed by the deal's date" in v.checks[2]
    assert "turns: all 10 played, each from a full board" in v.checks
    assert v.summary.startswith("valid: daily jackpot 2026-12-06, ")
    assert "; par 1 jackpot, total 173: " in v.summary


@pytest.mark.parametrize(
    ("ending", "words"),
    [("gave_up", "the player gave up in turn"), ("day_closed", "the day closed in turn")],
)
def test_an_entry_ended_early_scores_45_for_the_rest(ending: str, words: str) -> None:
    played = play_daily(plan(ending, Variant.CLASSIC))
    v = verify(played.record)
    assert v.ok, v.problem
    assert v.daily is not None and v.daily.ending == ending
    result = played.record.result
    assert isinstance(result, DailyResult)
    played_turns = v.daily.turns_played
    assert result.turn_scores[played_turns:] == (45,) * (10 - played_turns)
    assert any(words in c for c in v.checks)
    reason = "resigned" if ending == "gave_up" else "timeout"
    assert played.record.to_dict()["events"][-1] == {"type": "out", "seat": 0, "reason": reason}


def test_an_entry_before_its_day_closes_checks_the_moves_and_waits_for_the_seed() -> None:
    playing = play_daily(plan("playing", published=False)).record
    assert playing.result is None and playing.server_seed is None
    v = verify(playing)
    assert v.awaiting_seed and not v.ok
    assert v.problem == (
        "the server seed is not published yet (it is published when the day ends, at "
        "00:00 UTC on 2026-12-07): the dice and par wait for it"
    )
    assert v.daily is not None and v.daily.ending == "playing" and v.daily.par is None
    assert any(c.startswith("covers:") for c in v.checks)
    assert not any(c.startswith(("commitment:", "dice:")) for c in v.checks)

    finished = play_daily(plan("finished", published=False)).record
    v = verify(finished)
    assert v.awaiting_seed and "result: turn scores, jackpots and total" in v.checks[-1]
    assert v.daily is not None and v.daily.result == finished.result


def test_the_record_round_trips_in_its_canonical_form() -> None:
    record = play_daily(plan("gave_up")).record
    d = record.to_dict()
    assert list(d)[:5] == ["format", "id", "variant", "daily", "deadline_seconds"]
    assert d["daily"] == {"date": DAY, "turns": 10} and d["joined"] == [0]
    assert d["deadline_seconds"] is None and d["seats"] == [{"name": "player1", "bot": None}]
    assert set(d["result"]) == {"turn_scores", "jackpots", "total"}
    assert parse_record(record.to_json()) == record
    assert parse_record(d).to_dict() == d


# ------------------------------------------------------------------ what is refused


def edited(record_dict: dict[str, Any], change: Any) -> dict[str, Any]:
    d = copy.deepcopy(record_dict)
    change(d)
    return d


MALFORMED = [
    (lambda d: d["seats"].append({"name": "b", "bot": None}), "seats: expected one seat"),
    (lambda d: d["seats"][0].update(bot="best"), r"seats\[0\].bot: expected null"),
    (lambda d: d.update(deadline_seconds=3600), "deadline_seconds: expected null"),
    (lambda d: d["daily"].update(turns=9), "daily.turns: expected 10"),
    (lambda d: d["daily"].update(date="2026-13-01"), "daily.date: expected a day"),
    (lambda d: d["daily"].pop("turns"), "daily: missing field 'turns'"),
    (lambda d: d["result"]["turn_scores"].pop(), "result.turn_scores: expected a list of 10"),
    (lambda d: d["result"]["turn_scores"].__setitem__(0, 46), r"result.turn_scores\[0\]"),
    (lambda d: d["result"].update(places=[1]), "result: unknown field 'places'"),
    (lambda d: d.update(format="jackpot-record/2"), "record: unknown field 'daily'"),
]


@pytest.mark.parametrize(("change", "message"), MALFORMED)
def test_a_malformed_daily_record_is_named(change: Any, message: str) -> None:
    d = edited(play_daily(plan("finished")).record.to_dict(), change)
    with pytest.raises(RecordFormatError, match=message):
        parse_record(d)
    assert failed(verify(d)).startswith("format: ")


def test_a_changed_die_is_named_by_its_turn_and_throw() -> None:
    d = play_daily(plan("finished")).record.to_dict()
    i = next(i for i, e in enumerate(d["events"]) if e["n"] >= 3 * THROW_STRIDE)
    fair = list(d["events"][i]["dice"])
    d["events"][i]["dice"][0] = fair[0] % 6 + 1
    problem = failed(verify(d))
    assert problem.startswith(f"{where(d, i)}: dice ")
    assert problem.endswith(f"differ from the seed's [{fair[0]}, {fair[1]}]")


def test_numbering_that_runs_on_across_turns_is_refused() -> None:
    d = play_daily(plan("finished")).record.to_dict()
    # Number turn 1's throws on from turn 0's, as a match would.
    first = next(i for i, e in enumerate(d["events"]) if e["n"] == THROW_STRIDE)
    last_n = d["events"][first - 1]["n"]
    d["events"][first]["n"] = last_n + 1
    assert failed(verify(d)) == (
        f"turn 2, throw 1: numbered n={last_n + 1}, but turn 2's throw 1 is "
        "n = 16×1 + 0 = 16 (turn 1 ended with its previous throw)"
    )


@pytest.mark.parametrize(
    ("change", "start"),
    [
        (lambda d: d["result"]["turn_scores"].__setitem__(0, 44), "result.turn_scores: record"),
        (lambda d: d["result"].update(jackpots=d["result"]["jackpots"] + 1), "result.jackpots"),
        (lambda d: d["result"].update(total=d["result"]["total"] - 1), "result.total: record"),
        (lambda d: d.update(client_seed="daily-2026-12-05-jackpot"), "client seed: the record"),
        (lambda d: d["daily"].update(date="2026-12-05"), "client seed: the record says"),
        (lambda d: d.update(result=None), "result: record says null, replay gives {"),
        (lambda d: d["events"].pop(), "events: the day is over (its seed is published)"),
        (
            lambda d: d["events"].append({"type": "out", "seat": 0, "reason": "resigned"}),
            "events[",
        ),
    ],
)
def test_every_change_to_a_given_up_entry_is_caught(change: Any, start: str) -> None:
    d = edited(play_daily(plan("gave_up")).record.to_dict(), change)
    assert failed(verify(d)).startswith(start)


# ------------------------------------------------------------------ properties


@PROPERTY
@given(daily_plans())
def test_random_daily_entries_verify(p: DailyPlan) -> None:
    record = play_daily(p).record
    v = verify(record)
    if p.published:
        assert v.ok, (p, v.problem)
        assert v.daily is not None and v.daily.par is not None and v.daily.versus is not None
    else:
        assert v.awaiting_seed, (p, v.problem)
    assert v.daily is not None and v.daily.ending == p.ending
    assert parse_record(json.loads(record.to_json())) == record


def _tamper_cover(played: PlayedDaily) -> tuple[dict[str, Any], int] | None:
    d = played.record.to_dict()
    for i, e in enumerate(d["events"]):
        if e["type"] == "throw" and e["cover"]:
            offered = played.offered[e["n"]]
            wrong = [t for t in range(1, 10) if (t,) not in offered and [t] != e["cover"]]
            d["events"][i]["cover"] = [wrong[0]]
            return d, i
    return None


@PROPERTY
@given(daily_plans())
def test_a_cover_not_on_offer_is_caught_with_or_without_the_seed(p: DailyPlan) -> None:
    tampered = _tamper_cover(play_daily(p))
    if tampered is None:
        return
    d, i = tampered
    problem = failed(verify(d))
    assert problem.startswith(f"{where(d, i)}: cover [") and "is not on offer" in problem


@PROPERTY
@given(daily_plans(ending="finished"))
def test_a_changed_die_or_score_is_caught(p: DailyPlan) -> None:
    record = replace(play_daily(p).record, server_seed=p.server_seed)
    throws = [(i, e) for i, e in enumerate(record.events) if isinstance(e, ThrowEntry)]
    i, e = throws[p.play_seed % len(throws)]
    dice = (e.dice[0] % 6 + 1, *e.dice[1:])
    events = list(record.events)
    events[i] = replace(e, dice=dice)
    problem = failed(verify(replace(record, events=tuple(events))))
    assert problem.startswith(f"{where(record.to_dict(), i)}: dice ")
    result = record.result
    assert isinstance(result, DailyResult)
    scores = list(result.turn_scores)
    scores[p.play_seed % 10] ^= 1
    wrong = replace(result, turn_scores=tuple(scores))
    assert failed(verify(replace(record, result=wrong))).startswith("result.turn_scores:")


def test_an_unfinished_entry_has_no_result_yet() -> None:
    playing = play_daily(plan("playing", published=False)).record
    full = play_daily(plan("finished", published=False)).record
    problem = failed(verify(replace(playing, result=full.result)))
    assert problem.startswith("result: the record gives one, but by its throws the entry is not")
