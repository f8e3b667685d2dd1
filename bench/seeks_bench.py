"""Play now under 1,000 open seeks: the time from the matching seek's arrival to the pair.

    .venv/bin/python bench/seeks_bench.py [--open 1000] [--arrivals 300] [--database-url URL]

URL: an empty database (SQLite in a temporary directory by default).

Writes accounts, their API tokens and ``--open`` waiting seeks straight into a fresh
database, spread over kinds (both variants, 2 to 4 seats, many deadlines) so that
each kind waits for exactly one more person, as a busy site's open seeks do: none of
them can pair with another. Then, ``--arrivals`` times, a new person asks the app
in-process (every middleware, the route, the pairing, the match made and started, the
commit) for a seek of a kind chosen at random, which completes its group: the answer
is the pair (``"status": "paired"`` with the match). After each arrival the group's
people ask again for the same kind, untimed, so 1,000 seeks stay open throughout. It
reports the median and the 99th percentile of the arrival-to-pair time; nothing here
is asserted, it is a measurement to write down. Each arrival's token is used once
before its seek, so its first sight (a read and a note of its use) is not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import insert

from jackpot.web.app import create_app
from jackpot.web.base.identity import token_hash
from jackpot.web.base.names import name_key, name_look
from jackpot.web.base.settings import Settings
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.people import seeks

DEADLINES = [3600 * h for h in range(1, 169)]


def kinds_for(count: int) -> list[tuple[str, int, int]]:
    """Kinds whose waiting seeks add up to ``count``: a kind of s seats waits for
    s - 1 people, so one more completes it."""
    out: list[tuple[str, int, int]] = []
    total = 0
    i = 0
    while total < count:
        variant = "jackpot" if i % 2 == 0 else "classic"
        kind = (variant, DEADLINES[(i // 6) % 168], 2 + (i // 2) % 3)
        i += 1
        if total + kind[2] - 1 > count:
            kind = (kind[0], kind[1] + 1, 2)  # a 2-seat kind of its own to fill the count
        out.append(kind)
        total += kind[2] - 1
    return out


def user_rows(first: int, count: int, now: datetime) -> tuple[list[dict[str, Any]], list[str]]:
    users, tokens = [], []
    for i in range(first, first + count):
        name = f"Seeker{i:06d}"
        users.append(
            {
                "id": i,
                "email": f"s{i}@example.org",
                "name": name,
                "name_key": name_key(name),
                "name_look": name_look(name),
                "is_guest": False,
                "leaderboard": False,
                "created_at": now,
                "last_seen": now,
            }
        )
        tokens.append(secrets.token_urlsafe(24))
    return users, tokens


def seek_row(
    user_id: int, kind: tuple[str, int, int], now: datetime, rng: random.Random
) -> dict[str, Any]:
    return {
        "id": "s_" + secrets.token_hex(8),
        "user_id": user_id,
        "variant": kind[0],
        "deadline_seconds": kind[1],
        "seats": kind[2],
        "rating": rng.randint(800, 1800),
        "provisional": rng.random() < 0.3,
        "status": "waiting",
        "match_id": None,
        "created_at": now,
        "expires_at": now + timedelta(days=7),
    }


async def seed(
    db: Database, open_count: int, arrivals: int, rng: random.Random
) -> tuple[dict[tuple[str, int, int], list[int]], list[str], list[int]]:
    """The waiting seeks by kind (their people's ids), and the arrivals' tokens and ids."""
    now = datetime.now(UTC) - timedelta(minutes=5)
    kinds = kinds_for(open_count)
    waiting = sum(k[2] - 1 for k in kinds)
    users, _ = user_rows(1, waiting, now)
    newcomers, tokens = user_rows(waiting + 1, arrivals, now)
    by_kind: dict[tuple[str, int, int], list[int]] = {}
    rows = []
    uid = 1
    for kind in kinds:
        for _ in range(kind[2] - 1):
            rows.append(seek_row(uid, kind, now, rng))
            by_kind.setdefault(kind, []).append(uid)
            uid += 1
    async with db.write() as conn:
        await conn.execute(insert(t.users), users + newcomers)
        await conn.execute(
            insert(t.credentials),
            [
                {"token_hash": token_hash(tok), "user_id": u["id"], "kind": "token",
                 "label": "bench", "created_at": now, "expires_at": now + timedelta(days=1)}
                for u, tok in zip(newcomers, tokens, strict=True)
            ],
        )
        await conn.execute(insert(seeks), rows)
    return by_kind, tokens, [u["id"] for u in newcomers]


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--open", type=int, default=1000)
    ap.add_argument("--arrivals", type=int, default=300)
    ap.add_argument("--database-url", default=None)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    tmp = Path(tempfile.mkdtemp(prefix="jackpot-seeks-"))
    url = args.database_url or f"sqlite+aiosqlite:///{tmp / 'seeks.sqlite3'}"
    if url.startswith("postgresql://"):  # the async driver the app runs on
        url = "postgresql+asyncpg://" + url.removeprefix("postgresql://")
    db = Database(url)
    await db.upgrade()
    by_kind, tokens, _ = await seed(db, args.open, args.arrivals, rng)
    seeded = sum(len(v) for v in by_kind.values())
    print(f"seeded {seeded} open seeks in {len(by_kind)} kinds ({url})")
    await db.dispose()
    app = create_app(
        Settings(
            database_url=url,
            secret_key="bench-secret-key-0123456789abcdef",
            var_dir=tmp,
            sweeper_in_process=False,
            outbox_dir=tmp / "outbox",
            account_active_matches=100_000,
        )
    )
    samples: list[float] = []
    cpu_ms: list[float] = []
    kinds = sorted(by_kind)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://localhost"
        ) as client,
    ):
        for token in tokens:
            kind = rng.choice(kinds)
            body = {"variant": kind[0], "deadline_seconds": kind[1], "seats": kind[2]}
            headers = {"Authorization": f"Bearer {token}"}
            # Who the token is, read (and its first use noted) before the clock starts:
            # the time measured is the seek's, not a new token's first sight.
            assert (await client.get("/api/seeks", headers=headers)).status_code == 200
            start, cpu = time.perf_counter(), time.process_time()
            resp = await client.post("/api/seeks", json=body, headers=headers)
            samples.append((time.perf_counter() - start) * 1000)
            cpu_ms.append((time.process_time() - cpu) * 1000)
            assert resp.status_code == 201 and resp.json()["status"] == "paired", resp.text
            # The group's people look again for the same kind: 1,000 stay open.
            async with app.state.db.write() as conn:
                await conn.execute(
                    insert(seeks),
                    [seek_row(uid, kind, datetime.now(UTC), rng) for uid in by_kind[kind]],
                )
    samples.sort()
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    print(
        f"  arrival to pair, {len(samples)} arrivals among {args.open} open seeks: "
        f"p50 {statistics.median(samples):.1f} ms, p99 {p99:.1f} ms, max {samples[-1]:.1f} ms; "
        f"CPU per arrival (every thread) {statistics.mean(cpu_ms):.1f} ms"
    )
    print(f"load average while measuring: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    asyncio.run(main())
