"""The load benchmark: signed-up players play real 2-seat matches, each seat on its
match's WebSocket as the match page does (or ``--transport http``: moves as POSTs,
each seat following an SSE stream); then the same client hammers GET /api/health.

What it measures (see docs/benchmarks.md for results):
- actions/s: throws and covers acknowledged (200) per second in the measured window;
- action latency p50/p95/p99: move sent → its answer read;
- event delivery p50/p99: action acknowledged → its last event read by the *other*
  seat (0 when the event came first: the server publishes before it renders the
  response);
- open SSE connections and the server's resident memory (all its processes);
- health req/s: the same client and connection count on the bare health endpoint,
  so actions/health compares across machines.

The players behave like the page does: a seat acts on its own response while it
keeps the turn (throw, then cover), and the other seat acts only once its socket
(or stream) has shown it the turn. Everything is bounded in time and count, loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jackpot.bench.client import Connection, SSEWatcher
from jackpot.bench.report import append_table, machine, pct
from jackpot.bench.server import Server, cpu_seconds, rss_mb, self_cpu
from jackpot.bench.table import Stats, Table

DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/test"
async def sign_up_all(host: str, port: int, n: int, parallel: int = 8) -> list[str]:
    """``n`` accounts through the API (argon2 makes this the slow part), with a
    bearer token each."""
    import httpx

    tokens: list[str] = []
    sem = asyncio.Semaphore(parallel)
    tag = secrets.token_hex(3)

    async def one(i: int) -> None:
        async with sem, httpx.AsyncClient(base_url=f"http://{host}:{port}", timeout=60) as c:
            r = await c.post("/api/account", json={
                "email": f"p{i}-{tag}@bench.example", "password": "bench password",
                "name": f"P{i}x{tag}"})
            r.raise_for_status()
            # Every move is pressed, as the peer's clients do: no forced move made for them.
            r = await c.put("/api/account/autoplay", json={"throws": False, "single_covers": False})
            r.raise_for_status()
            r = await c.post("/api/tokens", json={"label": "bench", "password": "bench password"})
            r.raise_for_status()
            tokens.append(r.json()["token"])

    await asyncio.gather(*(one(i) for i in range(n)))
    return tokens


async def health_rate(host: str, port: int, connections: int, seconds: float) -> float:
    stop = asyncio.Event()
    count = 0

    async def loop() -> None:
        nonlocal count
        c = Connection(host, port)
        try:
            while not stop.is_set():
                status, _ = await c.request("GET", "/api/health")
                if status == 200:
                    count += 1
        finally:
            await c.close()

    tasks = [asyncio.create_task(loop()) for _ in range(connections)]
    await asyncio.sleep(1)  # warm-up
    start_count, t0 = count, time.perf_counter()
    await asyncio.sleep(seconds)
    rate = (count - start_count) / (time.perf_counter() - t0)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return rate


async def play_benchmark(args: argparse.Namespace, host: str, port: int,
                         pids: list[int]) -> dict[str, Any]:
    stats = Stats()
    t_setup = time.perf_counter()
    tokens = await sign_up_all(host, port, min(2 * args.matches, args.accounts))
    # Each account sits at several tables (as a person with several matches open).
    interval = args.matches / args.rate if args.rate else 0.0
    tables = [
        Table(host, port, [tokens[(2 * i) % len(tokens)], tokens[(2 * i + 1) % len(tokens)]],
              stats, interval, args.transport)
        for i in range(args.matches)
    ]
    # Every table's first match is set up before the clock starts, a few at a time:
    # 200 matches opening 800 connections at once keep the server's accept queue
    # seconds long, which is the setup, not the play this measures.
    gate = asyncio.Semaphore(10)

    async def first_match(table: Table) -> dict[str, Any]:
        async with gate:
            return await table.new_match()

    firsts = await asyncio.gather(*(first_match(t) for t in tables))
    setup_s = time.perf_counter() - t_setup
    stop = asyncio.Event()
    tasks = [asyncio.create_task(t.play(stop, s)) for t, s in zip(tables, firsts, strict=True)]
    await asyncio.sleep(args.warmup)
    stats.measuring = True
    cpu0, cpu_client0 = cpu_seconds(pids), self_cpu()
    t0 = time.perf_counter()
    await asyncio.sleep(args.duration)
    stats.measuring = False
    elapsed = time.perf_counter() - t0
    cpu1, cpu_client1 = cpu_seconds(pids), self_cpu()
    sse_open = sum(w.open for t in tables for w in t.watchers) + sum(
        w.open for t in tables for w in t.sockets
    )
    rss = rss_mb(pids)
    stop.set()
    done = await asyncio.gather(*tasks, return_exceptions=True)
    errors = [repr(e) for e in done if isinstance(e, BaseException)]
    for t in tables:
        await t.close()
    health = await health_rate(host, port, args.matches, args.health_seconds)
    actions_s = stats.actions / elapsed
    return {
        "matches": args.matches,
        "offered_per_s": args.rate or None,
        "duration_s": round(elapsed, 2),
        "actions": stats.actions,
        "actions_per_s": round(actions_s, 1),
        "action_ms": {p: round(1000 * pct(stats.latencies, q), 2)
                      for p, q in (("p50", 50), ("p95", 95), ("p99", 99))},
        "sse_ms": {p: round(1000 * pct(stats.sse, q), 2) for p, q in (("p50", 50), ("p99", 99))},
        "sse_samples": len(stats.sse),
        "sse_before_response": stats.sse_early,
        "sse_missing": stats.sse_missing,
        "refused": stats.refused,
        "finished_matches": stats.finished_matches,
        "sse_open": sse_open,
        "server_rss_mb": round(rss, 1),
        "server_cpu_ms_per_action": round(1000 * (cpu1 - cpu0) / max(1, stats.actions), 3),
        "client_cpu_ms_per_action": round(
            1000 * (cpu_client1 - cpu_client0) / max(1, stats.actions), 3),
        "health_per_s": round(health, 1),
        "actions_over_health": round(actions_s / health, 3) if health else None,
        "setup_s": round(setup_s, 1),
        "errors": errors[:5],
    }


async def idle_sse_benchmark(args: argparse.Namespace, host: str, port: int,
                             pids: list[int]) -> dict[str, Any]:
    """``--idle-sse N``: hold N idle streams on one process; its memory before/after."""
    import httpx

    async with httpx.AsyncClient(base_url=f"http://{host}:{port}", timeout=30) as c:
        ids = []
        for _ in range(10):  # solo practice matches: a guest may open them, no sign-up
            r = await c.post("/api/matches", json={"seats": 1, "bots": 0})
            r.raise_for_status()
            ids.append(r.json()["id"])
    await asyncio.sleep(1)
    before = rss_mb(pids)
    watchers = [SSEWatcher(host, port, ids[i % len(ids)], lambda s, w, e: None)
                for i in range(args.idle_sse)]
    t0 = time.perf_counter()
    sem = asyncio.Semaphore(100)  # connects in flight: within the listen backlog
    failed = 0

    async def connect(w: SSEWatcher) -> None:
        nonlocal failed
        async with sem:
            w.start()
            assert w._task is not None
            await asyncio.wait(
                [w._task, asyncio.ensure_future(w.connected.wait())], timeout=30,
                return_when=asyncio.FIRST_COMPLETED)
            if not w.connected.is_set():
                failed += 1

    await asyncio.wait_for(asyncio.gather(*(connect(w) for w in watchers)), timeout=300)
    connect_s = time.perf_counter() - t0
    await asyncio.sleep(2)
    held = sum(w.open for w in watchers)
    after = rss_mb(pids)
    for w in watchers:
        await w.stop()
    return {
        "idle_sse_requested": args.idle_sse,
        "idle_sse_open": held,
        "idle_sse_failed": failed,
        "server_rss_before_mb": round(before, 1),
        "server_rss_mb": round(after, 1),
        "kb_per_stream": round(1024 * (after - before) / max(1, held), 1),
        "connect_s": round(connect_s, 1),
    }


# -- reporting -------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="jackpot bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    p.add_argument("--processes", type=int, default=1, help="server processes (--workers)")
    p.add_argument("--redis", action="store_true",
                   help="JACKPOT_REDIS_URL for the server (default: on with >1 process)")
    p.add_argument("--url", help="a running server instead of starting one (no RSS/CPU)")
    p.add_argument("--pg-admin", default=os.environ.get("JACKPOT_TEST_DATABASE_URL") or DEFAULT_PG,
                   help="PostgreSQL server where a fresh database is created and dropped")
    p.add_argument("--matches", type=int, default=200, help="concurrent 2-seat matches")
    p.add_argument("--accounts", type=int, default=40,
                   help="accounts signed up (argon2 makes each cost ~0.1 s); players sit at "
                   "several tables when there are fewer than 2 per match")
    p.add_argument("--rate", type=float, default=0.0,
                   help="offered actions per second over all matches, each match pacing "
                   "itself evenly (default 0: every match acts as fast as answers come)")
    p.add_argument("--transport", choices=["http", "ws"], default="ws",
                   help="ws (default): moves and events on one WebSocket per seat, the match "
                   "page's way; http: moves as POSTs, each seat following an SSE stream, "
                   "as programs may")
    p.add_argument("--duration", type=float, default=20.0, help="measured seconds of play")
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--health-seconds", type=float, default=5.0)
    p.add_argument("--idle-sse", type=int, default=0,
                   help="instead of play: hold this many idle SSE streams, report memory")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--append", type=Path, help="append a table row, e.g. docs/benchmarks.md")
    args = p.parse_args(argv)
    if args.matches < 1 or args.matches > 2000 or args.duration > 600 or args.idle_sse > 20000:
        p.error("keep it bounded: 1..2000 matches, duration <= 600 s, idle-sse <= 20000")
    if args.rate < 0 or args.rate > 100_000:
        p.error("--rate is actions per second over all matches, 0 to 100000")
    return args


async def amain(args: argparse.Namespace, argv: list[str]) -> dict[str, Any]:
    server = None
    load_before = round(os.getloadavg()[0], 2)
    redis = args.redis or args.processes > 1
    if args.url:
        parts = urlsplit(args.url)
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
        if host not in {"127.0.0.1", "localhost", "::1"}:
            raise SystemExit("the benchmark runs on loopback only")
        pids: list[int] = []
    else:
        server = Server(args.db, args.processes, redis, args.pg_admin)
        await server.start()
        host, port, pids = "127.0.0.1", server.port, server.pids()
    try:
        if args.idle_sse:
            result = await idle_sse_benchmark(args, host, port, pids)
        else:
            result = await play_benchmark(args, host, port, pids)
    finally:
        if server is not None:
            await server.stop()
    result["settings"] = {"db": args.db, "processes": args.processes, "redis": redis,
                          "url": args.url, "transport": args.transport}
    result["machine"] = machine()
    # Other work on the machine skews every figure: say how busy it was.
    result["load_average_before"] = load_before
    result["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    result["command"] = "jackpot bench " + " ".join(argv)
    return result


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(argv)
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    result = asyncio.run(amain(args, argv))
    if args.append:
        append_table(args.append, result)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for k, v in result.items():
            print(f"{k:28} {v}")
    return 0
