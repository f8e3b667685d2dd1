"""Moves per turn: the engine count agrees with the exact values, and those with the solver."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from itertools import product

import pytest

from jackpot.engine import Variant
from jackpot.engine.tiles import from_mask, may_throw_one_die, to_mask
from jackpot.strategy.bots import choose_cover_mask, choose_dice_count_mask
from jackpot.strategy.pace import Moves, count_turns, expected_moves
from jackpot.strategy.policy import policy_values
from jackpot.strategy.solver import mask_options
from jackpot.strategy.strength import Strength


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("strength", list(Strength))
def test_a_turn_ends_with_a_dead_throw_unless_the_box_is_shut(
    variant: Variant, strength: Strength
) -> None:
    # Every throw but the last is followed by a cover, and the last one too when it shuts
    # the box: E[covers] = E[throws] - P(not shut), with P(shut) from the solver.
    m = expected_moves(variant, strength)
    throws = m.forced_throws + m.chosen_throws
    covers = m.single_covers + m.chosen_covers
    p_shut, _ = policy_values(variant, strength)
    assert covers == throws - (1 - p_shut)


def test_every_jackpot_throw_is_forced() -> None:
    m = expected_moves(Variant.JACKPOT, Strength.BEST)
    assert m.chosen_throws == 0
    assert m.autoplay_throws == m.single_covers + m.chosen_covers
    assert m.autoplay_both == m.chosen_covers
    # The figures the issue quotes, to three significant figures.
    assert f"{float(m.forced_throws):.3g} {float(m.chosen_covers):.3g}" == "7.37 4.33"


def test_sums_by_kind() -> None:
    m = Moves(forced_throws=5, chosen_throws=1, single_covers=2, chosen_covers=3)
    assert m.without_autoplay == 11
    assert (m.autoplay_throws, m.autoplay_covers, m.autoplay_both) == (6, 9, 4)


@pytest.mark.parametrize("variant", list(Variant))
def test_the_engine_count_agrees_with_the_exact_values(variant: Variant) -> None:
    rng = random.Random(2026)
    turns = count_turns(
        variant,
        Strength.BEST,
        4000,
        lambda n, count: tuple(rng.randint(1, 6) for _ in range(count)),
    )
    assert len(turns) == 4000
    exact = expected_moves(variant, Strength.BEST)
    for kind in ("without_autoplay", "autoplay_both", "forced_throws", "single_covers"):
        values = [getattr(t, kind) for t in turns]
        mean = sum(values) / len(values)
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
        want = getattr(exact, kind)
        assert isinstance(want, Fraction)
        # Five standard errors: fails by chance about once in two million runs.
        assert abs(mean - float(want)) < 5 * sd / math.sqrt(len(values)), (kind, mean, want)


@pytest.mark.parametrize("variant", list(Variant))
def test_the_exact_values_agree_with_a_forward_sum(variant: Variant) -> None:
    """A second derivation: the chance of reaching each open set, summed forward over
    every ordered outcome of the dice (expected_moves goes backward over throw classes)."""
    strength = Strength.BEST
    reach = [Fraction(0)] * 512
    reach[511] = Fraction(1)
    kinds = ("forced_throws", "chosen_throws", "single_covers", "chosen_covers")
    totals = {k: Fraction(0) for k in kinds}
    for mask in range(511, 0, -1):
        p = reach[mask]
        if not p:
            continue
        one_die_open = may_throw_one_die(variant, from_mask(mask))
        totals["chosen_throws" if one_die_open else "forced_throws"] += p
        count = choose_dice_count_mask(variant, strength, mask)
        for thrown in product(range(1, 7), repeat=count):
            opts = mask_options(variant, mask, thrown)
            if not opts:
                continue
            share = p / 6**count
            totals["single_covers" if len(opts) == 1 else "chosen_covers"] += share
            cover = choose_cover_mask(variant, strength, mask, thrown)
            reach[mask & ~to_mask(cover)] += share
    assert expected_moves(variant, strength) == Moves(**totals)
