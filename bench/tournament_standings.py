"""Seed a Swiss tournament of N players in its last round and time its page: p50 and p99.

    .venv/bin/python bench/tournament_standings.py [--players 1000] [--table-size 4]
                                                   [--rounds 7] [--runs 500] [--database-url URL]

URL: an empty database (SQLite in a temporary directory by default).

Writes N accounts and a tournament straight into a fresh database: its entries, and
``--rounds`` - 1 rounds played by the pairing rules (each paired by ``pair_round``
from the standings so far, places drawn from a seeded generator, 1 % withdrawing a
round), then the last round paired with its matches still being played: a match
row for every table, as the site makes them. Then it asks the app in process (every
middleware, the route, the queries, the standings worked out from the rows, the
JSON or the template) for the tournament's page and for ``GET /api/tournaments/{id}``,
``--runs`` times each after 20 to warm up, as a signed-in player of the tournament
would: as most readers find it (this version read before by the process), and as
the first reader after a change finds it (the version moved on before each answer).
It prints p50 and p99 of each answer's wall time, the CPU per answer, and the load
average. Last, it ends the last round's tables and times the next round's pairing
through the site, as the end listener runs it: the standings, the pairing and a match
made for every table, in one write transaction. Nothing is asserted: the figures go in
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import insert, update

from jackpot import fair
from jackpot.engine import Entrant, Match, RoundPlayed, TablePlayed, Variant, pair_round
from jackpot.web.app import create_app
from jackpot.web.base.identity import token_hash
from jackpot.web.base.names import name_key, name_look
from jackpot.web.base.settings import Settings
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.tournaments import (
    tournament_entries,
    tournament_rounds,
    tournament_tables,
    tournaments,
)
from jackpot.web.tournaments.rounds import advance
from jackpot.web.tournaments.store import load

TOURNAMENT = "t_0123456789abcdef"
TOKEN = "bench-token-0123456789abcdef0123456789"


def places_for(size: int, rng: random.Random) -> tuple[int, ...]:
    ranks = list(range(size))
    rng.shuffle(ranks)
    return tuple(r + 1 for r in ranks)


async def seed(
    db: Database, players: int, table_size: int, rounds: int, rng: random.Random
) -> None:
    now = datetime.now(UTC)
    part = "ab" * 32
    entrants = [Entrant(f"Swiss{i:05d}", float(rng.randint(800, 1600))) for i in range(players)]
    users = [
        {
            "id": i + 1,
            "email": f"s{i}@example.org",
            "name": e.name,
            "name_key": name_key(e.name),
            "name_look": name_look(e.name),
            "is_guest": False,
            "leaderboard": False,
            "created_at": now,
            "last_seen": now,
        }
        for i, e in enumerate(entrants)
    ]
    played: list[RoundPlayed] = []
    gone: set[int] = set()
    withdrawn_in: dict[int, int] = {}
    matches: list[dict[str, Any]] = []
    tables: list[dict[str, Any]] = []
    round_rows: list[dict[str, Any]] = []
    state = Match.new(Variant.JACKPOT, table_size).to_dict()
    for r in range(1, rounds + 1):
        pairing = pair_round(entrants, played, table_size, withdrawn=gone)
        last = r == rounds
        done = []
        for n, seated in enumerate(pairing.tables, start=1):
            match_id = f"m_{r:04x}{n:012x}"
            places = None if last else places_for(len(seated), rng)
            matches.append(
                {
                    "id": match_id,
                    "variant": "jackpot",
                    "status": "playing" if last else "finished",
                    "seat_count": len(seated),
                    "deadline_seconds": 86400,
                    "private": False,
                    "creator_id": seated[0] + 1,
                    "created_at": now,
                    "server_seed": part,
                    "commitment": fair.commitment(part),
                    "client_seed": "x",
                    "state": state,
                    "version": 1,
                    "record_len": 0,
                    "origin": "tournament",
                    "origin_id": TOURNAMENT,
                    "rated": True,
                    "offers_rematch": False,
                    "on_watch": True,
                }
            )
            tables.append(
                {
                    "tournament_id": TOURNAMENT,
                    "round": r,
                    "table": n,
                    "match_id": match_id,
                    "players": list(seated),
                    "places": list(places) if places else None,
                }
            )
            if places:
                done.append(TablePlayed(seated, places))
        round_rows.append(
            {
                "tournament_id": TOURNAMENT,
                "round": r,
                "paired_at": now,
                "ends_at": now + timedelta(days=7),
                "byes": list(pairing.byes),
            }
        )
        played.append(RoundPlayed(tuple(done), pairing.byes))
        if not last:
            for p in range(players):
                if p not in gone and p != 0 and rng.random() < 0.01:
                    gone.add(p)
                    withdrawn_in[p] = r
    async with db.write() as conn:
        await conn.execute(insert(t.users), users)
        await conn.execute(
            insert(t.credentials).values(
                token_hash=token_hash(TOKEN), user_id=1, kind="token", created_at=now,
                expires_at=now + timedelta(days=1), label="bench",
            )
        )
        await conn.execute(
            insert(tournaments).values(
                id=TOURNAMENT, name="Bench Swiss", creator_id=1, variant="jackpot",
                table_size=table_size, rounds=rounds + 1, deadline_seconds=86400, spares=2,
                round_seconds=7 * 86400, starts_at=now, max_players=players, private=False,
                status="playing", round=rounds, round_ends_at=now + timedelta(days=7),
                entered=players, created_at=now, started_at=now,
            )
        )
        await conn.execute(
            insert(tournament_entries),
            [
                {
                    "tournament_id": TOURNAMENT, "user_id": i + 1, "name": e.name,
                    "entered_at": now, "client_seed": f"c{i}", "seed_by_server": False,
                    "commitment": fair.commitment(part),
                    "part": part, "number": i, "rating": e.rating,
                    "withdrawn_round": withdrawn_in.get(i),
                }
                for i, e in enumerate(entrants)
            ],
        )
        await conn.execute(insert(tournament_rounds), round_rows)
        for start in range(0, len(matches), 500):
            await conn.execute(insert(t.matches), matches[start : start + 500])
        await conn.execute(insert(tournament_tables), tables)


async def timed(
    client: httpx.AsyncClient, path: str, runs: int, db: Database | None = None
) -> tuple[float, float, float]:
    """p50 and p99 of the answers' wall time, and the CPU per answer. With ``db``,
    each answer follows a change (the tournament's version moved on, untimed), so
    nothing the process kept of it serves: the first reader after a table ends."""
    samples = []
    cpu = 0.0
    for _ in range(runs):
        if db is not None:
            async with db.write() as conn:
                await conn.execute(
                    update(tournaments)
                    .where(tournaments.c.id == TOURNAMENT)
                    .values(version=tournaments.c.version + 1)
                )
        before = time.process_time()
        start = time.perf_counter()
        resp = await client.get(path, headers={"accept": "text/html"})
        samples.append((time.perf_counter() - start) * 1000)
        cpu += time.process_time() - before
        assert resp.status_code == 200, resp.text[:300]
    cpu_ms = cpu * 1000 / runs
    samples.sort()
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    return statistics.median(samples), p99, cpu_ms


async def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--table-size", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--runs", type=int, default=500)
    ap.add_argument("--database-url", default=None)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="jackpot-tournament-"))
    url = args.database_url or f"sqlite+aiosqlite:///{tmp / 'tournament.sqlite3'}"
    if url.startswith("postgresql://"):  # the async driver the app runs on
        url = "postgresql+asyncpg://" + url.removeprefix("postgresql://")
    db = Database(url)
    await db.upgrade()
    start = time.perf_counter()
    await seed(db, args.players, args.table_size, args.rounds, random.Random(args.seed))
    print(
        f"seeded {args.players} players at tables of {args.table_size}, round {args.rounds} "
        f"of {args.rounds} in play, in {time.perf_counter() - start:.1f} s ({url})"
    )
    if not db.is_sqlite:
        async with db.writer.connect() as conn:
            conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
            for table in ("tournament_entries", "tournament_tables", "matches"):
                await conn.exec_driver_sql(f"VACUUM ANALYZE {table}")
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
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app),
            base_url="http://localhost",
            headers={"authorization": f"Bearer {TOKEN}"},
        ) as client,
    ):
        writer = app.state.db
        for label, path, after_change in (
            ("the tournament's page (HTML)", f"/tournaments/{TOURNAMENT}", False),
            ("GET /api/tournaments/{id}", f"/api/tournaments/{TOURNAMENT}", False),
            ("the page, first reader after a change", f"/tournaments/{TOURNAMENT}", True),
            ("the API, first reader after a change", f"/api/tournaments/{TOURNAMENT}", True),
        ):
            changes = writer if after_change else None
            await timed(client, path, 20, changes)  # warm
            p50, p99, cpu = await timed(client, path, args.runs, changes)
            print(
                f"  {label}: p50 {p50:.1f} ms, p99 {p99:.1f} ms, CPU {cpu:.1f} ms "
                f"({args.runs} requests)"
            )
    # The last table of the round ends: the next round is paired and its matches made,
    # in that one transaction, as the end listener does it.
    async with app.router.lifespan_context(app):
        db = app.state.db
        async with db.read() as conn:
            last = (await load(conn, TOURNAMENT)).tables[args.rounds]
        async with db.write() as conn:
            tt = tournament_tables
            for table in last:
                await conn.execute(
                    update(tt)
                    .where(tt.c.match_id == table.match_id)
                    .values(places=list(range(1, len(table.players) + 1)))
                )
        cpu = time.process_time()
        start = time.perf_counter()
        async with db.write() as conn:
            await advance(conn, TOURNAMENT, datetime.now(UTC))
        took = (time.perf_counter() - start) * 1000
        cpu_ms = (time.process_time() - cpu) * 1000
        async with db.read() as conn:
            t = await load(conn, TOURNAMENT)
        made = len(t.tables.get(args.rounds + 1, []))
        print(
            f"  pairing round {args.rounds + 1} through the site ({made} matches made, "
            f"one transaction): {took:.0f} ms, CPU {cpu_ms:.0f} ms"
        )
    print(f"load average while measuring: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    asyncio.run(main())
