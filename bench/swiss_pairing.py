"""Time the pairing of one Swiss round of many players, after a realistic history.

    .venv/bin/python bench/swiss_pairing.py [--players 1000] [--table-size 4] [--rounds 7]
                                            [--apart 50] [--runs 20] [--seed 1]

Plays ``--rounds`` earlier rounds by the rules: each paired by ``pair_round`` from the
standings so far, each table's places drawn from a seeded RNG (a shared place now and
then), a few players withdrawing, ``--apart`` random pairs kept apart. Then it times
the next round's pairing, ``--runs`` times: ``pair_round`` whole (standings with
Buchholz over the whole history, then the pairing) and ``pair`` alone (the order
given). It prints the median and the worst of each, and how many pairs would have met
again had the tables been cut straight from the order, beside how many the pairing
left: the repeat rule at work. Nothing is asserted: the figure goes in
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from jackpot.engine import (
    Entrant,
    RoundPlayed,
    TablePlayed,
    pair,
    pair_round,
    standings,
    table_sizes,
)
from jackpot.engine.swiss import bye_holders, meetings


def places_for(size: int, rng: random.Random) -> tuple[int, ...]:
    """A table's places: a random order, and one time in ten two players share one."""
    ranks = list(range(size))
    rng.shuffle(ranks)
    places = [r + 1 for r in ranks]
    if rng.random() < 0.1:
        first, second = sorted(rng.sample(range(size), 2), key=places.__getitem__)
        places[second] = places[first]
        places = [1 + sum(1 for q in places if q < p) for p in places]
    return tuple(places)


def history(
    players: int, table_size: int, rounds: int, apart: list[tuple[int, int]], rng: random.Random
) -> tuple[list[Entrant], list[RoundPlayed], set[int]]:
    entrants = [Entrant(f"player{i:05d}", round(rng.gauss(0, 8), 2)) for i in range(players)]
    played: list[RoundPlayed] = []
    gone: set[int] = set()
    for _ in range(rounds):
        pairing = pair_round(entrants, played, table_size, withdrawn=gone, apart=apart)
        tables = tuple(TablePlayed(t, places_for(len(t), rng)) for t in pairing.tables)
        played.append(RoundPlayed(tables=tables, byes=pairing.byes))
        gone |= {p for p in range(players) if p not in gone and rng.random() < 0.01}
    return entrants, played, gone


def straight_repeats(order: list[int], table_size: int, met: dict[int, set[int]]) -> int:
    """Pairs that would meet again were the tables cut straight from the order."""
    count, at = 0, 0
    for size in table_sizes(len(order), table_size):
        table = order[at : at + size]
        at += size
        count += sum(1 for i, a in enumerate(table) for b in table[i + 1 :] if b in met.get(a, ()))
    return count


def timed(runs: int, work: object) -> tuple[list[float], list[float]]:
    wall, cpu = [], []
    assert callable(work)
    for _ in range(runs):
        w0, c0 = time.perf_counter(), time.process_time()
        work()
        wall.append((time.perf_counter() - w0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--table-size", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--rounds", type=int, default=7, help="rounds played before")
    parser.add_argument("--apart", type=int, default=50, help="random pairs kept apart")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    apart = [tuple(rng.sample(range(args.players), 2)) for _ in range(args.apart)]
    kept = [(a, b) for a, b in apart]
    started = time.perf_counter()
    entrants, played, gone = history(args.players, args.table_size, args.rounds, kept, rng)
    built = time.perf_counter() - started
    met = meetings(played)
    order = [s.player for s in standings(entrants, played) if s.player not in gone]
    had_bye = bye_holders(played)

    def whole() -> None:
        pair_round(entrants, played, args.table_size, withdrawn=gone, apart=kept)

    def alone() -> None:
        pair(order, args.table_size, met=met, apart=kept, had_bye=had_bye)

    whole()  # warm
    result = pair(order, args.table_size, met=met, apart=kept, had_bye=had_bye)
    print(
        f"{args.players} players ({len(order)} still in) at tables of {args.table_size}, "
        f"after {args.rounds} rounds ({built:.1f} s to play them), {args.apart} pairs apart"
    )
    print(
        f"  repeats: {straight_repeats(order, args.table_size, met)} cut straight from the "
        f"order, {len(result.repeats)} after the pairing; {len(result.tables)} tables, "
        f"byes {len(result.byes)}, sitting out {len(result.sitting_out)}"
    )
    for label, work in (("pair_round (standings + pairing)", whole), ("pair alone", alone)):
        wall, cpu = timed(args.runs, work)
        print(
            f"  {label:<34} median {statistics.median(wall):7.2f} ms, worst {max(wall):7.2f} "
            f"ms; CPU median {statistics.median(cpu):7.2f} ms ({args.runs} runs)"
        )


if __name__ == "__main__":
    main()
