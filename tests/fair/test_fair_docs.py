"""docs/fair-play.md is for people writing their own verifier: its vectors must be right."""

from __future__ import annotations

import json
import re
from itertools import islice
from pathlib import Path

import pytest

from jackpot.engine import THROW_STRIDE, DailyResult, throw_number
from jackpot.fair import (
    bot_strength,
    byte_stream,
    commitment,
    daily_client_seed,
    draw_order,
    throw_dice,
    verify,
)
from jackpot.fair.par import daily_par

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


# -- jackpot-record/3 and the daily deal ------------------------------------------


DAILY_DICE = _rows("| date | variant | turn t | throw k |")
PAR = _rows("| date | variant | turn scores |")


def _json_block(heading: str) -> str:
    block = re.search(rf"### {re.escape(heading)}\n.*?```json\n(.*?)```", DOC, re.S)
    assert block is not None, heading
    return block.group(1)


def test_doc_has_the_daily_vectors() -> None:
    assert len(DAILY_DICE) >= 6 and len(PAR) == 2
    # The two vectors every verifier of the daily deal starts from.
    assert ["2026-12-06", "jackpot", "0", "0", "0", "2", "3f89515a", "[4, 6]"] in DAILY_DICE
    assert ["2026-12-06", "jackpot", "3", "2", "50", "2", "d15461f9", "[6, 1]"] in DAILY_DICE


@pytest.mark.parametrize("row", DAILY_DICE)
def test_daily_dice_vectors(row: list[str]) -> None:
    day, variant, turn, k, n, count, first, dice = row
    assert int(n) == THROW_STRIDE * int(turn) + int(k) == throw_number(int(turn), int(k))
    client = daily_client_seed(day, variant)
    assert client == f"daily-{day}-{variant}"
    assert list(throw_dice(SEEDS["S1"], client, int(n), int(count))) == json.loads(dice)
    assert bytes(islice(byte_stream(SEEDS["S1"], f"{client}:{n}"), 4)).hex() == first


@pytest.mark.parametrize("row", PAR)
def test_par_vectors(row: list[str]) -> None:
    day, variant, scores, jackpots, total = row
    par = daily_par(SEEDS["S1"], day, variant).result
    assert par == DailyResult(tuple(json.loads(scores)), int(jackpots), int(total))


def test_the_record_by_the_rules_of_3_verifies_and_differs_from_2() -> None:
    record = json.loads(_json_block("A whole record by the rules of `/3`"))
    assert record["format"] == "jackpot-record/3"
    assert record["result"]["places"] == [2, 1, 2]
    v = verify(record)
    assert v.ok, v.problem
    assert v.summary == "valid: classic, 3 seats, 9 throws, winner seat 1 (ana)"
    as_2 = dict(record, format="jackpot-record/2")
    assert verify(as_2).problem == "result.places: record says [2, 1, 2], replay gives [3, 1, 2]"
    old = dict(as_2, result=dict(record["result"], places=[3, 1, 2]))
    assert verify(old).ok
    assert "`jackpot-record/2` would have to say [3, 1, 2]" in DOC


def test_the_whole_daily_entry_verifies_against_the_par_in_the_doc() -> None:
    record = json.loads(_json_block("A whole daily entry"))
    assert record["daily"] == {"date": "2026-12-06", "turns": 10}
    assert record["client_seed"] == "daily-2026-12-06-jackpot"
    v = verify(record)
    assert v.ok, v.problem
    assert v.daily is not None and v.daily.par is not None and v.daily.ending == "gave_up"
    jackpot_par = next(r for r in PAR if r[1] == "jackpot")
    assert list(v.daily.par.turn_scores) == json.loads(jackpot_par[2])
    assert v.summary == (
        "valid: daily jackpot 2026-12-06 (gave up), 0 jackpots, total 416; par 1 jackpot, "
        "total 173: worse than par (1 jackpot fewer; total 243 over par)"
    )
    # The result shown where the record's fields are described is this entry's.
    shown = re.search(r"A daily entry's result:\n\n```json\n(.*?)```", DOC, re.S)
    assert shown is not None and json.loads(shown.group(1)) == record["result"]
    assert "416 in all, no jackpot, against par's 1 jackpot and\n173" in DOC
