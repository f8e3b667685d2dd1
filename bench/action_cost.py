"""What a move costs the server without its transport: the action alone, in process.

    .venv/bin/python bench/action_cost.py --matches 100 --rounds 30

`jackpot bench` measures the whole server (sockets, frames, events and the action).
This calls ``play_move`` (what the WebSocket, the fast lane and the routes all call)
directly on a fresh SQLite file (``--pg-admin URL``: a new PostgreSQL database made
there, and dropped after): ``--matches`` two-person Jackpot matches (a day a
throw, autoplay off) each make one move per round, all of a round at once, so the
moves share group-committed transactions as under load. It prints the process's CPU
time per move (the commit thread's included) and moves per second; the server's CPU
per action in `jackpot bench` less this is what the transport costs.
``--profile`` adds cProfile's top functions; ``--statements`` counts the SQL a move
runs on its driver connection (warm-up included), by kind, with each one's mean time.
Nothing is asserted: it is a measurement.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import cProfile
import os
import pstats
import re
import secrets
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import uvloop

from jackpot.bench.server import pg_admin_sql
from jackpot.web.app import create_app
from jackpot.web.base.identity import Actor
from jackpot.web.base.settings import Settings
from jackpot.web.play.moves import CoverBody, ThrowBody, play_move
from jackpot.web.play.storage.match_sql import Driver

PASSWORD = "a long bench password, 2026"


async def _person(app: Any, number: int) -> tuple[httpx.AsyncClient, Actor]:
    client = httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app, client=(f"10.0.0.{number + 1}", 1)),
        base_url="http://testserver",
    )
    name = f"Player{number}"
    r = await client.post(
        "/api/account",
        json={"email": f"p{number}@example.org", "password": PASSWORD, "name": name},
    )
    assert r.status_code == 201, r.text
    await client.put("/api/account/autoplay", json={"throws": False, "single_covers": False})
    me = (await client.get("/api/account")).json()
    return client, Actor(me["id"], name, False)


async def measure(matches: int, rounds: int, profile: bool, pg_admin: str | None) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="jackpot-action-cost-"))
    url = f"sqlite+aiosqlite:///{tmp}/jackpot.sqlite3"
    if pg_admin is not None:
        name = "jackpot_action_cost_" + secrets.token_hex(4)
        await pg_admin_sql(pg_admin, f'CREATE DATABASE "{name}"')
        url = f"postgresql+asyncpg://{urlsplit(pg_admin).netloc}/{name}"
    try:
        await run(url, tmp, matches, rounds, profile)
    finally:
        if pg_admin is not None:
            await pg_admin_sql(pg_admin, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def run(url: str, tmp: Path, matches: int, rounds: int, profile: bool) -> None:
    settings = Settings(
        database_url=url,
        secret_key="bench-secret-key-0123456789abcdef",
        var_dir=tmp,
        outbox_dir=tmp / "outbox",
        sweeper_in_process=False,
        allowed_hosts=("testserver",),
        account_active_matches=1_000_000,
    )
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        (host, ana), (guest, ben) = [await _person(app, n) for n in (0, 1)]
        by_name = {ana.name: ana, ben.name: ben}
        db = app.state.db

        async def new_match() -> dict[str, Any]:
            r = await host.post(
                "/api/matches",
                json={"variant": "jackpot", "seats": 2, "bots": 0, "deadline_seconds": 86400},
            )
            assert r.status_code == 201, r.text
            return dict((await guest.post(f"/api/matches/{r.json()['id']}/join", json={})).json())

        states = [await new_match() for _ in range(matches)]

        async def one(i: int) -> int:
            state = states[i]
            turn = state["turn"]
            if turn is None:  # finished: the next match (not counted)
                states[i] = await new_match()
                return 0
            mover = by_name[state["seats"][turn["seat"]]["name"]]
            body = ThrowBody() if turn["dice"] is None else CoverBody(tiles=turn["options"][-1])
            states[i] = await play_move(db, mover, state["id"], body)
            return 1

        for _ in range(3):  # warm up: caches, the live matches, the solver's tables
            await asyncio.gather(*(one(i) for i in range(matches)))
        profiler = cProfile.Profile() if profile else None
        moves = 0
        cpu, wall = time.process_time(), time.perf_counter()
        if profiler is not None:
            profiler.enable()
        for _ in range(rounds):
            moves += sum(await asyncio.gather(*(one(i) for i in range(matches))))
        if profiler is not None:
            profiler.disable()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        per_move = 1000 * cpu / moves
        print(f"{moves} moves: {per_move:.3f} ms CPU per move, {moves / wall:.0f} moves/s")
        if profiler is not None:
            stats = pstats.Stats(profiler).sort_stats(os.environ.get("SORT", "tottime"))
            stats.print_stats(int(os.environ.get("TOP", "30")))
        await host.aclose()
        await guest.aclose()


def count_statements() -> tuple[collections.Counter[str], collections.Counter[str]]:
    """Wrap the moves' statement runner: how many of each statement, and their time."""
    counts: collections.Counter[str] = collections.Counter()
    seconds: collections.Counter[str] = collections.Counter()
    run = Driver._run

    def counted(self: Driver, sql: str, params: Any) -> Any:
        t0 = time.perf_counter()
        cur = run(self, sql, params)
        kind = re.sub(r"\s+", " ", sql)[:60]
        seconds[kind] += time.perf_counter() - t0
        counts[kind] += 1
        return cur

    Driver._run = counted  # type: ignore[method-assign]
    return counts, seconds


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--matches", type=int, default=100)
    p.add_argument("--rounds", type=int, default=30)
    p.add_argument("--profile", action="store_true")
    p.add_argument("--statements", action="store_true")
    p.add_argument("--pg-admin", help="a PostgreSQL server: postgresql://postgres@127.0.0.1/test")
    args = p.parse_args()
    counts, seconds = count_statements() if args.statements else (None, None)
    uvloop.run(measure(args.matches, args.rounds, args.profile, args.pg_admin))
    if counts is not None and seconds is not None:
        moves = args.matches * (args.rounds + 3)  # the three warm-up rounds included
        print(f"{sum(counts.values()) / moves:.2f} statements a move")
        for kind, n in counts.most_common():
            print(f"{n / moves:5.2f} {1e6 * seconds[kind] / n:6.1f} us  {kind}")


if __name__ == "__main__":
    main()
