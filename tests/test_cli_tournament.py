"""`jackpot selfplay-tournament` and `jackpot verify-tournament` as a user runs them."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

from jackpot.engine import Variant
from jackpot.fair.tournament import Settings
from jackpot.fair.tournament_play import Player, play_tournament


def jackpot(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "jackpot.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_bots_tournament_piped_into_the_verifier_is_valid() -> None:
    made = jackpot("selfplay-tournament", "--players", "7", "--table-size", "2",
                   "--rounds", "3", "--seed", "demo")  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert json.loads(made.stdout)["format"] == "jackpot-tournament/1"
    again = jackpot("selfplay-tournament", "--players", "7", "--table-size", "2",
                    "--rounds", "3", "--seed", "demo")  # fmt: skip
    assert again.stdout == made.stdout  # the seed fixes every part, so every die
    done = jackpot("verify-tournament", "-v", "-", stdin=made.stdout)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok  round 3: 3 table(s) as the standings after round 2 pair them, bye:" in done.stdout
    assert done.stdout.splitlines()[-1].startswith("valid: Bots' Swiss, 7 players, 3 rounds")


def test_exit_codes_for_tampered_unreadable_and_unfinished_exports(tmp_path: Path) -> None:
    made = jackpot("selfplay-tournament", "--players", "6", "--rounds", "2", "--seed", "t")
    doc = json.loads(made.stdout)
    doc["standings"][0]["points"] = "15"
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(doc))
    done = jackpot("verify-tournament", str(tampered))
    assert done.returncode == 1
    assert done.stdout.startswith("INVALID: standings: Bot ") and "has 15 points" in done.stdout

    record = tmp_path / "record.json"
    record.write_text(jackpot("selfplay").stdout)
    done = jackpot("verify-tournament", str(record))
    assert done.returncode == 2 and "not a tournament export" in done.stderr
    done = jackpot("verify-tournament", str(tmp_path / "missing.json"))
    assert done.returncode == 2 and "cannot read" in done.stderr

    settings = Settings(Variant.CLASSIC, 3, 3600, 0, 3, 86400, "2026-12-10T18:00:00Z", True, 9)
    players = [
        Player(f"p{i}", 0.0, f"c{i}", hashlib.sha256(bytes([i])).hexdigest()) for i in range(5)
    ]
    playing = tmp_path / "playing.json"
    playing.write_text(play_tournament(settings, players, rounds=1).to_json())
    done = jackpot("verify-tournament", str(playing))
    assert done.returncode == 3
    assert done.stdout.startswith("NOT YET VERIFIABLE: the tournament is being played")
