"""A tournament's export, played by bots and checked from first principles, and tampered."""

from __future__ import annotations

import copy
import hashlib
import json
from fractions import Fraction
from typing import Any

import pytest

from jackpot.engine import Variant
from jackpot.fair import commitment
from jackpot.fair.fields import RecordFormatError
from jackpot.fair.tournament import (
    FORMAT,
    Apart,
    Settings,
    TournamentExport,
    parse_tournament,
)
from jackpot.fair.tournament_play import Player, Withdrawal, play_tournament
from jackpot.fair.verify_tournament import verify_tournament
from jackpot.strategy.strength import Strength

STRENGTHS = (Strength.LOWEST, Strength.HIGHEST, Strength.BEST)
NAMES = ("ana", "ben", "cy", "dan", "eve", "fay", "gil", "hal", "ida", "jo", "kim")


def settings(**changes: Any) -> Settings:
    base: dict[str, Any] = {
        "variant": Variant.JACKPOT,
        "table_size": 3,
        "deadline_seconds": 86400,
        "spares": 2,
        "rounds": 4,
        "round_seconds": 7 * 86400,
        "starts": "2026-12-10T18:00:00Z",
        "public": True,
        "max_players": 32,
    }
    return Settings(**(base | changes))


def part(i: int) -> str:
    return hashlib.sha256(f"part {i}".encode()).hexdigest()


def players(count: int) -> list[Player]:
    return [
        Player(NAMES[i], float(i % 4), f"seed-{NAMES[i]}", part(i), STRENGTHS[i % 3])
        for i in range(count)
    ]


@pytest.fixture(scope="module")
def played() -> TournamentExport:
    """Ten players at tables of 3 over four rounds: a table whose round's time ran out,
    a withdrawal mid-match, a pair kept apart from round 2 on."""
    return play_tournament(
        settings(),
        players(10),
        tournament_id="t_test",
        name="Test Swiss",
        apart=[Apart((0, 1), 2)],
        withdrawals=[Withdrawal(player=3, round=2, after_throws=3)],
        time_up={(2, 1): 5},
    )


@pytest.fixture
def doc(played: TournamentExport) -> dict[str, Any]:
    return copy.deepcopy(played.to_dict())


def test_a_tournament_played_by_bots_verifies(played: TournamentExport) -> None:
    report = verify_tournament(played)
    assert report.ok, report.problem
    assert report.summary.startswith("valid: Test Swiss, 10 players, 4 rounds")
    assert any("ended with their round when its time ran out" in c for c in report.checks)
    assert report.checks[-1].startswith("parts: every table's server seed")
    # The JSON text reads back to the same export and verifies too.
    assert parse_tournament(played.to_json()) == played
    assert verify_tournament(played.to_json()).ok


def test_what_the_export_shows_follows_the_rules(played: TournamentExport) -> None:
    kept = {0, 1}
    for r in played.rounds:
        for t in r.tables:
            assert 2 <= len(t.players) <= 3
            if r.round >= 2:
                assert not kept <= set(t.players)
            if r.round >= 3:
                assert 3 not in t.players  # withdrew in round 2
        assert r.byes == ()  # 10 and 9 players at tables of 3 need no bye
    # 10 players: 3, 3, 2, 2; then 9 (one withdrew): 3, 3, 3.
    assert [len(t.players) for t in played.rounds[0].tables] == [3, 3, 2, 2]
    assert [len(t.players) for t in played.rounds[2].tables] == [3, 3, 3]
    assert played.rounds[1].withdrawn == (3,)
    first = played.rounds[1].tables[0].record.to_dict()["events"]
    assert {"type": "last_round", "round": 1} in first
    # The withdrawal resigned the match being played.
    quit_table = next(t for t in played.rounds[1].tables if 3 in t.players)
    outs = [e for e in quit_table.record.to_dict()["events"] if e["type"] == "out"]
    assert outs and outs[0]["reason"] == "resigned"
    assert sum(s.points for s in played.standings) == sum(
        Fraction(len(t.players), 2) for r in played.rounds for t in r.tables
    )


@pytest.mark.parametrize(
    ("size", "count", "variant"),
    [(2, 7, Variant.CLASSIC), (4, 10, Variant.JACKPOT), (4, 5, Variant.CLASSIC)],
)
def test_other_sizes_and_variants_verify(size: int, count: int, variant: Variant) -> None:
    export = play_tournament(settings(table_size=size, variant=variant, rounds=3), players(count))
    report = verify_tournament(export)
    assert report.ok, report.problem
    if count == 7:
        assert [len(r.byes) for r in export.rounds] == [1, 1, 1]
        assert len({r.byes[0] for r in export.rounds}) == 3  # a new player each round


def test_the_helper_is_a_function_of_its_arguments() -> None:
    assert play_tournament(settings(rounds=2), players(6)) == play_tournament(
        settings(rounds=2), players(6)
    )


def test_a_tournament_in_play_waits_for_its_parts() -> None:
    export = play_tournament(settings(), players(8), rounds=2)
    assert export.status == "playing" and all(e.part is None for e in export.entries)
    report = verify_tournament(export)
    assert not report.ok and report.awaiting_parts
    assert "published when it ends" in (report.problem or "")
    assert any(c.startswith("standings after round 2") for c in report.checks)


def expect(doc: dict[str, Any], words: str) -> str:
    report = verify_tournament(json.dumps(doc))
    assert not report.ok and not report.awaiting_parts, report.summary
    assert report.problem is not None and words in report.problem, report.problem
    return report.problem


def test_a_changed_pairing_is_refused(doc: dict[str, Any]) -> None:
    top, second = doc["rounds"][1]["tables"][0], doc["rounds"][1]["tables"][1]
    top["players"][0], second["players"][0] = second["players"][0], top["players"][0]
    problem = expect(doc, "round 2, table 1: the export seats")
    assert "but the standings after round 1 seat" in problem


def test_a_table_listed_out_of_joining_order_is_refused(doc: dict[str, Any]) -> None:
    table = doc["rounds"][0]["tables"][0]
    table["players"].reverse()
    expect(doc, "round 1, table 1: the players are listed")


def test_a_changed_point_is_refused(doc: dict[str, Any]) -> None:
    table = doc["rounds"][2]["tables"][1]
    won = table["points"].index("1")
    table["points"][won] = "1/2"
    problem = expect(doc, "round 3, table 2 (")
    assert "'s points are 1/2 in the export, but place 1 of 3 gives 1" in problem


def test_a_changed_standing_is_refused(doc: dict[str, Any]) -> None:
    fifth = copy.deepcopy(doc["standings"][4])
    doc["standings"][4]["points"] = str(Fraction(fifth["points"]) + 1)
    expect(doc, "points in the export, but the rounds give")
    doc["standings"][4] = fifth | {"buchholz": "0"}
    expect(doc, "'s Buchholz is 0 in the export, but the points of those they sat with")
    doc["standings"][4] = fifth
    doc["standings"][3], doc["standings"][4] = doc["standings"][4], doc["standings"][3]
    expect(doc, "standings: place 4 is")


def test_a_changed_part_is_refused(doc: dict[str, Any]) -> None:
    entry = doc["entries"][2]
    entry["part"] = part(99)
    problem = expect(doc, "entries[2] (cy): the part's SHA-256 is")
    assert "not the commitment" in problem
    # A part swapped with its commitment: the tables' records name another.
    entry["commitment"] = commitment(part(99))
    problem = expect(doc, "round 1, table 1 (dan, hal and cy): the record's parts[2] is committed")
    assert f"but cy entered with the commitment {commitment(part(99))}" in problem


def test_a_record_whose_seed_is_not_made_of_its_parts_is_refused(doc: dict[str, Any]) -> None:
    record = doc["rounds"][3]["tables"][0]["record"]
    record["tournament"]["table"] = 2  # the suffix now says another table
    expect(doc, "round 4, table 1 (")
    record["tournament"]["table"] = 1
    record["parts"][0]["part"] = part(98)
    expect(doc, "the record shows " + part(98))


def test_a_changed_bye_or_withdrawal_is_refused() -> None:
    export = play_tournament(settings(table_size=2, rounds=2), players(5))
    doc = export.to_dict()
    doc["rounds"][0]["byes"] = [0]
    expect(doc, "round 1: the export gives a bye to ana, but the ratings give one to")
    doc = export.to_dict()
    doc["rounds"][0]["withdrawn"] = [1]
    # ben withdrew in round 1 yet is paired in round 2.
    expect(doc, "round 2, table")


def test_a_changed_match_record_is_refused(doc: dict[str, Any]) -> None:
    record = doc["rounds"][0]["tables"][1]["record"]
    throw = next(e for e in record["events"] if e["type"] == "throw")
    throw["dice"] = [d % 6 + 1 for d in throw["dice"]]
    problem = expect(doc, "round 1, table 2 (")
    assert "the match record is invalid: throw 1: dice" in problem


def test_a_record_of_other_players_or_seeds_is_refused(doc: dict[str, Any]) -> None:
    record = doc["rounds"][0]["tables"][0]["record"]
    record["seats"][0]["name"] = "mallory"
    expect(doc, "the record's seat 0 is 'mallory'")


def test_the_status_and_the_parts_agree(doc: dict[str, Any]) -> None:
    hidden = copy.deepcopy(doc)
    hidden["entries"][0]["part"] = None
    expect(hidden, "entries[0] (ana): the tournament ended, but this part is not published")
    playing = copy.deepcopy(doc)
    playing["status"] = "playing"
    expect(playing, "a part is published while the tournament is being played")


def test_a_malformed_export_says_which_field() -> None:
    for doc, words in [
        ({"format": "jackpot-record/3"}, "format: expected 'jackpot-tournament/1'"),
        ("[", "format: not JSON"),
    ]:
        report = verify_tournament(doc if isinstance(doc, str) else json.dumps(doc))
        assert not report.ok and words in (report.problem or "")
    export = play_tournament(settings(rounds=1), players(4))
    doc = export.to_dict()
    doc["rounds"][0]["tables"][0]["points"] = ["2/2", "0"]
    with pytest.raises(RecordFormatError, match=r"points\[0\]: expected .* lowest terms"):
        parse_tournament(doc)
    doc = export.to_dict()
    doc["rounds"][0]["tables"][0]["record"]["events"][0]["dice"] = [7, 1]
    with pytest.raises(RecordFormatError, match=r"rounds\[0\].tables\[0\].record: events\[0\]"):
        parse_tournament(doc)
    assert export.to_dict()["format"] == FORMAT


def test_a_rating_must_be_a_finite_number() -> None:
    doc = play_tournament(settings(rounds=1), players(4)).to_dict()
    for bad in (float("nan"), True, "7"):
        doc["entries"][1]["rating"] = bad
        with pytest.raises(RecordFormatError, match=r"entries\[1\].rating: expected a finite"):
            parse_tournament(json.dumps(doc))
