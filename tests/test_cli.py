"""The `jackpot` command as a user runs it: a real subprocess, real exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from jackpot.engine import RULES, Match, Variant
from jackpot.fair import (
    DailyDeal,
    Record,
    RecordEvent,
    SeatEntry,
    commitment,
    daily_client_seed,
    throw_dice,
)
from jackpot.fair.recorder import append_events
from jackpot.strategy.autoplay import play_bots
from jackpot.strategy.strength import Strength

SEED = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"


def jackpot(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "jackpot.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_help_lists_every_command() -> None:
    out = jackpot("--help").stdout
    for command in ("verify", "solve", "simulate", "selfplay", "serve", "sweep", "bench"):
        assert command in out


def test_bench_takes_its_own_options_and_others_refuse_unknown_ones() -> None:
    bench = jackpot("bench", "--help")
    assert bench.returncode == 0 and "--rate" in bench.stdout and "--matches" in bench.stdout
    bad = jackpot("bench", "--matches", "0")
    assert bad.returncode == 2 and "keep it bounded" in bad.stderr
    other = jackpot("solve", "--no-such-option")
    assert other.returncode == 2 and "unrecognized arguments" in other.stderr


def test_solve_json_gives_the_known_full_board_figures() -> None:
    done = jackpot("solve", "--json")
    assert done.returncode == 0
    data = json.loads(done.stdout)
    assert data["variant"] == "jackpot" and data["open"] == list(range(1, 10))
    assert round(data["p_shut_max"], 7) == 0.0799874
    assert data["policies"]["best"]["p_shut"] == data["p_shut_max"]
    assert set(data["policies"]) == {"lowest", "highest", "best"}
    assert data["exact"]["p_shut_max"] == "14103327415/176319369216"
    classic = json.loads(jackpot("solve", "--variant", "classic", "--json").stdout)
    assert round(classic["p_shut_max"], 7) == 0.0976137


def test_solve_rejects_a_bad_open_set() -> None:
    done = jackpot("solve", "--open", "1,1,12")
    assert done.returncode != 0 and "--open" in done.stderr


def test_simulate_is_reproducible_from_its_seed_and_near_the_exact_value() -> None:
    args = ("simulate", "--turns", "50000", "--seed", "7", "--json")
    first, second = json.loads(jackpot(*args).stdout), json.loads(jackpot(*args).stdout)
    assert first == second
    low, high = first["interval95"]
    assert low <= first["shut_rate"] <= high
    assert sum(first["histogram"]) == 50000
    assert abs(first["mean_score"] - first["exact_expected_score"]) < 0.2


@pytest.mark.parametrize("variant", ["jackpot", "classic"])
def test_selfplay_piped_into_verify_is_valid(variant: str) -> None:
    record = jackpot("selfplay", "--variant", variant, "--seats", "3", "--server-seed", SEED).stdout
    assert json.loads(record)["server_seed"] == SEED
    done = jackpot("verify", "-", stdin=record)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("valid")


def test_verify_exit_codes_for_tampered_and_unreadable_records(tmp_path: Path) -> None:
    record = json.loads(jackpot("selfplay", "--server-seed", SEED).stdout)
    first = record["events"][0]
    first["dice"] = [7 - first["dice"][0], first["dice"][1]]
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(record))
    done = jackpot("verify", str(tampered))
    assert done.returncode == 1
    assert "throw 1:" in done.stdout and "dice" in done.stdout  # counted from 1, as on the page
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    assert jackpot("verify", str(garbage)).returncode == 2
    assert jackpot("verify", str(tmp_path / "missing.json")).returncode == 2


def test_selfplay_writes_v3_and_verify_reads_the_older_formats(tmp_path: Path) -> None:
    record = json.loads(jackpot("selfplay", "--seats", "3", "--server-seed", SEED).stdout)
    assert record["format"] == "jackpot-record/3"
    # Bots only: nobody to draw for, so they keep their joining order.
    assert record["joined"] == [0, 1, 2]
    record["joined"] = [1, 0, 2]
    moved = tmp_path / "moved.json"
    moved.write_text(json.dumps(record))
    done = jackpot("verify", str(moved))
    assert done.returncode == 1
    assert done.stdout == (
        "INVALID: joined: record says [1, 0, 2], "
        "but a match without people keeps the joining order\n"
    )
    # The same Jackpot match (whose places no rule of /3 changes) as /1, with no order
    # of play to check, still verifies.
    record["format"] = "jackpot-record/1"
    del record["joined"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(record))
    done = jackpot("verify", str(old))
    assert done.returncode == 0 and done.stdout.startswith("valid: jackpot, 3 seats")


def test_simulate_actions_counts_what_autoplay_leaves() -> None:
    args = ("simulate", "--actions", "--turns", "2000", "--seed", "5", "--json")
    out = json.loads(jackpot(*args).stdout)
    assert out["turns"] == 2000 and out["seed"] == 5
    rows = out["per_turn"]
    # Every Jackpot throw is forced, so autoplay leaves only the covers with a choice.
    assert rows["chosen_throws"]["mean"] == 0
    assert rows["autoplay_both"]["mean"] == rows["chosen_covers"]["mean"]
    for row in rows.values():
        low, high = row["interval95"]
        assert low <= row["mean"] <= high
        assert abs(row["mean"] - row["exact"]) <= 3 * (high - low)
    assert f"{rows['without_autoplay']['exact']:.3g}" == "13.8"
    text = jackpot(*args[:-1]).stdout
    assert text.startswith("2,000 jackpot turns by the best bot, on the engine (seed 5)")
    assert "actions with autoplay (real choices)" in text


def daily_entry(server_seed: str | None, keep: int | None = None) -> dict[str, Any]:
    """The lowest bot's entry in the Jackpot deal of 2026-12-06, as a person's record;
    ``keep`` cuts it to its first events (an entry still being played)."""
    client = daily_client_seed("2026-12-06", "jackpot")
    match, events = play_bots(
        Match.new_daily(Variant.JACKPOT),
        [Strength.LOWEST],
        lambda n, count: throw_dice(SEED, client, n, count),
    )
    log: list[RecordEvent] = []
    append_events(log, events)
    result = match.result if keep is None else None
    return Record(
        id="m_daily",
        variant=Variant.JACKPOT,
        deadline_seconds=None,
        created="2026-12-06T09:00:00Z",
        seats=(SeatEntry("ana"),),
        commitment=commitment(SEED),
        server_seed=server_seed,
        client_seed=client,
        events=tuple(log[:keep]),
        result=result,
        joined=(0,),
        rules=RULES,
        daily=DailyDeal("2026-12-06"),
    ).to_dict()


def test_verify_prints_a_daily_entry_against_par(tmp_path: Path) -> None:
    path = tmp_path / "daily.json"
    path.write_text(json.dumps(daily_entry(SEED)))
    done = jackpot("verify", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("valid: daily jackpot 2026-12-06, ")
    assert lines[1] == "  turn    " + "  ".join(str(t) for t in range(1, 10)) + " 10"
    assert lines[2].startswith("  entry ")
    assert lines[3] == (
        "  par    11 28 15 22  0 35 10 22 16 14   1 jackpot, total 173 (the best bot)"
    )
    assert lines[4].startswith("  against par: ")


def test_verify_of_a_daily_entry_before_its_day_closes(tmp_path: Path) -> None:
    path = tmp_path / "playing.json"
    path.write_text(json.dumps(daily_entry(None, keep=12)))
    done = jackpot("verify", "-v", str(path))
    assert done.returncode == 3, done.stdout + done.stderr
    assert "NOT YET VERIFIABLE: the server seed is not published yet" in done.stdout
    assert "ok  covers: every cover was on offer" in done.stdout
    assert "  entry  17 (turn 2 being played)\n  par    waits for the seed" in done.stdout
    tampered = daily_entry(SEED)
    tampered["result"]["total"] += 1
    path.write_text(json.dumps(tampered))
    done = jackpot("verify", str(path))
    assert done.returncode == 1 and done.stdout.startswith("INVALID: result.total: record says")


def test_verify_reads_a_v4_record_and_waits_for_its_parts(tmp_path: Path) -> None:
    doc = (Path(__file__).parents[1] / "docs" / "fair-play.md").read_text(encoding="utf-8")
    block = doc.split("### A whole record with parts and spares", 1)[1]
    record = json.loads(block.split("```json\n", 1)[1].split("```", 1)[0])
    assert record["format"] == "jackpot-record/4"
    path = tmp_path / "v4.json"
    path.write_text(json.dumps(record))
    done = jackpot("verify", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == [
        "valid: classic, 2 seats, 5 throws, winner seat 0 (ben)",
        "  origin: a challenge (c_3f2a)",
    ]
    for part in record["parts"]:
        part["part"] = None
    record["seats"][1]["seed_by"] = "server"
    path.write_text(json.dumps(record))
    done = jackpot("verify", "-v", str(path))
    assert done.returncode == 3, done.stdout + done.stderr
    assert "NOT YET VERIFIABLE: the parts of the server seed are not published yet" in done.stdout
    assert "ok  spares: each seat had 1 spare deadline(s)" in done.stdout
    assert (
        "  client seed: the server made the part of seat 1 (ana), as none was sent with the seat"
        in done.stdout
    )
