"""How long the match odds take: live positions of 2-4 seat matches, and reviews of finished ones.

    .venv/bin/python bench/odds_bench.py --positions 3000 --matches 100 --seed 1

1. Start-up: a fresh interpreter imports the odds and builds every table
   (``match_odds.warm_up``), timed in a child process so nothing is built before;
   and, in another, the costliest first question without it (the first seat of a
   four-seat Classic match, whose answer needs every later seat's tables).
2. Live positions: matches of 2, 3 and 4 seats in both variants are played with
   random legal choices (a seeded ``random.Random``: positions people reach, not only
   the ones the best play reaches), and every position where a throw or a choice is
   due is a candidate. ``--positions`` of them, as many of each variant and seat
   count, are timed with ``match_odds`` with the tables cold (nothing built: each is
   built by the first position that needs it, in this process); then as many others,
   drawn afresh, with the tables warm (after ``warm_up``).
3. Reviews: ``--matches`` finished four-seat Classic matches (and as many four-seat
   Jackpot ones, for comparison) are reviewed with ``fair.match_review.review_match``,
   tables warm, alone and with the seats' figures drawn from it
   (``web.players.match_figures.summarise``: what a match's end stores).

Nothing is asserted: the figures are for docs/analysis.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from jackpot.engine import Match, Variant
from jackpot.fair import Record, RecordEvent, SeatEntry
from jackpot.fair.match_review import review_match
from jackpot.fair.recorder import append_events
from jackpot.strategy.match_odds import match_odds, warm_up
from jackpot.web.players.match_figures import summarise

T = TypeVar("T")
HEX = "0" * 64
START_UP = (
    "import time; t = time.perf_counter(); "
    "from jackpot.strategy.match_odds import warm_up; n = warm_up(); "
    "print(n, time.perf_counter() - t)"
)
#: The costliest first question: the first seat of a four-seat Classic match needs
#: the tables of every seat after it.
WORST_COLD = (
    "import time; from jackpot.engine import Match, Variant; "
    "from jackpot.strategy.match_odds import match_odds; "
    "m, _ = Match.new(Variant.CLASSIC, 4).throw(0, (4, 5)); t = time.perf_counter(); "
    "match_odds(m); print(time.perf_counter() - t)"
)


def random_match(variant: Variant, seats: int, rng: random.Random) -> tuple[Record, list[Match]]:
    """A finished match of random legal play, and every position a move was due in."""
    m = Match.new(variant, seats)
    log: list[RecordEvent] = []
    positions: list[Match] = []
    while not m.finished:
        turn = m.turn
        assert turn is not None
        positions.append(m)
        if turn.dice is None:
            count = rng.choice((1, 2)) if m.may_throw_one_die else 2
            dice = tuple(rng.randint(1, 6) for _ in range(count))
            m, events = m.throw(turn.seat, dice)
        else:
            m, events = m.cover(turn.seat, rng.choice(turn.options))
        append_events(log, events)
    assert m.result is not None
    record = Record(
        id="m_bench",
        variant=variant,
        deadline_seconds=86400,
        created="2026-01-01T00:00:00Z",
        seats=tuple(SeatEntry(f"player{s + 1}") for s in range(seats)),
        commitment=HEX,
        server_seed=HEX,
        client_seed="bench",
        events=tuple(log),
        result=m.result,
    )
    return record, positions


def quantiles(ms: Sequence[float]) -> str:
    ordered = sorted(ms)
    p = statistics.quantiles(ordered, n=100, method="inclusive")
    return (
        f"p50 {p[49]:8.3f} ms   p99 {p[98]:8.3f} ms   max {ordered[-1]:8.3f} ms   "
        f"mean {statistics.fmean(ordered):7.3f} ms   (n = {len(ordered)})"
    )


def timed(items: Sequence[T], call: Callable[[T], object]) -> list[float]:
    found = []
    for item in items:
        t = time.perf_counter()
        call(item)
        found.append((time.perf_counter() - t) * 1000)
    return found


def _choice_due(m: Match) -> bool:
    turn = m.turn
    return turn is not None and (len(turn.options) > 1 or m.may_throw_one_die)


def _odds(m: Match) -> object:
    return match_odds(m)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=3000)
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)

    child = subprocess.run(
        [sys.executable, "-c", START_UP], capture_output=True, text=True, check=True
    )
    states, seconds = child.stdout.split()
    print(f"start-up: import, build every table ({states} Classic states): {float(seconds):.2f} s")
    worst = subprocess.run(
        [sys.executable, "-c", WORST_COLD], capture_output=True, text=True, check=True
    )
    print(f"first question of a fresh process, seat 1 of 4 in Classic: {float(worst.stdout):.2f} s")

    pools: dict[tuple[Variant, int], list[Match]] = {}
    for variant in Variant:
        for seats in (2, 3, 4):
            pool = pools[variant, seats] = []
            while len(pool) < 2 * args.positions:
                pool += random_match(variant, seats, rng)[1]
    share = max(1, args.positions // len(pools))
    drawn = {key: rng.sample(pool, 2 * share) for key, pool in pools.items()}
    cold_sample = [m for sample in drawn.values() for m in sample[:share]]
    rng.shuffle(cold_sample)
    print(f"\nlive positions: {share} for each variant and seat count (2-4 seats)")
    cold = timed(cold_sample, _odds)
    print(f"  cold tables, built as needed       {quantiles(cold)}")
    print(f"    (all {len(cold)} cold positions together: {sum(cold) / 1000:.2f} s)")
    warm_up()
    warm_all: list[float] = []
    for (variant, seats), sample in drawn.items():
        warm = timed(sample[share:], _odds)
        warm_all += warm
        print(f"  warm tables, {variant:8} {seats} seats     {quantiles(warm)}")
    print(f"  warm tables, all                   {quantiles(warm_all)}")
    choices = [m for sample in drawn.values() for m in sample[share:] if _choice_due(m)]
    print(f"  warm, only where a choice is due   {quantiles(timed(choices, _odds))}")

    print(f"\nreviews of finished four-seat matches ({args.matches} each, tables warm):")
    for variant in (Variant.CLASSIC, Variant.JACKPOT):
        records = [random_match(variant, 4, rng)[0] for _ in range(args.matches)]
        throws = statistics.fmean(len(r.throws) for r in records)
        print(f"  {variant} ({throws:.0f} throws a match on average)")
        print(f"    match equity (review_match)   {quantiles(timed(records, review_match))}")
        figures = quantiles(timed(records, lambda r: summarise(review_match(r))))
        print(f"    with the seats' figures       {figures}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
