"""The jackpot-fair/1 stream: docs/fair-play.md's vectors, rejection sampling, uniformity."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from itertools import islice

import pytest
from scipy.stats import chisquare

from jackpot.fair import bot_strength, byte_stream, throw_dice
from jackpot.fair.dice import DIE_LIMIT, STRENGTH_LIMIT
from jackpot.strategy.strength import STRENGTH_ORDER, Strength

SEED = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
CLIENT = "3fa94c1de2b07a55.ana"


@pytest.mark.parametrize(
    ("n", "count", "dice"),
    [(0, 2, (5, 2)), (1, 2, (3, 3)), (32, 2, (4, 6)), (100, 2, (5, 4)), (2, 1, (1,))],
)
def test_design_dice_vectors(n: int, count: int, dice: tuple[int, ...]) -> None:
    assert throw_dice(SEED, CLIENT, n, count) == dice


def test_design_bot_vectors() -> None:
    assert bot_strength(SEED, CLIENT, 0) is Strength.HIGHEST
    assert bot_strength(SEED, CLIENT, 1) is Strength.BEST


def test_vector_32_skips_a_leading_ff_and_100_skips_a_second_fc() -> None:
    """The vectors really exercise the rejection, so passing them means it works."""
    first32 = list(islice(byte_stream(SEED, f"{CLIENT}:32"), 3))
    assert first32[0] == 0xFF
    assert (first32[1] % 6 + 1, first32[2] % 6 + 1) == (4, 6)
    first100 = list(islice(byte_stream(SEED, f"{CLIENT}:100"), 3))
    assert first100[1] == 0xFC
    assert (first100[0] % 6 + 1, first100[2] % 6 + 1) == (5, 4)


def test_stream_is_hmac_of_label_then_label_colon_k() -> None:
    key = SEED.encode("ascii")
    expected = hmac.new(key, b"L", hashlib.sha256).digest()
    expected += hmac.new(key, b"L:1", hashlib.sha256).digest()
    expected += hmac.new(key, b"L:2", hashlib.sha256).digest()
    assert bytes(islice(byte_stream(SEED, "L"), 96)) == expected


def test_one_die_is_die_one_of_the_two_die_throw() -> None:
    for n in range(200):
        assert throw_dice(SEED, CLIENT, n, 1) == throw_dice(SEED, CLIENT, n, 2)[:1]


def _kept_dice(label: str, count: int) -> tuple[tuple[int, ...], list[int]]:
    """Reference walk that also returns the bytes it skipped."""
    dice: list[int] = []
    skipped: list[int] = []
    for b in byte_stream(SEED, label):
        if b >= 252:
            skipped.append(b)
            continue
        dice.append(b % 6 + 1)
        if len(dice) == count:
            return tuple(dice), skipped
    raise AssertionError("unreachable")


def test_a_die_never_comes_from_a_byte_252_or_above() -> None:
    assert DIE_LIMIT == 252
    skipped_total = 0
    for n in range(3000):
        dice, skipped = _kept_dice(f"{CLIENT}:{n}", 2)
        assert throw_dice(SEED, CLIENT, n) == dice
        assert all(b >= 252 for b in skipped)
        skipped_total += len(skipped)
    # ~3000 * 2 * 4/256 ≈ 94 rejections expected: the path above was really exercised.
    assert skipped_total > 30


def test_walks_into_the_second_block_when_the_first_is_rejected() -> None:
    """A label whose 32 first bytes hold fewer than 2 keepers is astronomically rare,
    so check the continuation on the stream directly: it is endless and deterministic."""
    a = list(islice(byte_stream(SEED, "x"), 1000))
    b = list(islice(byte_stream(SEED, "x"), 1000))
    assert a == b and len(a) == 1000


def test_bot_strength_skips_255_and_takes_mod_3() -> None:
    assert STRENGTH_LIMIT == 255
    seen_skip = False
    for seat in range(2000):
        stream = byte_stream(SEED, f"{CLIENT}:bot:{seat}")
        first = next(stream)
        if first == 255:
            seen_skip = True
            first = next(b for b in stream if b != 255)
        assert bot_strength(SEED, CLIENT, seat) is STRENGTH_ORDER[first % 3]
    assert seen_skip


def test_strength_order_is_lowest_highest_best() -> None:
    assert [s.value for s in STRENGTH_ORDER] == ["lowest", "highest", "best"]


def test_different_client_seeds_give_different_dice() -> None:
    a = [throw_dice(SEED, "a", n) for n in range(50)]
    b = [throw_dice(SEED, "b", n) for n in range(50)]
    assert a != b


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n": -1}, "throw number"),
        ({"n": True}, "throw number"),
        ({"n": 0, "count": 3}, "1 or 2 dice"),
        ({"n": 0, "count": 0}, "1 or 2 dice"),
    ],
)
def test_throw_dice_rejects_bad_arguments(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        throw_dice(SEED, CLIENT, **kwargs)


def test_throw_dice_rejects_a_bad_server_seed() -> None:
    with pytest.raises(ValueError, match="server seed"):
        throw_dice(SEED.upper(), CLIENT, 0)


def test_bot_strength_rejects_a_negative_seat() -> None:
    with pytest.raises(ValueError, match="seat"):
        bot_strength(SEED, CLIENT, -1)


# Chi-square over fixed seeds: deterministic, so it cannot flake. The level is the
# conventional 0.001. Forgetting the rejection (b % 6 over all 256 byte values) biases
# a face by only about 1 part in 43, which 60,000 dice detect only marginally, so the
# rejection is checked exactly above; these tests guard against gross mistakes
# (wrong modulus, die 2 copying die 1, a stuck stream).

THROWS = 30_000  # 60,000 dice


def _many_throws() -> list[tuple[int, ...]]:
    seeds = [hashlib.sha256(f"chi{i}".encode()).hexdigest() for i in range(3)]
    per = THROWS // len(seeds)
    return [throw_dice(s, "chi-square", n) for s in seeds for n in range(per)]


@pytest.fixture(scope="module")
def many_throws() -> list[tuple[int, ...]]:
    return _many_throws()


def test_faces_are_uniform(many_throws: list[tuple[int, ...]]) -> None:
    faces = Counter(d for throw in many_throws for d in throw)
    observed = [faces[f] for f in range(1, 7)]
    assert sum(observed) == 2 * THROWS
    assert chisquare(observed).pvalue > 0.001


def test_each_die_position_is_uniform(many_throws: list[tuple[int, ...]]) -> None:
    for position in (0, 1):
        faces = Counter(t[position] for t in many_throws)
        assert chisquare([faces[f] for f in range(1, 7)]).pvalue > 0.001


def test_ordered_pairs_are_uniform(many_throws: list[tuple[int, ...]]) -> None:
    """Die 2 independent of die 1: all 36 ordered pairs equally likely."""
    pairs = Counter(many_throws)
    observed = [pairs[(a, b)] for a in range(1, 7) for b in range(1, 7)]
    assert sum(observed) == THROWS
    assert chisquare(observed).pvalue > 0.001


def test_sums_follow_the_triangle(many_throws: list[tuple[int, ...]]) -> None:
    sums = Counter(sum(t) for t in many_throws)
    observed = [sums[s] for s in range(2, 13)]
    expected = [THROWS * (6 - abs(s - 7)) / 36 for s in range(2, 13)]
    assert chisquare(observed, expected).pvalue > 0.001


def test_chi_square_would_catch_a_stuck_die() -> None:
    """The statistical tests are not vacuous: a die that never shows 6 fails."""
    faces = [THROWS // 5] * 5 + [0]
    assert chisquare(faces).pvalue < 0.001


def test_bot_strengths_are_uniform() -> None:
    seeds = [hashlib.sha256(f"bot{i}".encode()).hexdigest() for i in range(30)]
    counts = Counter(
        bot_strength(s, f"c{j}", seat) for s in seeds for j in range(25) for seat in range(4)
    )
    observed = [counts[s] for s in STRENGTH_ORDER]
    assert sum(observed) == 3000
    assert chisquare(observed).pvalue > 0.001
