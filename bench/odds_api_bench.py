"""The match odds through the HTTP API, and the review of finished four-seat Classic matches.

    .venv/bin/python bench/odds_api_bench.py --matches 4 --reviews 20 --seed 1 [--db postgresql]

``jackpot serve`` runs on a fresh database (``jackpot.bench.server.Server``: SQLite by
default, one process), and this script talks to it over loopback HTTP with the
benchmark's own keep-alive client, one request at a time:

1. Start-up: how long after the server answers its health check it keeps building
   the odds' tables (its CPU time is watched until it idles), and how long the first
   odds request took, sent at once, while they were being built.
2. Live positions: a person with autoplay off plays ``--matches`` matches of each
   variant with 1 to 4 seats (the others bots), choosing at random between the best
   option of the odds and a random one, and asks ``GET /api/matches/{id}/odds`` at
   every position where a move of theirs is due. Every answer is timed.
3. Reviews: ``--reviews`` four-seat Classic matches (the person and three bots) are
   played to the end and ``GET /matches/{id}/replay`` (the page with every decision
   valued, ``review_match``) is timed; and ``--people`` Classic matches of four people
   are played to the end, timing the move that ends each (its transaction reviews
   the match for the stored figures and rates the four).

Nothing is asserted: the figures are for docs/analysis.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from jackpot.bench.client import Connection
from jackpot.bench.run import DEFAULT_PG, sign_up_all
from jackpot.bench.server import Server, cpu_seconds

HOST = "127.0.0.1"


def quantiles(ms: Sequence[float]) -> str:
    ordered = sorted(ms)
    if len(ordered) < 2:
        return f"{ordered[0]:8.2f} ms (n = 1)" if ordered else "(none)"
    p = statistics.quantiles(ordered, n=100, method="inclusive")
    return (
        f"p50 {p[49]:7.2f} ms   p99 {p[98]:7.2f} ms   max {ordered[-1]:7.2f} ms   "
        f"(n = {len(ordered)})"
    )


async def timed(conn: Connection, method: str, path: str, body: Any = None) -> tuple[float, Any]:
    start = time.perf_counter()
    status, data = await conn.request(method, path, body)
    ms = (time.perf_counter() - start) * 1000
    if status not in (200, 201):
        raise RuntimeError(f"{method} {path}: {status} {data[:300]!r}")
    return ms, (json.loads(data) if data[:1] in (b"{", b"[") else None)


def choose(state: dict[str, Any], odds: dict[str, Any] | None, rng: random.Random) -> Any:
    """The move's body: mostly the odds' best choice, sometimes a random one."""
    turn = state["turn"]
    if turn["dice"] is None:
        if turn.get("one_die"):
            if odds and odds.get("best_dice") and rng.random() < 0.7:
                return "throw", {"dice": odds["best_dice"]}
            return "throw", {"dice": rng.choice((1, 2))}
        return "throw", {}
    if odds and odds.get("best") and rng.random() < 0.7:
        return "cover", {"tiles": odds["best"]}
    return "cover", {"tiles": rng.choice(turn["options"])}


async def play(
    conns: dict[int, Connection],
    state: dict[str, Any],
    rng: random.Random,
    odds_ms: list[float] | None,
) -> tuple[dict[str, Any], float]:
    """Play ``state``'s match to its end, each seat in ``conns`` by its own connection;
    returns the final state and how long the move that ended it took."""
    mid = state["id"]
    last = 0.0
    for _ in range(20000):
        if state["status"] == "finished":
            return state, last
        conn = conns[state["turn"]["seat"]]
        odds = None
        if odds_ms is not None:
            ms, odds = await timed(conn, "GET", f"/api/matches/{mid}/odds")
            odds_ms.append(ms)
        action, body = choose(state, odds, rng)
        last, state = await timed(conn, "POST", f"/api/matches/{mid}/{action}", body)
    raise RuntimeError("a match did not end")


async def new_match(conn: Connection, variant: str, seats: int, bots: int) -> dict[str, Any]:
    _, state = await timed(
        conn, "POST", "/api/matches", {"variant": variant, "seats": seats, "bots": bots}
    )
    return dict(state)


async def seat_of(conn: Connection, match_id: str) -> int:
    _, state = await timed(conn, "GET", f"/api/matches/{match_id}")
    return next(i for i, s in enumerate(state["seats"]) if s["you"])


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


async def main(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    server = Server(args.db, 1, False, args.pg_admin)
    await server.start()
    try:
        (token,) = await sign_up_all(HOST, server.port, 1)
        me = Connection(HOST, server.port, {"Authorization": f"Bearer {token}"})
        state = await new_match(me, "classic", 4, 3)
        first, _ = await timed(me, "GET", f"/api/matches/{state['id']}/odds")
        building = await wait_until_idle(server)
        print(f"server: {args.db}, one process")
        print(f"  first odds request right after start-up (tables building): {first:.1f} ms")
        print(f"  the server kept building tables for about {building:.1f} s more")

        print(f"\nlive positions, GET /api/matches/{{id}}/odds ({args.matches} matches each):")
        everything: list[float] = []
        for variant in ("jackpot", "classic"):
            for seats in (1, 2, 3, 4):
                ms: list[float] = []
                for _ in range(args.matches):
                    state = await new_match(me, variant, seats, seats - 1)
                    seat = await seat_of(me, state["id"])
                    await play({seat: me}, state, rng, ms)
                everything += ms
                print(f"  {variant:8} {seats} seat(s)   {quantiles(ms)}")
        print(f"  all                  {quantiles(everything)}")

        print(f"\nreviews, GET /matches/{{id}}/replay of four-seat Classic ({args.reviews}):")
        pages = []
        for _ in range(args.reviews):
            state = await new_match(me, "classic", 4, 3)
            seat = await seat_of(me, state["id"])
            state, _ = await play({seat: me}, state, rng, None)
            ms, _ = await timed(me, "GET", f"/matches/{state['id']}/replay")
            pages.append(ms)
        print(f"  the replay page      {quantiles(pages)}")

        if args.people:
            tokens = await sign_up_all(HOST, server.port, 4)
            people = [
                Connection(HOST, server.port, {"Authorization": f"Bearer {t}"}) for t in tokens
            ]
            ends = []
            for _ in range(args.people):
                state = await new_match(people[0], "classic", 4, 0)
                for p in people[1:]:
                    _, state = await timed(p, "POST", f"/api/matches/{state['id']}/join", {})
                conns = {await seat_of(p, state["id"]): p for p in people}
                _, last = await play(conns, state, rng, None)
                ends.append(last)
            print(f"  the move that ends a four-person match (review and ratings): "
                  f"{quantiles(ends)}")
            for p in people:
                await p.close()
        await me.close()
    finally:
        await server.stop()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=4, help="matches per variant and seat count")
    ap.add_argument("--reviews", type=int, default=20)
    ap.add_argument("--people", type=int, default=10, help="four-person Classic matches")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument("--pg-admin", default=DEFAULT_PG)
    asyncio.run(main(ap.parse_args()))
    sys.exit(0)
