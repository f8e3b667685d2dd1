"""The analysis board through HTTP: ``GET /api/analysis`` over many positions, the worst included.

    .venv/bin/python bench/analysis_bench.py --random 5000 --worst 40 --repeat 25 --seed 1

1. In this process, before the server starts: the memory that every cover listing a
   query can make the server keep takes (per variant, open set and throw, measured
   with ``tracemalloc`` as they are filled); then a sweep of every open set of both
   variants, before the throw and with every throw it can meet (21 pairs, and one die
   where Classic allows it), each with the stakes whose numbers are longest (Classic:
   the first of four seats, and a score to beat with two seats after; Jackpot: four
   seats, three after), answered by the board's own code (``board_answer``: the odds
   and their writing, percentages included) and timed. A single time on a shared
   machine is as often a pause as the position, so the slowest ten times ``--worst``
   are timed five times more and ranked by their median; the ``--worst`` slowest are
   kept for step 3.
2. ``jackpot serve`` (one process, a fresh SQLite database; the board reads no
   database); once its start-up tables are built (its CPU time is watched until it
   idles), ``--random`` positions drawn at random (variant, open set, dice or none,
   and a stake of the variant: alone, or any state a seat of two to four can face)
   are asked one at a time over loopback HTTP with a keep-alive connection.
3. Each of the worst positions is asked ``--repeat`` times the same way.

Every request's time is from sending it to reading the whole answer. Nothing is
asserted: the figures are for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import resource
import statistics
import sys
import time
import tracemalloc
from collections.abc import Sequence

from jackpot.bench.client import Connection
from jackpot.bench.run import DEFAULT_PG
from jackpot.bench.server import Server, cpu_seconds
from jackpot.engine import Variant
from jackpot.engine.tiles import from_mask, may_throw_one_die
from jackpot.strategy.classic_match import Facing, facings
from jackpot.strategy.match_odds import (
    JackpotRound,
    Stake,
    jackpot_rounds,
    position_odds,
    warm_up,
)
from jackpot.web.analysis.answer import board_answer
from jackpot.web.analysis.position import BoardPosition
from jackpot.web.players.odds_view import board_link

HOST = "127.0.0.1"
PAIRS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
#: The stakes with the longest fractions: their denominators grow with the seats after.
HEAVY: dict[Variant, list[Stake]] = {
    Variant.CLASSIC: [Facing(None, 0, 3), Facing(1, 1, 2)],
    Variant.JACKPOT: [JackpotRound(4, 0, 3)],
}


def quantiles(ms: Sequence[float]) -> str:
    ordered = sorted(ms)
    p = statistics.quantiles(ordered, n=100, method="inclusive")
    return (
        f"p50 {p[49]:6.2f} ms   p99 {p[98]:6.2f} ms   max {ordered[-1]:6.2f} ms   "
        f"(n = {len(ordered)})"
    )


def throws(variant: Variant, mask: int) -> list[tuple[int, ...] | None]:
    """Before the throw, every pair, and one die where it may be thrown."""
    found: list[tuple[int, ...] | None] = [None, *PAIRS]
    if may_throw_one_die(variant, from_mask(mask)):
        found += [(d,) for d in range(1, 7)]
    return found


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def cover_memory() -> float:
    """MB the cover listings of every variant, open set and throw keep, once all are asked."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for variant in Variant:
        for mask in range(1, 512):
            for dice in throws(variant, mask):
                if dice is not None:
                    position_odds(variant, from_mask(mask), dice, None)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / 2**20


def median_ms(position: BoardPosition, runs: int = 5) -> float:
    found = []
    for _ in range(runs):
        t0 = time.perf_counter()
        board_answer(position)
        found.append((time.perf_counter() - t0) * 1000)
    return statistics.median(found)


def sweep(keep: int) -> list[tuple[float, BoardPosition]]:
    """Time every position of the heavy stakes; the ``keep`` slowest, slowest first."""
    start = time.perf_counter()
    warm_up()
    print(f"start-up tables built in this process in {time.perf_counter() - start:.1f} s")
    print(f"every cover listing a query can ask for: {cover_memory():.1f} MB kept")
    timed: list[tuple[float, BoardPosition]] = []
    start = time.perf_counter()
    for variant in Variant:
        for mask in range(1, 512):
            for dice in throws(variant, mask):
                for stake in [None, *HEAVY[variant]]:
                    position = BoardPosition(variant, from_mask(mask), dice, stake)
                    t0 = time.perf_counter()
                    board_answer(position)
                    timed.append(((time.perf_counter() - t0) * 1000, position))
    took = time.perf_counter() - start
    ms = [t for t, _ in timed]
    print(f"sweep: {len(timed):,} positions in {took:.1f} s, board_answer in this process: "
          f"{quantiles(ms)}; resident {rss_mb():.0f} MB")
    timed.sort(key=lambda tp: tp[0], reverse=True)
    again = [(median_ms(position), position) for _, position in timed[: keep * 10]]
    again.sort(key=lambda tp: tp[0], reverse=True)
    return again[:keep]


def random_position(rng: random.Random) -> BoardPosition:
    variant = rng.choice(list(Variant))
    mask = rng.randrange(1, 512)
    dice = rng.choice(throws(variant, mask))
    stakes: list[Stake] = [None]
    stakes += facings() if variant is Variant.CLASSIC else jackpot_rounds()
    return BoardPosition(variant, from_mask(mask), dice, rng.choice(stakes))


def path_of(position: BoardPosition) -> str:
    return "/api" + board_link(
        position.variant, position.open_tiles, position.dice, position.stake
    )


async def ask(conn: Connection, path: str) -> float:
    start = time.perf_counter()
    status, data = await conn.request("GET", path)
    ms = (time.perf_counter() - start) * 1000
    if status != 200:
        raise RuntimeError(f"GET {path}: {status} {data[:300]!r}")
    json.loads(data)
    return ms


async def wait_until_idle(server: Server) -> float:
    """Seconds until the server's processes stop using the CPU (the tables are built)."""
    start = time.perf_counter()
    before = cpu_seconds(server.pids())
    while True:
        await asyncio.sleep(0.5)
        now = cpu_seconds(server.pids())
        if now - before < 0.05:
            return time.perf_counter() - start
        before = now


def describe(position: BoardPosition) -> str:
    return path_of(position).removeprefix("/api/analysis?")


async def main(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    worst = sweep(args.worst)
    print("  the slowest in this process (median of five):")
    for ms, position in worst[:5]:
        print(f"    {ms:6.2f} ms  {describe(position)}")
    server = Server("sqlite", 1, False, args.pg_admin)
    await server.start()
    try:
        conn = Connection(HOST, server.port)
        building = await wait_until_idle(server)
        print(f"\nserver: SQLite, one process; its tables were built {building:.1f} s "
              "after it first answered")
        positions = [random_position(rng) for _ in range(args.random)]
        ms = [await ask(conn, path_of(p)) for p in positions]
        print(f"GET /api/analysis, {args.random} random positions: {quantiles(ms)}")
        worst_ms: list[float] = []
        slowest: tuple[float, BoardPosition] | None = None
        for _, position in worst:
            for _ in range(args.repeat):
                took = await ask(conn, path_of(position))
                worst_ms.append(took)
                if slowest is None or took > slowest[0]:
                    slowest = (took, position)
        print(f"GET /api/analysis, the {len(worst)} slowest positions x {args.repeat}: "
              f"{quantiles(worst_ms)}")
        if slowest is not None:
            print(f"  the slowest answer: {slowest[0]:.2f} ms for {describe(slowest[1])}")
        print(f"all: {quantiles(ms + worst_ms)}")
        await conn.close()
    finally:
        await server.stop()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=5000, help="random positions asked")
    ap.add_argument("--worst", type=int, default=40, help="slowest positions kept")
    ap.add_argument("--repeat", type=int, default=25, help="times each slowest is asked")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pg-admin", default=DEFAULT_PG)
    asyncio.run(main(ap.parse_args()))
    sys.exit(0)
