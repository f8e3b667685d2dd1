"""The load benchmark: signed-up players play real 2-seat matches over HTTP while
each seat follows its match over SSE; then the same client hammers GET /api/health.

What it measures (see docs/benchmarks.md for results):
- actions/s: throws and covers acknowledged (200) per second in the measured window;
- action latency p50/p95/p99: request sent → response read;
- SSE delivery p50/p99: action acknowledged → its last event read by the *other*
  seat's stream (0 when the event came first: the server publishes before it
  renders the response);
- open SSE connections and the server's resident memory (all its processes);
- health req/s: the same client and connection count on the bare health endpoint,
  so actions/health compares across machines.

The players behave like the page does: a seat acts on its own response while it
keeps the turn (throw, then cover), and the other seat acts only once its stream
has shown it the turn. Everything is bounded in time and count, loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import resource
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jackpot.bench.client import Connection, HTTPError, MatchSocket, SSEWatcher

DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"


# -- the server under test -------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _pg_admin(url: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql://", "postgres://", 1), timeout=10)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


class Server:
    """``jackpot serve`` on a fresh database (SQLite file or new PostgreSQL database)."""

    def __init__(self, db: str, workers: int, redis: bool, pg_admin: str) -> None:
        self.db = db
        self.workers = workers
        self.redis = redis
        self.pg_admin = pg_admin
        self.port = _free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="jackpot-bench-"))
        self.pg_name: str | None = None
        self.proc: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        env = {**os.environ, "JACKPOT_VAR_DIR": str(self.dir),
               "JACKPOT_SECRET_KEY": secrets.token_hex(16),
               # Every benchmark player comes from this one address: the limits a
               # stranger meets per address would stop the benchmark, not measure it.
               "JACKPOT_SIGNUP_LIMIT": "1000000/1h",
               "JACKPOT_LOGIN_LIMIT": "1000000/1h",
               "JACKPOT_STREAMS_PER_ADDRESS": "100000",
               "JACKPOT_ACCOUNT_ACTIVE_MATCHES": "100000"}
        env.pop("JACKPOT_REDIS_URL", None)
        env.pop("DATABASE_URL", None)
        if self.db == "postgresql":
            self.pg_name = "jackpot_bench_" + secrets.token_hex(4)
            await _pg_admin(self.pg_admin, f'CREATE DATABASE "{self.pg_name}"')
            parts = urlsplit(self.pg_admin)
            env["DATABASE_URL"] = f"{parts.scheme}://{parts.netloc}/{self.pg_name}"
        if self.redis:
            env["JACKPOT_REDIS_URL"] = os.environ.get("JACKPOT_REDIS_URL") or DEFAULT_REDIS
        cmd = [sys.executable, "-m", "jackpot.cli", "serve", "--port", str(self.port),
               "--log-level", "warning", "--workers", str(self.workers)]
        with open(self.dir / "server.log", "wb") as log:
            self.proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
        for _ in range(300):
            if self.proc.poll() is not None:
                raise RuntimeError((self.dir / "server.log").read_text())
            with contextlib.suppress(OSError, HTTPError):
                c = Connection("127.0.0.1", self.port)
                status, _ = await c.request("GET", "/api/health")
                await c.close()
                if status == 200 and len(self.pids()) >= self.workers:
                    await asyncio.sleep(0.5 if self.workers > 1 else 0)
                    return
            await asyncio.sleep(0.1)
        raise RuntimeError("the server did not start")

    def pids(self) -> list[int]:
        """The server's processes: the one started, and its workers if any."""
        if self.proc is None:
            return []
        return [self.proc.pid, *_children(self.proc.pid)]

    async def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.to_thread(self.proc.wait, 20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        if self.pg_name is not None:
            await _pg_admin(self.pg_admin, f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)')


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry))
    return out


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


def cpu_seconds(pids: list[int]) -> float:
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / tick


# -- players -----------------------------------------------------------------------


@dataclass
class Stats:
    measuring: bool = False
    actions: int = 0
    refused: int = 0
    latencies: list[float] = field(default_factory=list)
    sse: list[float] = field(default_factory=list)
    sse_early: int = 0
    sse_missing: int = 0
    finished_matches: int = 0


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


def next_move(state: dict[str, Any]) -> tuple[int, str, dict[str, Any]] | None:
    """(seat, action, body) for whoever must move, or None once finished.

    The multi-process tests drive their matches with this too.
    """
    turn = state["turn"]
    if state["status"] != "playing" or turn is None:
        return None
    if turn["dice"] is None:
        return turn["seat"], "throw", {"dice": 2}
    return turn["seat"], "cover", {"tiles": turn["options"][0]}


Move = tuple[int, str, dict[str, Any]]
#: ``after_event``'s mark for a match that is over.
OVER: Move = (-1, "over", {})


def after_event(move: Move | None, ev: dict[str, Any]) -> Move | None:
    """The move due after ``ev``, given the one due before it (None: not known yet,
    as between a turn's end and the next one's start): what a socket client that
    follows the events knows without the whole state. People only, as the bench
    seats them: a bot's or autoplay's moves come as events like anyone's."""
    kind = ev["type"]
    if kind == "thrown":
        return (ev["seat"], "cover", {"tiles": ev["options"][0]}) if ev["options"] else None
    if kind in ("covered", "turn_started"):
        return ev["seat"], "throw", {"dice": 2}
    if kind in ("turn_ended", "seat_out"):
        return None
    if kind in ("match_ended", "cancelled"):
        return OVER
    return move


class Table:
    """Two seated players at one match: two API connections, two SSE streams."""

    def __init__(self, host: str, port: int, tokens: list[str], stats: Stats,
                 interval: float = 0.0, transport: str = "http") -> None:
        self.host = host
        self.port = port
        self.tokens = tokens
        self.stats = stats
        self.api = [Connection(host, port, {"Authorization": f"Bearer {t}"}) for t in tokens]
        #: "http": moves as POSTs, events over SSE; "ws": both on one socket per seat.
        self.transport = transport
        self.watchers: list[SSEWatcher] = []
        self.sockets: list[MatchSocket] = []
        # Indexed by player (0 made the match, 1 joined it), not by seat.
        self.seen = [0, 0]
        #: Over the socket: the move due after the last event each player saw.
        self.due: list[Move | None] = [None, None]
        self.acked: list[dict[int, float]] = [{}, {}]
        self.arrived = [asyncio.Event(), asyncio.Event()]
        #: The player in each seat: the order of play is drawn when player 1 joins.
        self.player_of = [0, 1]
        #: With ``--rate``: seconds between this table's actions (0: as fast as it can).
        self.interval = interval
        self.next_at = 0.0

    async def _pace(self) -> None:
        """Wait for this table's next slot. A table that fell behind (the server was
        slower than the offered rate) goes at once but does not burst to catch up."""
        if not self.interval:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        if not self.next_at:
            self.next_at = now + random.uniform(0, self.interval)  # spread the tables
        if self.next_at > now:
            await asyncio.sleep(self.next_at - now)
        self.next_at = max(self.next_at, loop.time() - self.interval) + self.interval

    async def new_match(self) -> dict[str, Any]:
        for w in self.watchers:
            await w.stop()
        for sock in self.sockets:
            await sock.close()
        state = await self.api[0].json("POST", "/api/matches", {
            "seats": 2, "bots": 0, "deadline_seconds": 3600}, expect=201)
        state = await self.api[1].json("POST", f"/api/matches/{state['id']}/join", {})
        joiner = next(i for i, seat in enumerate(state["seats"]) if seat["you"])
        self.player_of = [1, 0] if joiner == 0 else [0, 1]
        self.seen = [0, 0]
        self.due = [None, None]
        self.acked = [{}, {}]
        if self.transport == "ws":
            self.sockets = [
                MatchSocket(self.host, self.port, state["id"],
                            {"Authorization": f"Bearer {self.tokens[player]}"},
                            self._on_event(player))
                for player in (0, 1)
            ]
            await asyncio.wait_for(
                asyncio.gather(*(sock.connect() for sock in self.sockets)), timeout=30
            )
            return dict(state)
        self.watchers = [
            SSEWatcher(self.host, self.port, state["id"], self._on_event(player))
            for player in (0, 1)
        ]
        for w in self.watchers:
            w.start()
        await asyncio.wait_for(
            asyncio.gather(*(w.connected.wait() for w in self.watchers)), timeout=30
        )
        return dict(state)

    def _on_event(self, player: int) -> Any:
        def on_event(seq: int, when: float, ev: dict[str, Any] | None) -> None:
            self.seen[player] = max(self.seen[player], seq)
            if ev is not None:
                self.due[player] = after_event(self.due[player], ev)
            acked_at = self.acked[player].pop(seq, None)
            if acked_at is not None and self.stats.measuring:
                self.stats.sse.append(when - acked_at)
            self.arrived[player].set()

        return on_event

    async def _wait_seen(self, player: int, seq: int) -> bool:
        async def until() -> None:
            while self.seen[player] < seq:
                self.arrived[player].clear()
                await self.arrived[player].wait()

        try:
            await asyncio.wait_for(until(), timeout=10)
            return True
        except TimeoutError:
            return False

    async def play(self, stop: asyncio.Event, state: dict[str, Any]) -> None:
        """Play ``state``'s match, then the next, until ``stop``. Over HTTP each answer
        is the new state; over the socket the events say what is due next."""
        match_id = state["id"]
        move = next_move(state)
        while not stop.is_set():
            if move is None or move is OVER:
                self.stats.finished_matches += 1
                state = await self.new_match()
                match_id = state["id"]
                move = next_move(state)
                continue
            seat, action, body = move
            player = self.player_of[seat]
            await self._pace()
            t0 = time.perf_counter()
            if self.transport == "ws":
                reply = await self.sockets[player].move(action, body)
                ok = reply["type"] == "ack"
                seq = reply.get("seq", 0)
                # The socket has delivered every event up to the ack's seq.
                nxt = self.due[player]
            else:
                status, data = await self.api[player].request(
                    "POST", f"/api/matches/{match_id}/{action}", body)
                ok = status == 200
                if ok:
                    state = json.loads(data)
                    seq, nxt = state["seq"], next_move(state)
            t1 = time.perf_counter()
            if not ok:
                self.stats.refused += 1
                state = await self.api[player].json("GET", f"/api/matches/{match_id}")
                move = next_move(state)
                continue
            other = 1 - player
            if self.stats.measuring:
                self.stats.actions += 1
                self.stats.latencies.append(t1 - t0)
                if self.seen[other] >= seq:
                    self.stats.sse.append(0.0)
                    self.stats.sse_early += 1
                else:
                    self.acked[other][seq] = t1
            if nxt is None and self.transport == "ws":
                # Between turns (a throw with no cover ends one): the next begins
                # in the same action, so its events are here too; else ask.
                state = await self.api[player].json("GET", f"/api/matches/{match_id}")
                nxt = next_move(state)
            waits = nxt is not None and nxt is not OVER and self.player_of[nxt[0]] == other
            if waits and not await self._wait_seen(other, seq):
                self.stats.sse_missing += 1  # the other seat never saw its turn
            move = nxt

    async def close(self) -> None:
        for w in self.watchers:
            await w.stop()
        for sock in self.sockets:
            await sock.close()
        for c in self.api:
            await c.close()


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


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
    cpu0, cpu_client0 = cpu_seconds(pids), _self_cpu()
    t0 = time.perf_counter()
    await asyncio.sleep(args.duration)
    stats.measuring = False
    elapsed = time.perf_counter() - t0
    cpu1, cpu_client1 = cpu_seconds(pids), _self_cpu()
    sse_open = sum(w.open for t in tables for w in [*t.watchers, *t.sockets])
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


def _self_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


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


def machine() -> str:
    cpu = "?"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{os.cpu_count()} cores, {cpu}, {mem:.0f} GB, Python {platform.python_version()}"


def table_row(result: dict[str, Any]) -> str:
    s = result["settings"]
    load = result.get("load_average_before", "")
    if "idle_sse_open" in result:
        return (f"| {result['date']} | idle SSE | {s['db']} | {s['processes']} | "
                f"{result['idle_sse_open']} streams | | | | "
                f"{result['server_rss_mb']} MB ({result['kb_per_stream']} KB/stream) | | | "
                f"{load} |")
    a, e = result["action_ms"], result["sse_ms"]
    paced = f", offered {result['offered_per_s']:g}/s" if result.get("offered_per_s") else ""
    return (f"| {result['date']} | play | {s['db']}{' + Redis' if s['redis'] else ''} | "
            f"{s['processes']} | {result['matches']} matches, {result['sse_open']} SSE{paced} | "
            f"**{result['actions_per_s']}** | {a['p50']} / {a['p95']} / {a['p99']} | "
            f"{e['p50']} / {e['p99']} | {result['server_rss_mb']} MB | "
            f"{result['health_per_s']} | {result['actions_over_health']} | {load} |")


TABLE_HEAD = (
    "| date | run | database | processes | load | actions/s | action ms p50/p95/p99 | "
    "SSE ms p50/p99 | server RSS | health req/s | actions/health | load avg before |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|\n"
)


def append_table(path: Path, result: dict[str, Any]) -> None:
    text = path.read_text() if path.exists() else "# Benchmarks\n"
    header = f"\n### {result['machine']}\n\n`{result['command']}`\n\n" + TABLE_HEAD
    path.write_text(text.rstrip("\n") + "\n" + header + table_row(result) + "\n")


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
    p.add_argument("--transport", choices=["http", "ws"], default="http",
                   help="http: moves as POSTs, each seat following an SSE stream; ws: moves "
                   "and events on one WebSocket per seat (the match page's way)")
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
