"""docs/fair-play.md is for people writing their own verifier: its vectors must be right."""

from __future__ import annotations

import json
import re
from itertools import islice
from pathlib import Path

import pytest

from jackpot.fair import bot_strength, byte_stream, commitment, throw_dice, verify

DOC = (Path(__file__).parents[2] / "docs" / "fair-play.md").read_text(encoding="utf-8")


def _rows(header: str) -> list[list[str]]:
    """Cells of the markdown table whose header line starts with ``header``."""
    lines = DOC.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([c.strip().strip("`") for c in line.strip("|").split("|")])
    return rows


COMMITMENTS = _rows("| server_seed | commitment |")
SEEDS = {name: row[0] for name, row in zip(("S1", "S0", "S2"), COMMITMENTS, strict=True)}


def _client(cell: str) -> str:
    return "" if cell == "(empty)" else cell


def test_doc_has_enough_vectors() -> None:
    assert len(COMMITMENTS) == 3
    assert len(_rows("| seed | client_seed | n |")) >= 15
    assert len(_rows("| seed | client_seed | seat 0 |")) >= 4


@pytest.mark.parametrize(("seed", "expected"), COMMITMENTS)
def test_commitment_vectors(seed: str, expected: str) -> None:
    assert commitment(seed) == expected


@pytest.mark.parametrize("row", _rows("| seed | client_seed | n |"))
def test_dice_vectors(row: list[str]) -> None:
    seed, client, n, count, first, dice = row
    s = SEEDS[seed]
    label = f"{_client(client)}:{n}"
    assert list(throw_dice(s, _client(client), int(n), int(count))) == json.loads(dice)
    if first:
        known = first.rstrip(".")
        assert bytes(islice(byte_stream(s, label), len(known) // 2)).hex() == known


@pytest.mark.parametrize("row", _rows("| seed | client_seed | seat 0 |"))
def test_bot_vectors(row: list[str]) -> None:
    seed, client, *strengths = row
    for seat, strength in enumerate(strengths):
        assert bot_strength(SEEDS[seed], _client(client), seat) == strength


def test_prose_vectors() -> None:
    stream = bytes(islice(byte_stream(SEEDS["S1"], "3fa94c1de2b07a55.ana:0"), 36))
    assert stream[30:36].hex() == "c545952ecf2a"
    assert bytes(islice(byte_stream(SEEDS["S0"], "a:bot:83"), 2)).hex() == "ff7e"
    assert bot_strength(SEEDS["S0"], "a", 83) == "lowest"


def test_the_whole_record_verifies() -> None:
    block = re.search(r"### A whole record.*?```json\n(.*?)```", DOC, re.S)
    assert block is not None
    v = verify(block.group(1))
    assert v.ok, v.problem
    assert v.summary == "valid: classic, 2 seats, 8 throws, winner seat 1 (Bot 1)"
