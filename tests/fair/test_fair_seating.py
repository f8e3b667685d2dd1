"""The order of play drawn from the seed: the published vectors, the skip, and no bias."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from itertools import permutations

import pytest
from scipy.stats import chisquare

from jackpot.fair import draw_order, order_of_play
from jackpot.fair.seating import seats_label

S1 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
S0 = "0" * 64
CLIENT = "3fa94c1de2b07a55.ana"


@pytest.mark.parametrize(
    ("seats", "order"),
    [(1, (0,)), (2, (0, 1)), (3, (0, 2, 1)), (4, (1, 2, 0, 3))],
)
def test_the_test_seeds_draw_the_published_orders(seats: int, order: tuple[int, ...]) -> None:
    assert draw_order(S1, CLIENT, seats) == order


def _first_bytes(server_seed: str, label: str) -> bytes:
    return hmac.new(server_seed.encode(), label.encode(), hashlib.sha256).digest()


def test_worked_example_of_four_seats() -> None:
    # Bytes 8b 75 2c: 139 % 4 = 3 (3 with 3), 117 % 3 = 0 (2 with 0), 44 % 2 = 0 (1 with 0).
    assert seats_label(CLIENT) == "3fa94c1de2b07a55.ana:seats"
    assert _first_bytes(S1, "3fa94c1de2b07a55.ana:seats")[:3].hex() == "8b752c"
    order = [0, 1, 2, 3]
    for i, b in zip((3, 2, 1), (0x8B, 0x75, 0x2C), strict=True):
        j = b % (i + 1)
        order[i], order[j] = order[j], order[i]
    assert tuple(order) == draw_order(S1, CLIENT, 4) == (1, 2, 0, 3)


def test_a_byte_of_255_is_skipped_for_three_choices() -> None:
    # 256 is not a multiple of 3: 255 would make "0" likelier, so it is skipped.
    assert _first_bytes(S0, "c504:seats")[:2].hex() == "ff90"
    # 0x90 = 144, 144 % 3 = 0: positions 2 and 0 swap; then 0x08 % 2 = 0: 1 and 0 swap.
    assert draw_order(S0, "c504", 3) == (1, 2, 0)
    # With four seats the first byte is for i = 3, where 255 is kept (256 % 4 == 0):
    # 255 % 4 = 3 keeps 3; then 0x90 % 3 = 0 swaps 2 and 0; 0x08 % 2 = 0 swaps 1 and 0.
    assert draw_order(S0, "c504", 4) == (1, 2, 0, 3)


def test_the_skip_in_second_place() -> None:
    assert _first_bytes(S0, "c53:seats")[:4].hex() == "f4ff5440"
    # 0xf4 % 4 = 0 swaps 3 and 0; ff skipped; 0x54 % 3 = 0 swaps 2 and 0; 0x40 % 2 = 0.
    assert draw_order(S0, "c53", 4) == (1, 2, 3, 0)


def test_no_person_keeps_the_joining_order() -> None:
    for seats in range(1, 5):
        assert order_of_play(S1, CLIENT, seats, people=0) == tuple(range(seats))
        assert order_of_play(S1, CLIENT, seats, people=1) == draw_order(S1, CLIENT, seats)


def test_the_draw_is_a_permutation_and_depends_on_the_client_seed() -> None:
    seen = {draw_order(S1, f"{CLIENT}{k}", 4) for k in range(200)}
    assert all(sorted(order) == [0, 1, 2, 3] for order in seen)
    assert len(seen) == 24


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_order_is_equally_likely(seats: int) -> None:
    draws = 2400 * seats
    counts = Counter(draw_order(S0, f"u{k}", seats) for k in range(draws))
    orders = list(permutations(range(seats)))
    observed = [counts[o] for o in orders]
    assert sum(observed) == draws
    assert chisquare(observed).pvalue > 1e-4


def test_bad_seat_counts_are_refused() -> None:
    for bad in (0, 5, True, 2.0):
        with pytest.raises(ValueError, match="a match has 1 to 4 seats"):
            draw_order(S1, CLIENT, bad)  # type: ignore[arg-type]
