import math

import numpy as np
import pytest

from jackpot.engine.tiles import Variant
from jackpot.strategy import Strength, policy, simulate

TURNS = 200_000


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("strength", list(Strength))
def test_simulation_agrees_with_the_exact_values(variant: Variant, strength: Strength) -> None:
    result = simulate.simulate(variant, strength, TURNS, np.random.default_rng(2026))
    p, e = policy.policy_values(variant, strength)
    low, high = result.interval
    assert low <= float(p) <= high
    # Mean score: within four standard errors of the exact expectation.
    scores = np.arange(simulate.MAX_SCORE + 1)
    counts = np.array(result.histogram)
    sd = math.sqrt(float(np.dot(counts, (scores - result.mean_score) ** 2)) / TURNS)
    assert abs(result.mean_score - float(e)) <= 4 * sd / math.sqrt(TURNS)


def test_histogram_adds_up() -> None:
    result = simulate.simulate(Variant.JACKPOT, Strength.BEST, 50_000, np.random.default_rng(1))
    assert len(result.histogram) == 46
    assert sum(result.histogram) == result.turns == 50_000
    assert result.histogram[0] == result.shut
    assert result.jackpot_rate == result.shut_rate == result.shut / 50_000
    mean = sum(s * c for s, c in enumerate(result.histogram)) / 50_000
    assert result.mean_score == pytest.approx(mean)
    # From a full board every throw can cover something, so 45 is impossible.
    assert result.histogram[45] == 0


def test_same_seed_same_result_and_another_seed_differs() -> None:
    def run(seed: int) -> simulate.SimulationResult:
        return simulate.simulate(
            Variant.CLASSIC, Strength.BEST, 30_000, np.random.default_rng(seed)
        )

    assert run(7) == run(7)
    assert run(7).histogram != run(8).histogram


def test_progress_reports_each_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulate, "CHUNK", 1_000)
    seen: list[int] = []
    result = simulate.simulate(
        Variant.JACKPOT, Strength.LOWEST, 2_500, np.random.default_rng(3), seen.append
    )
    assert seen == [1_000, 1_000, 500]
    assert sum(result.histogram) == 2_500


def test_zero_turns_and_negative_turns() -> None:
    result = simulate.simulate(Variant.JACKPOT, Strength.BEST, 0, np.random.default_rng(0))
    assert result.turns == 0 and sum(result.histogram) == 0 and result.interval == (0.0, 1.0)
    with pytest.raises(ValueError, match="turns"):
        simulate.simulate(Variant.JACKPOT, Strength.BEST, -1, np.random.default_rng(0))


def test_wilson_interval_hand_checked() -> None:
    # 8 of 100: centre (0.08 + z²/200) / (1 + z²/100) = 0.095537,
    # half-width z·sqrt(0.08·0.92/100 + z²/40000) / (1 + z²/100) = 0.054444.
    low, high = simulate.wilson_interval(8, 100)
    assert low == pytest.approx(0.041093, abs=1e-5)
    assert high == pytest.approx(0.149981, abs=1e-5)
    # 0 of 10: [0, z² / (10 + z²)].
    assert simulate.wilson_interval(0, 10) == pytest.approx((0.0, 0.277532), abs=1e-5)
