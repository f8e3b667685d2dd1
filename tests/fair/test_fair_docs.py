"""docs/fair-play.md is for people writing their own verifier: its vectors must be right."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import subprocess
import sys
from itertools import islice
from pathlib import Path

import pytest

from jackpot.engine import THROW_STRIDE, DailyResult, throw_number
from jackpot.fair import (
    TournamentTable,
    bot_strength,
    byte_stream,
    commitment,
    daily_client_seed,
    draw_order,
    part_commitment,
    position_dice,
    position_label,
    seed_from_parts,
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


# -- jackpot-record/4: seeds made of parts, the daily deal by position, spares -------


def _rows_after(heading: str, header: str) -> list[list[str]]:
    """Cells of the first table with ``header`` after the line ``heading``."""
    lines = DOC.splitlines()
    start = lines.index(heading)
    at = next(i for i in range(start, len(lines)) if lines[i].startswith(header))
    rows = []
    for line in lines[at + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([c.strip().strip("`") for c in line.strip("|").split("|")])
    return rows


PART_2 = "74291ea14082e35353432f6c8d98d3ad25b90f762401aa5a321d078fd81e6ce0"
PARTS = {"P1": SEEDS["S1"], "P2": PART_2}


def test_the_parts_vectors() -> None:
    rows = _rows_after("### Seeds made of parts", "| parts | tournament table |")
    assert len(rows) == 2
    assert part_commitment(PART_2) in DOC
    for names, table, seed, promised, first, second in rows:
        parts = [PARTS[name.strip()] for name in names.split(",")]
        at = None
        if table:
            found = re.fullmatch(r"round (\d+), table (\d+)", table)
            assert found is not None
            at = TournamentTable("t", int(found[1]), int(found[2]))
        assert seed_from_parts(parts, at) == seed
        assert commitment(seed) == promised
        client = "3fa94c1de2b07a55.ana"
        assert [list(throw_dice(seed, client, n)) for n in (0, 1)] == [
            json.loads(first),
            json.loads(second),
        ]


def test_the_by_position_vectors_and_par() -> None:
    rows = _rows_after("### The daily deal by position", "| date | variant | turn t |")
    assert len(rows) == 5
    for day, variant, turn, tiles, count, first, dice in rows:
        client = daily_client_seed(day, variant)
        label = position_label(client, int(turn), [int(t) for t in tiles])
        assert label == f"{client}:{turn}:{tiles}"
        assert list(position_dice(SEEDS["S1"], client, int(turn), map(int, tiles), int(count))) == (
            json.loads(dice)
        )
        assert bytes(islice(byte_stream(SEEDS["S1"], label), 4)).hex() == first
    par = _rows_after("### The daily deal by position", "| date | variant | turn scores |")
    for day, variant, scores, jackpots, total in par:
        v = variant.removesuffix(" (by position)")
        result = daily_par(SEEDS["S1"], day, v, by_position=True).result
        assert result == DailyResult(tuple(json.loads(scores)), int(jackpots), int(total))


def test_the_whole_record_with_parts_and_spares_verifies() -> None:
    record = json.loads(_json_block("A whole record with parts and spares"))
    assert record["format"] == "jackpot-record/4"
    v = verify(record)
    assert v.ok, v.problem
    assert v.summary == "valid: classic, 2 seats, 5 throws, winner seat 0 (ben)"
    assert v.notes == ["origin: a challenge (c_3f2a)"]
    assert record["server_seed"] == _rows_after(
        "### Seeds made of parts", "| parts | tournament table |"
    )[0][2]
    hidden = json.loads(json.dumps(record))
    for part in hidden["parts"]:
        part["part"] = None
    waiting = verify(hidden)
    assert waiting.awaiting_parts and not waiting.ok
    plain = {k: v for k, v in record.items() if k not in ("parts", "spares", "origin")}
    plain["events"] = [e for e in record["events"] if e["type"] != "spare"]
    plain["format"] = "jackpot-record/3"
    assert verify(plain).ok


def test_step_2_builds_the_client_seed_of_a_selfplay_match() -> None:
    """A verifier written from step 2 accepts what `jackpot selfplay` writes: without a
    person the client seed is the text whoever ran it chose, `selfplay` by default."""
    step_2 = DOC[DOC.index("### 2. The client seed") : DOC.index("### 3. The byte stream")]
    assert "`jackpot selfplay --client-seed X` plays with the" in step_2
    assert "client seed `X`, and with `selfplay` when no `--client-seed` is given" in step_2
    assert 'has the empty client seed `""`' not in DOC
    for given, expected in ((["--client-seed", "demo-7"], "demo-7"), ([], "selfplay")):
        done = subprocess.run(
            [sys.executable, "-m", "jackpot.cli", "selfplay", "--seats", "3",
             "--server-seed", SEEDS["S2"], *given],
            capture_output=True, text=True, check=True,
        )
        record = json.loads(done.stdout)
        assert not any(seat["bot"] is None for seat in record["seats"])
        assert record["client_seed"] == expected
        # The dice come from exactly that client seed (an independent HMAC reading).
        first = record["events"][0]
        key, label = SEEDS["S2"].encode(), f"{expected}:{first['n']}".encode()
        kept = [b % 6 + 1 for b in hmac.new(key, label, hashlib.sha256).digest() if b < 252]
        assert first["dice"] == kept[: len(first["dice"])]
        assert verify(record).ok
