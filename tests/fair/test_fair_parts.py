"""Server seeds made of parts: the vectors, and the verifier's checks of a record's parts."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Any

import pytest
from fair_matchgen import Plan, Played, plans_v4, play
from hypothesis import HealthCheck, given, settings

from jackpot.engine import RULES, Variant
from jackpot.fair import (
    SeedPart,
    TournamentTable,
    commitment,
    part_commitment,
    seed_from_parts,
    throw_dice,
    tournament_suffix,
    verify,
)

PART_1 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
PART_2 = "74291ea14082e35353432f6c8d98d3ad25b90f762401aa5a321d078fd81e6ce0"
CLIENT = "3fa94c1de2b07a55.ana"
TWO_PARTS = "893a04d9e60e9765170fedc0a64f1bf4e2e3fb52d1fa291b550868d08fddf76b"
TABLE = TournamentTable(id="t_1", round=3, table=2)


def test_the_two_part_vector() -> None:
    assert part_commitment(PART_2) == (
        "82f8e386c825dfd6a27d8ca0b6614bf082c1a110cce531225ded81a2cacc9968"
    )
    seed = seed_from_parts([PART_1, PART_2])
    assert seed == TWO_PARTS
    assert seed == hashlib.sha256(f"{PART_1}.{PART_2}".encode()).hexdigest()
    assert commitment(seed) == "2b63cbafbdfbba5e4763ab9608266ac4bb572117e11f6e2f9f3587d851df7957"
    assert throw_dice(seed, CLIENT, 0) == (2, 1)
    assert throw_dice(seed, CLIENT, 1) == (3, 2)


def test_the_tournament_table_vector() -> None:
    assert TABLE.suffix == tournament_suffix(3, 2) == ":r3:t2"
    seed = seed_from_parts([PART_1, PART_2], TABLE)
    assert seed == "0c314704c342f72e0c347e56db98eed648cd38da4cb9bf9ab3393aa0ebe29944"
    assert seed == hashlib.sha256(f"{PART_1}.{PART_2}:r3:t2".encode()).hexdigest()
    assert throw_dice(seed, CLIENT, 0) == (1, 1)
    # The tournament's id is not in the hash: only where the table stands.
    assert seed_from_parts([PART_1, PART_2], replace(TABLE, id="t_other")) == seed


def test_the_order_of_the_parts_matters() -> None:
    assert seed_from_parts([PART_2, PART_1]) != TWO_PARTS
    # One part alone is hashed too: a seed made of parts is never a part itself.
    assert seed_from_parts([PART_1]) == commitment(PART_1)


@pytest.mark.parametrize(
    "parts", [[], ["ab"], [PART_1.upper()], [PART_1, PART_2 + "0"], [PART_1, 7]]
)
def test_bad_parts_are_refused(parts: list[Any]) -> None:
    with pytest.raises(ValueError):
        seed_from_parts(parts)


def test_one_string_is_not_a_list_of_parts() -> None:
    with pytest.raises(TypeError):
        seed_from_parts(PART_1)


@pytest.mark.parametrize(("round_", "table"), [(0, 1), (1, 0), (True, 1), (1, "2")])
def test_a_tournament_table_is_numbered_from_one(round_: Any, table: Any) -> None:
    with pytest.raises(ValueError):
        tournament_suffix(round_, table)


# -- a record whose seed is made of parts ------------------------------------------


def two_people(*, table: TournamentTable | None = None, spares: int = 0, seed: int = 7) -> Played:
    return play(
        Plan(
            variant=Variant.JACKPOT,
            bots=(False, False),
            server_seed="",
            client_parts=("3fa94c1de2b07a55", "ana"),
            play_seed=seed,
            leave_rate=0.0,
            drawn=True,
            rules=RULES,
            seed_parts=(PART_1, PART_2),
            tournament=table,
            spares=spares,
        )
    )


def test_a_play_now_match_verifies_its_parts() -> None:
    record = two_people().record
    assert record.format == "jackpot-record/4"
    assert record.server_seed == TWO_PARTS
    v = verify(record)
    assert v.ok, v.problem
    assert (
        "parts: each of the 2 part(s) gives the commitment its person was shown, and the "
        "server seed is the SHA-256 of the parts in joining order"
    ) in v.checks


def test_a_tournament_table_verifies_with_its_suffix() -> None:
    record = two_people(table=TABLE).record
    assert record.server_seed == seed_from_parts([PART_1, PART_2], TABLE)
    v = verify(record)
    assert v.ok, v.problem
    assert any(c.endswith("as round 3, table 2 of tournament t_1") for c in v.checks)
    # Without its table the same parts make another seed.
    d = record.to_dict()
    del d["tournament"]
    problem = verify(d).problem
    assert problem == (
        f"server seed: the parts joined by '.' hash to {TWO_PARTS}, not the record's "
        f"server seed {record.server_seed}"
    )


def test_a_part_that_is_not_its_commitment_is_named() -> None:
    record = two_people().record
    d = record.to_dict()
    d["parts"][1]["commitment"] = commitment(PART_1)
    assert verify(d).problem == (
        f"parts[1]: the SHA-256 of the part of {_second_joiner(record)} is "
        f"{part_commitment(PART_2)}, not its commitment {commitment(PART_1)} shown before "
        "the match"
    )


def _second_joiner(record: Any) -> str:
    seat = record.joined.index(1)
    return f"seat {seat} ({record.seats[seat].name})"


def test_parts_that_do_not_make_the_seed_are_refused() -> None:
    d = two_people().record.to_dict()
    # Both parts swapped with their commitments: each part holds, but the order does not.
    d["parts"] = [d["parts"][1], d["parts"][0]]
    problem = verify(d).problem
    assert problem is not None and problem.startswith("server seed: the parts joined by '.'")


def test_a_part_for_each_person() -> None:
    d = two_people().record.to_dict()
    d["parts"] = d["parts"][:1]
    assert verify(d).problem == (
        "parts: 1 part(s) of the server seed, but the match has 2 person(s), one part each"
    )


def test_parts_not_yet_shown_say_so_rather_than_fail() -> None:
    record = two_people(table=TABLE).record
    assert record.parts is not None
    hidden = replace(record, parts=tuple(SeedPart(p.commitment) for p in record.parts))
    v = verify(hidden)
    assert not v.ok and v.awaiting_parts and not v.awaiting_seed and v.waiting
    assert v.problem is not None and v.problem.startswith(
        "the parts of the server seed are not published yet"
    )
    # Everything else was checked: the dice, the result.
    assert any(c.startswith("dice: every throw's dice") for c in v.checks)
    assert any(c.startswith("result:") for c in v.checks)
    # A wrong die is still a difference while the parts wait.
    d = hidden.to_dict()
    throw = next(e for e in d["events"] if e["type"] == "throw")
    throw["dice"] = [7 - throw["dice"][0], throw["dice"][1]]
    assert not verify(d).waiting


def test_parts_and_seed_both_hidden_wait_for_the_seed() -> None:
    record = two_people().record
    assert record.parts is not None
    playing = replace(
        record,
        server_seed=None,
        result=None,
        events=record.events[:3],
        parts=tuple(SeedPart(p.commitment) for p in record.parts),
    )
    v = verify(playing)
    assert v.awaiting_seed and not v.awaiting_parts, v.problem
    assert "parts: 2 commitment(s), one for each person in joining order" in v.checks[1]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plans_v4())
def test_every_v4_match_verifies(plan: Plan) -> None:
    record = play(plan).record
    assert record.format == "jackpot-record/4"
    v = verify(record.to_json())
    assert v.ok, v.problem
