"""How long a match's end holds its write batch, beside an ordinary move's.

    .venv/bin/python bench/match_end_batch.py --matches 40
    .venv/bin/python bench/match_end_batch.py --matches 40 --pg-admin postgresql://postgres@127.0.0.1/test

Plays ``--matches`` two-person Jackpot matches (a day a throw, autoplay off) to their
end through ``play_move``, in process, one move at a time, so that every move is a
write batch of its own (``group_commit.GroupCommit``). Each batch is timed from the
moment it asks for the writer to its COMMIT's return (wall, and the CPU of the
thread that ran it); the batches whose move ended its match are reported apart from
the others. Whatever the end leaves for after the commit (a review step's pass, where
the tree has one) is timed apart, outside any batch. On a fresh SQLite file, or with
``--pg-admin URL`` a new PostgreSQL database made there and dropped after. Nothing is
asserted: it is a measurement; on a shared machine compare runs made back to back.
"""

from __future__ import annotations

import argparse
import importlib
import os
import secrets
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import uvloop

from jackpot.bench.server import pg_admin_sql
from jackpot.web.app import create_app
from jackpot.web.base.identity import Actor
from jackpot.web.base.settings import Settings
from jackpot.web.base.storage import group_commit
from jackpot.web.play.moves import CoverBody, ThrowBody, play_move

PASSWORD = "a long bench password, 2026"

try:  # the review step's pass, in a tree that reviews a match's end after its commit
    REVIEW_PASS: Callable[[Any], Awaitable[int]] | None = importlib.import_module(
        "jackpot.web.players.reviews"
    ).review_pass
except ImportError:
    REVIEW_PASS = None

#: (wall ms, CPU ms) of every batch flushed, in order.
BATCHES: list[tuple[float, float]] = []


def time_batches() -> None:
    """Wrap GroupCommit's flush: each batch's wall and CPU time."""
    flush = group_commit.GroupCommit._flush

    async def timed(self: Any, batch: Any) -> None:
        wall, cpu = time.perf_counter(), time.thread_time()
        await flush(self, batch)
        BATCHES.append((1000 * (time.perf_counter() - wall), 1000 * (time.thread_time() - cpu)))

    group_commit.GroupCommit._flush = timed  # type: ignore[method-assign]


async def person(app: Any, number: int) -> tuple[httpx.AsyncClient, Actor]:
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


async def run(url: str, tmp: Path, matches: int) -> None:
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
    step = REVIEW_PASS
    async with app.router.lifespan_context(app):
        await app.state.tables_ready
        (host, ana), (guest, ben) = [await person(app, n) for n in (0, 1)]
        by_name = {ana.name: ana, ben.name: ben}
        db = app.state.db
        ends: list[tuple[float, float]] = []
        moves: list[tuple[float, float]] = []
        after: list[tuple[float, float]] = []
        for number in range(matches + 1):  # the first one warms up, not counted
            r = await host.post(
                "/api/matches",
                json={"variant": "jackpot", "seats": 2, "bots": 0, "deadline_seconds": 86400},
            )
            assert r.status_code == 201, r.text
            state = (await guest.post(f"/api/matches/{r.json()['id']}/join", json={})).json()
            while state["turn"] is not None:
                turn = state["turn"]
                mover = by_name[state["seats"][turn["seat"]]["name"]]
                body = ThrowBody() if turn["dice"] is None else CoverBody(tiles=turn["options"][-1])
                BATCHES.clear()
                state = await play_move(db, mover, state["id"], body)
                if number and BATCHES:
                    (ends if state["status"] == "finished" else moves).append(BATCHES[-1])
            if step is not None:
                wall, cpu = time.perf_counter(), time.process_time()
                await step(db)
                if number:
                    after.append(
                        (1000 * (time.perf_counter() - wall), 1000 * (time.process_time() - cpu))
                    )
        await host.aclose()
        await guest.aclose()
    show("ordinary move's batch", moves)
    show("match end's batch", ends)
    if after:
        show("the review after the commit (no batch held)", after)
    load = os.getloadavg()[0]
    print(f"{len(ends)} matches, {len(moves)} other moves; load average {load:.1f}")


def show(what: str, samples: list[tuple[float, float]]) -> None:
    if not samples:
        return
    wall = sorted(w for w, _ in samples)
    cpu = sorted(c for _, c in samples)
    p90 = wall[int(0.9 * (len(wall) - 1))]
    print(
        f"{what}: wall p50 {statistics.median(wall):.2f} ms, p90 {p90:.2f} ms, "
        f"mean {statistics.fmean(wall):.2f} ms; CPU p50 {statistics.median(cpu):.2f} ms"
    )


async def measure(matches: int, pg_admin: str | None) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="jackpot-match-end-"))
    url = f"sqlite+aiosqlite:///{tmp}/jackpot.sqlite3"
    if pg_admin is not None:
        name = "jackpot_match_end_" + secrets.token_hex(4)
        await pg_admin_sql(pg_admin, f'CREATE DATABASE "{name}"')
        url = f"postgresql+asyncpg://{urlsplit(pg_admin).netloc}/{name}"
    try:
        await run(url, tmp, matches)
    finally:
        if pg_admin is not None:
            await pg_admin_sql(pg_admin, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    p.add_argument("--matches", type=int, default=40)
    p.add_argument("--pg-admin", help="a PostgreSQL server: postgresql://postgres@127.0.0.1/test")
    args = p.parse_args()
    time_batches()
    uvloop.run(measure(args.matches, args.pg_admin))


if __name__ == "__main__":
    main()
