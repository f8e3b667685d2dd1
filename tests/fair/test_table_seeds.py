"""A tournament table's seeds, against the published vectors (docs/tournaments.md)."""

from __future__ import annotations

import pytest

from jackpot.fair import commitment, throw_dice
from jackpot.fair.table_seeds import table_client_seed, table_server_seed, table_suffix

PART_1 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
PART_2 = "74291ea14082e35353432f6c8d98d3ad25b90f762401aa5a321d078fd81e6ce0"
CLIENT = "3fa94c1de2b07a55.ana"


def test_round_three_table_two_of_the_published_parts() -> None:
    assert commitment(PART_2) == "82f8e386c825dfd6a27d8ca0b6614bf082c1a110cce531225ded81a2cacc9968"
    seed = table_server_seed([PART_1, PART_2], 3, 2)
    assert seed == "0c314704c342f72e0c347e56db98eed648cd38da4cb9bf9ab3393aa0ebe29944"
    assert throw_dice(seed, CLIENT, 0) == (1, 1)
    assert table_suffix(3, 2) == ":r3:t2"


def test_every_table_and_round_has_its_own_seed_and_the_order_counts() -> None:
    seeds = {table_server_seed([PART_1, PART_2], r, t) for r in (1, 2, 3) for t in (1, 2, 3)}
    assert len(seeds) == 9
    assert table_server_seed([PART_2, PART_1], 3, 2) != table_server_seed([PART_1, PART_2], 3, 2)


@pytest.mark.parametrize(
    ("parts", "round_number", "table", "words"),
    [
        ([], 1, 1, "one or more"),
        ([PART_1.upper()], 1, 1, "64 lowercase hex"),
        ([PART_1], 0, 1, "round is a whole number from 1"),
        ([PART_1], 1, True, "table is a whole number from 1"),
    ],
)
def test_bad_inputs_are_refused(
    parts: list[str], round_number: int, table: int, words: str
) -> None:
    with pytest.raises(ValueError, match=words):
        table_server_seed(parts, round_number, table)


def test_the_client_seed_joins_the_players_seeds_in_joining_order() -> None:
    assert table_client_seed(["3fa94c1de2b07a55", "ana"]) == CLIENT
    with pytest.raises(ValueError, match="client seed"):
        table_client_seed(["a.b"])
