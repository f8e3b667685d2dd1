"""How long the match page takes to play out a bot's turn at its slowest speed.

    .venv/bin/python bench/bot_playback.py --turns 20000 --seed 35

Plays bot turns on the engine from a full board, each strength in each variant, with
the site's dice (``fair.throw_dice``, a server seed per match drawn from ``--seed``),
and counts each turn's playback with the function the server adds to the next
person's deadline (web/matches/playback.py: ``PACE_THROW_MS`` after each throw,
``PACE_COVER_MS`` after each cover, times ``SLOWEST``, the page's slowest speed; the
normal speed takes 1/``SLOWEST`` of it). A match's bot
has each strength with the same chance, so "all" is the plain mean of the three.
Nothing here is asserted: it is a measurement to write down (docs/front-end.md).
"""

from __future__ import annotations

import argparse
import random
import statistics

from jackpot import fair
from jackpot.engine import Match, TurnEnded, Variant
from jackpot.strategy.autoplay import bot_step
from jackpot.strategy.strength import Strength
from jackpot.web.matches.playback import PACE_COVER_MS, PACE_THROW_MS, SLOWEST, playback_ms

#: The seat of the person watching (the bot plays seat 0 of a one-seat match).
VIEWER = 1


def turn_playbacks(
    variant: Variant, strength: Strength, turns: int, rng: random.Random
) -> list[int]:
    """Milliseconds of playback of each of ``turns`` bot turns."""
    out: list[int] = []
    match = Match.new(variant, 1)
    server_seed = f"{rng.getrandbits(256):064x}"
    events: list[dict[str, object]] = []
    while len(out) < turns:
        if match.turn is None:
            match = Match.new(variant, 1)
            server_seed = f"{rng.getrandbits(256):064x}"

        def roll(n: int, count: int, seed: str = server_seed) -> tuple[int, ...]:
            return fair.throw_dice(seed, "bench", n, count)

        match, step = bot_step(match, strength, roll)
        events += [e.to_dict() for e in step]
        if any(isinstance(e, TurnEnded) for e in step):
            out.append(playback_ms(events, VIEWER))
            events = []
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=20000, help="bot turns per strength")
    parser.add_argument("--seed", type=int, default=35)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(
        f"pace: {PACE_THROW_MS} ms after a throw, {PACE_COVER_MS} ms after a cover, "
        f"times {SLOWEST} at the slowest speed (what the clock waits for)"
    )
    print(f"{'variant':8} {'strength':8} {'mean s':>7} {'median s':>8} {'p90 s':>6} {'max s':>6}")
    for variant in Variant:
        every: list[int] = []
        for strength in Strength:
            ms = turn_playbacks(variant, strength, args.turns, rng)
            every += ms
            print(_line(variant.value, strength.value, ms))
        print(_line(variant.value, "all", every))


def _line(variant: str, strength: str, ms: list[int]) -> str:
    p90 = statistics.quantiles(ms, n=10)[-1]
    return (
        f"{variant:8} {strength:8} {statistics.fmean(ms) / 1000:7.2f} "
        f"{statistics.median(ms) / 1000:8.2f} {p90 / 1000:6.2f} {max(ms) / 1000:6.2f}"
    )


if __name__ == "__main__":
    main()
