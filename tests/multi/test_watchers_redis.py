"""How many watch, across processes sharing a Redis: a reader watching through one
process is counted on the other's match count and watch list (a stream and a
socket alike), no longer once it leaves, and no longer once the process serving it
dies (SIGKILL), when that process's counts expire in Redis."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import httpx
import redis.asyncio as aioredis
from multi_helpers import REDIS_URL, Player, Watcher, new_people_match, sign_up

#: Publications and their expiry, short so that a dead process drops out soon.
FAST = {"JACKPOT_WATCHERS_SECONDS": "0.2", "JACKPOT_WATCHERS_EXPIRY_SECONDS": "1"}
#: A bound on waiting for the count to change, not a timing check.
PATIENCE = 30.0


async def counted(http: httpx.AsyncClient, base: str, match_id: str) -> tuple[int, int]:
    """The match's own count and its row's on the watch list, from ``base``."""
    r = await http.get(f"{base}/api/matches/{match_id}/watching")
    assert r.status_code == 200, r.text
    listed = (await http.get(f"{base}/api/matches/live")).json()["matches"]
    row = next(m for m in listed if m["id"] == match_id)
    return r.json()["watching"], row["watching"]


async def until(http: httpx.AsyncClient, base: str, match_id: str, want: int) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENCE
    while await counted(http, base, match_id) != (want, want) and loop.time() < deadline:
        await asyncio.sleep(0.05)
    assert await counted(http, base, match_id) == (want, want)


async def test_a_watcher_on_one_process_is_counted_on_the_other(
    servers: Any, http: httpx.AsyncClient
) -> None:
    client = aioredis.from_url(REDIS_URL)
    assert await client.ping()  # fails, never skips, when Redis is down
    await client.aclose()

    a = servers(redis=True, **FAST)
    b = servers(redis=True, **FAST)
    tokens = [await sign_up(http, a.url, "Ann"), await sign_up(http, a.url, "Ben")]
    http.base_url = httpx.URL(a.url)
    mid = (await new_people_match(http, tokens))["id"]
    assert await counted(http, b.url, mid) == (0, 0)

    async with Watcher(a.url, mid):
        assert await counted(http, a.url, mid) == (1, 1)  # its own: at once
        await until(http, b.url, mid, 1)  # only through Redis
        async with Player(b.url, mid, None):  # a stranger's socket on B
            await until(http, b.url, mid, 2)
            await until(http, a.url, mid, 2)
        await until(http, a.url, mid, 1)
    await until(http, b.url, mid, 0)

    # The process serving a watcher dies without a word: its count expires.
    watcher = Watcher(a.url, mid)
    await watcher.__aenter__()
    try:
        await until(http, b.url, mid, 1)
        a.kill()
        await until(http, b.url, mid, 0)
    finally:
        with contextlib.suppress(httpx.HTTPError):  # its server is gone
            await watcher.close()
