"""Seeds and commitment: the inputs a player or verifier types in."""

from __future__ import annotations

import hashlib

import pytest

from jackpot.fair import (
    check_client_seed,
    check_server_seed,
    combine_client_seeds,
    commitment,
    split_client_seed,
)

SEED = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"


def test_commitment_test_vector() -> None:
    assert commitment(SEED) == "7b3d979ca8330a94fa7e9e1b466d8b99e0bcdea1ec90596c0dcc8d7ef6b4300c"


def test_commitment_hashes_the_ascii_text_not_the_bytes() -> None:
    assert commitment(SEED) == hashlib.sha256(SEED.encode()).hexdigest()
    assert commitment(SEED) != hashlib.sha256(bytes.fromhex(SEED)).hexdigest()


@pytest.mark.parametrize(
    "bad",
    [
        SEED.upper(),
        SEED[:-1],
        SEED + "0",
        "g" * 64,
        "",
        " " + SEED[1:],
    ],
)
def test_server_seed_rejects_anything_but_64_lowercase_hex(bad: str) -> None:
    with pytest.raises(ValueError, match="server seed must be 64 lowercase hex"):
        check_server_seed(bad)
    with pytest.raises(ValueError, match="server seed"):
        commitment(bad)


def test_server_seed_rejects_non_text() -> None:
    with pytest.raises(ValueError, match="server seed must be text, not bytes"):
        check_server_seed(SEED.encode())


def test_server_seed_accepts_and_returns_a_good_one() -> None:
    assert check_server_seed(SEED) == SEED


@pytest.mark.parametrize("good", ["a", "3fa94c1de2b07a55", "Ana_the-1st", "x" * 64, "-_-"])
def test_client_seed_accepts(good: str) -> None:
    assert check_client_seed(good) == good


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("", "client seed is empty"),
        ("x" * 65, "client seed is 65 characters long: at most 64"),
        ("a.b", r"'\.' is not allowed"),
        ("héllo wörld", r"' ', 'é', 'ö' are not allowed"),
        ("ab/c", r"'/' is not allowed"),
        (17, "client seed must be text, not int"),
        (None, "client seed must be text, not NoneType"),
    ],
)
def test_client_seed_rejections_say_why(bad: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_client_seed(bad)


def test_combine_joins_in_seat_order_with_dots() -> None:
    assert combine_client_seeds(["3fa94c1de2b07a55", "ana"]) == "3fa94c1de2b07a55.ana"
    assert combine_client_seeds(["b", "a"]) == "b.a"
    assert combine_client_seeds([]) == ""


def test_combine_checks_every_part() -> None:
    with pytest.raises(ValueError, match="client seed is empty"):
        combine_client_seeds(["abc", ""])
    with pytest.raises(ValueError, match="not allowed"):
        combine_client_seeds(["a.b"])


def test_combine_refuses_a_bare_string() -> None:
    with pytest.raises(TypeError):
        combine_client_seeds("abc")


def test_split_inverts_combine() -> None:
    for parts in ([], ["a"], ["a", "b-c", "D_9"]):
        assert split_client_seed(combine_client_seeds(parts)) == parts
