"""Seed N rated players and time the leaderboard queries on them.

    .venv/bin/python bench/seed_players.py --players 100000 [--database-url URL]

Writes users and ``player_ratings`` rows straight into a fresh database (random
but seeded skill, about 70% opted in, a spread of match counts so that some stay
provisional, decisions and the winning chance they gave away, a few players with
none), then times one leaderboard page at the top, the middle and the end, in both
orders (by rating and by skill), both as the query alone and as an HTTP request to
the app. It reports the median of several runs; nothing here is asserted, it is a
measurement to write down.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx
from sqlalchemy import insert

from jackpot.web.base.names import name_key, name_look
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables import players as r
from jackpot.web.players.leaderboard import leaderboard_page
from jackpot.web.players.ratings import display_rating, is_provisional


async def seed(db: Database, players: int, rng: random.Random) -> None:
    now = datetime.now(UTC)
    batch = 5000
    for start in range(0, players, batch):
        users, ratings = [], []
        for i in range(start, min(players, start + batch)):
            name = f"Player{i:06d}"
            opted = rng.random() < 0.7
            users.append(
                {
                    "id": i + 1,
                    "email": f"p{i}@example.org",
                    "name": name,
                    "name_key": name_key(name),
                    "name_look": name_look(name),
                    "password_hash": None,
                    "is_guest": False,
                    "leaderboard": opted,
                    "created_at": now,
                    "last_seen": now,
                }
            )
            for variant in ("jackpot", "classic"):
                matches = rng.randint(1, 200)
                sigma = max(1.5, 8.333 * (0.93**matches))
                mu = rng.gauss(25, 3)
                turns = matches * rng.randint(3, 12)
                provisional = is_provisional(sigma)
                # About three decisions a turn (none for one player in fifty), each
                # giving away half a point of winning chance or so on average.
                decisions = 0 if rng.random() < 0.02 else turns * rng.randint(1, 5)
                given_away = decisions * rng.uniform(0.001, 0.01)
                ratings.append(
                    {
                        "user_id": i + 1,
                        "variant": variant,
                        "mu": mu,
                        "sigma": sigma,
                        "rating": display_rating(mu, sigma),
                        "provisional": provisional,
                        "listed": opted and not provisional,
                        "matches": matches,
                        "wins": rng.randint(0, matches),
                        "turns": turns,
                        "jackpots": int(turns * rng.uniform(0.02, 0.09)),
                        "score_sum": int(turns * rng.uniform(8, 25)),
                        "last_match_at": now,
                        "decisions": decisions,
                        "skill_given_away": given_away,
                        "skill": given_away / decisions if decisions else None,
                    }
                )
        async with db.write() as conn:
            await conn.execute(insert(t.users), users)
            await conn.execute(insert(r.player_ratings), ratings)


async def timed(fn, runs: int = 15) -> float:  # type: ignore[no-untyped-def]
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        await fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=100_000)
    ap.add_argument("--database-url", default=None)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="jackpot-seed-"))
    url = args.database_url or f"sqlite+aiosqlite:///{tmp / 'players.sqlite3'}"
    db = Database(url)
    await db.upgrade()
    start = time.perf_counter()
    await seed(db, args.players, random.Random(args.seed))
    print(f"seeded {args.players} players in {time.perf_counter() - start:.1f} s ({url})")
    if not db.is_sqlite:
        # What autovacuum does soon after a bulk load on a live server: statistics for
        # the planner and a visibility map, without which no scan is index-only.
        async with db.writer.connect() as conn:
            conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
            await conn.exec_driver_sql("VACUUM ANALYZE users")
            await conn.exec_driver_sql("VACUUM ANALYZE player_ratings")
    last_pages = {}
    for sort in ("rating", "skill"):
        async with db.read() as conn:
            first = await leaderboard_page(conn, "jackpot", 1, sort=sort)
        total, pages = first["total"], first["pages"]
        last_pages[sort] = pages
        print(f"jackpot leaderboard by {sort}: {total} listed players, {pages} pages of 50")
        for label, page in (("first", 1), ("middle", max(1, pages // 2)), ("last", pages)):

            async def query(page: int = page, sort: str = sort) -> None:
                async with db.read() as conn:
                    await leaderboard_page(conn, "jackpot", page, sort=sort)

            print(f"  query, {label} page ({page}): median {await timed(query):.1f} ms")
    await db.dispose()

    from jackpot.web.app import create_app
    from jackpot.web.base.settings import Settings

    app = create_app(
        Settings(
            database_url=url,
            secret_key="bench-secret-key-0123456789abcdef",
            var_dir=tmp,
            sweeper_in_process=False,
            outbox_dir=tmp / "outbox",
            allowed_hosts=("bench",),
        )
    )
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://bench"
        ) as client,
    ):
        await app.state.tables_ready  # the odds' tables, built on a thread at start-up
        skill_pages = last_pages["skill"]
        for label, path in (
            ("API first page", "/api/leaderboard?variant=jackpot"),
            ("API last page", f"/api/leaderboard?variant=jackpot&page={last_pages['rating']}"),
            ("HTML first page", "/leaderboard?variant=jackpot"),
            ("API by skill, first page", "/api/leaderboard?variant=jackpot&sort=skill"),
            (
                "API by skill, last page",
                f"/api/leaderboard?variant=jackpot&sort=skill&page={skill_pages}",
            ),
            ("HTML by skill, first page", "/leaderboard?variant=jackpot&sort=skill"),
        ):

            async def get(path: str = path) -> None:
                resp = await client.get(path)
                assert resp.status_code == 200, resp.text

            print(f"  {label}: median {await timed(get):.1f} ms")


if __name__ == "__main__":
    asyncio.run(main())
