"""docs/tournaments.md is for people checking a tournament themselves: what it shows must hold."""

from __future__ import annotations

import re
from pathlib import Path

from jackpot.engine import pair, table_sizes
from jackpot.fair import commitment, throw_dice
from jackpot.fair.parts import TournamentTable, seed_from_parts
from jackpot.fair.verify_tournament import verify_tournament

DOC = (Path(__file__).parents[2] / "docs" / "tournaments.md").read_text(encoding="utf-8")


def test_the_example_export_verifies() -> None:
    example = DOC[DOC.index("## An example") :]
    text = re.search(r"```json\n(.*?)\n```", example, re.S)
    assert text is not None
    report = verify_tournament(text.group(1))
    assert report.ok, report.problem
    assert report.summary.endswith("first ana with 2 points")
    assert "DESIGN" not in DOC


def test_the_seed_vector() -> None:
    parts = re.findall(r"parts `([0-9a-f]{64})` and\n`([0-9a-f]{64})`", DOC)[0]
    seed = seed_from_parts(list(parts), TournamentTable("t", 3, 2))
    assert f"server seed `{seed}`" in DOC
    assert f"`{commitment(parts[1])}`" in DOC
    assert throw_dice(seed, "3fa94c1de2b07a55.ana", 0) == (1, 1)


def test_the_worked_sizes() -> None:
    assert "10 at tables of 4 make 4, 3 and 3" in DOC and table_sizes(10, 4) == (4, 3, 3)
    assert "5 players make 3 and 2" in DOC and table_sizes(5, 4) == (3, 2)
    assert "7 at tables of 2 make\n   three tables and a bye" in DOC
    assert len(pair(range(7), 2).tables) == 3 and pair(range(7), 2).bye == 6
