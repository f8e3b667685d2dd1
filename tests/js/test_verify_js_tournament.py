"""The Verify page's check of a tournament export (static/verify-tournament.js, with
static/swiss.js pairing every round again) agrees with `jackpot verify-tournament`:
bots' tournaments at tables of 2 and of 4, with withdrawals, pairs kept apart and a
round that timed out, verify; a moved point, swapped seats, a wrong part, and an
export still played are each found."""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

import pytest
from js_records import node_call

from jackpot.engine import Variant
from jackpot.fair.tournament import Apart, Settings
from jackpot.fair.tournament_play import Player, Withdrawal, play_tournament
from jackpot.fair.verify_tournament import verify_tournament


def export(
    players: int, size: int, rounds: int = 3, rounds_played: int | None = None, **kw: Any
) -> dict[str, Any]:
    settings = Settings(
        variant=Variant.JACKPOT, table_size=size, deadline_seconds=86400, spares=2,
        rounds=rounds, round_seconds=172800, starts="2026-12-10T18:00:00Z", public=True,
        max_players=32,
    )  # fmt: skip
    people = [
        Player(f"p{i:02d}", float(i % 3), f"seed{i}", part(i))
        for i in range(players)
    ]
    return dict(play_tournament(settings, people, rounds=rounds_played, **kw).to_dict())


def part(i: int) -> str:
    return hashlib.sha256(f"part{i}".encode()).hexdigest()


def js(data: dict[str, Any]) -> dict[str, Any]:
    return dict(node_call("verifyTournament", json.loads(json.dumps(data))))


@pytest.mark.parametrize(
    ("players", "size", "extra"),
    [
        (7, 2, {}),
        (10, 4, {"withdrawals": [Withdrawal(3, 2, 4)], "apart": [Apart((0, 1), 2)]}),
        (5, 3, {"time_up": {(1, 1): 3}}),
    ],
)
def test_exports_the_python_verifier_accepts_verify(
    players: int, size: int, extra: dict[str, Any]
) -> None:
    data = export(players, size, **extra)
    assert verify_tournament(data).ok
    report = js(data)
    assert report["ok"], report
    assert len(report["checks"]) == 3 + 3  # format, parts, three rounds, standings


def test_a_tampered_export_is_refused_where_it_differs() -> None:
    data = export(7, 2)
    moved = copy.deepcopy(data)
    moved["standings"][0]["points"], moved["standings"][1]["points"] = (
        moved["standings"][1]["points"], moved["standings"][0]["points"],
    )  # fmt: skip
    if moved["standings"][0]["points"] != data["standings"][0]["points"]:
        report = js(moved)
        assert not report["ok"] and report["problem"].startswith("standings:"), report
    swapped = copy.deepcopy(data)
    table = swapped["rounds"][1]["tables"][0]
    other = swapped["rounds"][1]["tables"][1]
    table["players"][1], other["players"][1] = other["players"][1], table["players"][1]
    report = js(swapped)
    assert not report["ok"] and report["problem"].startswith("round 2, table 1:"), report
    wrong = copy.deepcopy(data)
    wrong["entries"][2]["part"] = "0" * 64
    report = js(wrong)
    assert not report["ok"] and "p02" in report["problem"], report
    points = copy.deepcopy(data)
    first = points["rounds"][0]["tables"][0]
    first["points"] = first["points"][::-1]
    report = js(points)
    assert not report["ok"] and report["problem"].startswith("round 1, table 1"), report


def test_an_export_still_played_waits_for_its_parts() -> None:
    playing = export(7, 2, rounds=3, rounds_played=2)
    assert playing["status"] == "playing"
    assert verify_tournament(playing).awaiting_parts
    report = js(playing)
    assert report["ok"] is False and report["pending"] is True and report["problem"] is None, report
    assert len(report["checks"]) == 2 + 2 + 1  # format, parts, two rounds, standings
    # A part shown while it is played is refused: it would tell later tables' dice.
    early = copy.deepcopy(playing)
    early["entries"][0]["part"] = part(0)
    report = js(early)
    assert report["ok"] is False and report["pending"] is False and "p00" in report["problem"]
