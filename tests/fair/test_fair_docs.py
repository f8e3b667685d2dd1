"""docs/fair-play.md is for people writing their own verifier: its vectors must be right."""

from __future__ import annotations

import json
import re
from itertools import islice
from pathlib import Path

import pytest

from jackpot.fair import bot_strength, byte_stream, commitment, draw_order, throw_dice, verify

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
    assert len(_rows("| seed | client_seed | first bytes | n = 2 |")) >= 6
    assert "DESIGN" not in DOC


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


@pytest.mark.parametrize("row", _rows("| seed | client_seed | first bytes | n = 2 |"))
def test_order_of_play_vectors(row: list[str]) -> None:
    seed, client, first, *orders = row
    s, c = SEEDS[seed], _client(client)
    assert bytes(islice(byte_stream(s, f"{c}:seats"), 4)).hex() == first
    for seats, order in zip((2, 3, 4), orders, strict=True):
        assert list(draw_order(s, c, seats)) == json.loads(order), (client, seats)


def test_the_published_four_seat_vector_is_the_first_row() -> None:
    first = _rows("| seed | client_seed | first bytes | n = 2 |")[0]
    assert first == [
        "S1",
        "3fa94c1de2b07a55.ana",
        "8b752ca5",
        "[0, 1]",
        "[0, 2, 1]",
        "[1, 2, 0, 3]",
    ]


def test_prose_vectors() -> None:
    stream = bytes(islice(byte_stream(SEEDS["S1"], "3fa94c1de2b07a55.ana:0"), 36))
    assert stream[30:36].hex() == "c545952ecf2a"
    assert bytes(islice(byte_stream(SEEDS["S0"], "a:bot:83"), 2)).hex() == "ff7e"
    assert bot_strength(SEEDS["S0"], "a", 83) == "lowest"


def test_the_whole_record_verifies() -> None:
    block = re.search(r"### A whole record\n.*?```json\n(.*?)```", DOC, re.S)
    assert block is not None
    v = verify(block.group(1))
    assert v.ok, v.problem
    assert v.summary == "valid: classic, 2 seats, 8 throws, winner seat 1 (Bot 1)"


def test_the_whole_record_with_the_order_of_play_verifies() -> None:
    block = re.search(r"### A whole record with the order of play.*?```json\n(.*?)```", DOC, re.S)
    assert block is not None
    record = json.loads(block.group(1))
    assert record["format"] == "jackpot-record/2" and record["joined"] == [1, 0]
    v = verify(record)
    assert v.ok, v.problem
    assert v.summary == "valid: classic, 2 seats, 6 throws, winner seat 0 (Bot)"
    assert "order of play: [1, 0] (joining index of each seat), drawn from the seed" in v.checks
