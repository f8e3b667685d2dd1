"""Seed a daily deal with N entries and time its board: p50 and p99 of each answer.

    .venv/bin/python bench/daily_board.py --entries 10000 [--runs 1000] [--database-url URL]

URL: an empty database (SQLite in a temporary directory by default).

Writes a deal, N accounts, their entries' match rows and ``daily_entries`` rows
straight into a fresh database (random but seeded results; 2% of the entries still
being played, with a snapshot as a real one has), then asks the app in-process
(every middleware, the route, the queries, JSON) for the board: its first page
(what the API answers by default), a page in the middle, the last page, the HTML
board and the daily page. It reports the median and the 99th percentile of each;
nothing here is asserted, it is a measurement to write down (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx
from sqlalchemy import insert

from jackpot import fair
from jackpot.engine import Match, Variant, daily_result
from jackpot.web.app import create_app
from jackpot.web.base.names import name_key, name_look
from jackpot.web.base.settings import Settings
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.daily import daily_deals, daily_entries
from jackpot.web.daily.deals import closes_at, day_of

PLAYING_SHARE = 0.02


def turn_scores(rng: random.Random) -> list[int]:
    """Ten turn scores as people make them: a jackpot now and then, mostly single
    figures to the twenties, now and then a turn given up (45)."""
    return [
        0 if rng.random() < 0.08 else min(45, int(rng.expovariate(1 / 11)) + 1) for _ in range(10)
    ]


async def seed(db: Database, entries: int, rng: random.Random) -> str:
    now = datetime.now(UTC)
    day = day_of(now)
    seed_hex = "ab" * 32
    async with db.write() as conn:
        await conn.execute(
            insert(daily_deals).values(
                day=day,
                variant="jackpot",
                server_seed=seed_hex,
                commitment=fair.commitment(seed_hex),
                created_at=now,
                closes_at=closes_at(day),
            )
        )
    client_seed = fair.daily_client_seed(day, "jackpot")
    batch = 2000
    for start in range(0, entries, batch):
        users, matches, rows = [], [], []
        for i in range(start, min(entries, start + batch)):
            name = f"Daily{i:06d}"
            match_id = f"m_{i:016x}"
            playing = rng.random() < PLAYING_SHARE
            scores = turn_scores(rng)
            done = scores[: rng.randint(0, 9)] if playing else scores
            state = Match.new_daily(Variant.JACKPOT).to_dict()
            state.update(turn_scores=done, round=len(done) + 1, throws=16 * len(done))
            result = daily_result(done)
            users.append(
                {
                    "id": i + 1,
                    "email": f"d{i}@example.org",
                    "name": name,
                    "name_key": name_key(name),
                    "name_look": name_look(name),
                    "is_guest": False,
                    "leaderboard": False,
                    "created_at": now,
                    "last_seen": now,
                }
            )
            matches.append(
                {
                    "id": match_id,
                    "variant": "jackpot",
                    "status": "playing" if playing else "finished",
                    "seat_count": 1,
                    "deadline_seconds": None,
                    "private": True,
                    "creator_id": i + 1,
                    "created_at": now,
                    "server_seed": seed_hex,
                    "commitment": fair.commitment(seed_hex),
                    "client_seed": client_seed,
                    "state": state,
                    "version": 1,
                    "record_len": 0,
                    "result": None if playing else result.to_dict(),
                }
            )
            rows.append(
                {
                    "match_id": match_id,
                    "day": day,
                    "variant": "jackpot",
                    "user_id": i + 1,
                    "name": name,
                    "entered_at": now,
                    "finished": not playing,
                    "ending": None if playing else "played",
                    "jackpots": None if playing else result.jackpots,
                    "total": None if playing else result.total,
                    "turn_scores": None if playing else list(result.turn_scores),
                }
            )
        async with db.write() as conn:
            await conn.execute(insert(t.users), users)
            await conn.execute(insert(t.matches), matches)
            await conn.execute(insert(daily_entries), rows)
    return day


async def timed(client: httpx.AsyncClient, path: str, runs: int) -> tuple[float, float, float]:
    """p50 and p99 of the answers' wall time, and the process's CPU time per answer
    (every thread: the database driver's too), which a busy machine does not inflate."""
    samples = []
    cpu = time.process_time()
    for _ in range(runs):
        start = time.perf_counter()
        resp = await client.get(path)
        samples.append((time.perf_counter() - start) * 1000)
        assert resp.status_code == 200, resp.text
    cpu_ms = (time.process_time() - cpu) * 1000 / runs
    samples.sort()
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    return statistics.median(samples), p99, cpu_ms


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entries", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--database-url", default=None)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="jackpot-daily-"))
    url = args.database_url or f"sqlite+aiosqlite:///{tmp / 'daily.sqlite3'}"
    if url.startswith("postgresql://"):  # the async driver the app runs on
        url = "postgresql+asyncpg://" + url.removeprefix("postgresql://")
    db = Database(url)
    await db.upgrade()
    start = time.perf_counter()
    day = await seed(db, args.entries, random.Random(args.seed))
    took = time.perf_counter() - start
    print(f"seeded a deal with {args.entries} entries in {took:.1f} s ({url})")
    if not db.is_sqlite:
        async with db.writer.connect() as conn:
            conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
            await conn.exec_driver_sql("VACUUM ANALYZE daily_entries")
            await conn.exec_driver_sql("VACUUM ANALYZE matches")
    await db.dispose()
    app = create_app(
        Settings(
            database_url=url,
            secret_key="bench-secret-key-0123456789abcdef",
            var_dir=tmp,
            sweeper_in_process=False,
            outbox_dir=tmp / "outbox",
        )
    )
    board = f"/api/daily/{day}/jackpot"
    last = (args.entries - 1) // 100 * 100
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://localhost"
        ) as client,
    ):
        for label, path in (
            ("API board, first page (the default)", board),
            ("API board, a middle page", f"{board}?offset={args.entries // 2}"),
            ("API board, last page", f"{board}?offset={last}"),
            ("HTML board, first page", f"/daily/{day}/jackpot"),
            ("the daily page", "/daily"),
        ):
            await timed(client, path, 20)  # warm
            p50, p99, cpu = await timed(client, path, args.runs)
            print(
                f"  {label}: p50 {p50:.1f} ms, p99 {p99:.1f} ms, CPU {cpu:.1f} ms "
                f"({args.runs} requests)"
            )
    print(f"load average while measuring: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    asyncio.run(main())
