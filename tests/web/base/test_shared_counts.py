"""Counts summed over processes in Redis (base/live/shared_counts.py): every live process's
hash counts, this process's own from memory; a dead process's vanish with its hash's
expiry, a closed one's at once; a change shows without waiting a period; and Redis out
of reach gives this process's own counts, logged once.

Each test has keys of its own (a random prefix), so runs side by side never meet.
Redis must be running: these tests fail, never skip, without it."""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections import Counter
from collections.abc import AsyncIterator, Callable, Mapping

import pytest
import redis.asyncio as aioredis

from jackpot.web.base.live.shared_counts import CHUNK, UNREACHABLE, SharedCounts

REDIS_URL = os.environ.get("JACKPOT_TEST_REDIS_URL") or "redis://127.0.0.1:6379/0"
#: A bound on waiting for Redis or the publishing task, not a timing check.
PATIENCE = 30.0

Make = Callable[..., SharedCounts]


@pytest.fixture
async def redis() -> AsyncIterator[aioredis.Redis]:
    client = aioredis.from_url(REDIS_URL)
    assert await client.ping()  # a clear failure when Redis is down
    yield client
    await client.aclose()


@pytest.fixture
async def make(redis: aioredis.Redis) -> AsyncIterator[Make]:
    """``make(counts, period=, expiry=)``: one more process's SharedCounts, all of the
    test under one prefix of its own; closed, and its keys gone, afterwards."""
    prefix = f"jackpot:test:{secrets.token_hex(8)}:watchers:"
    made: list[SharedCounts] = []

    def new(counts: Mapping[str, int] | None = None, **times: float) -> SharedCounts:
        shared = SharedCounts(REDIS_URL, prefix, Counter() if counts is None else counts,
                              times.get("period", 5.0), times.get("expiry", 15.0))
        made.append(shared)
        return shared

    yield new
    for shared in made:
        await shared.aclose()
    keys = [key async for key in redis.scan_iter(match=prefix + "*")]
    if keys:
        await redis.delete(*keys)


async def until(reader: SharedCounts, key: str, want: int) -> None:
    """Until ``reader`` counts ``want`` for ``key`` (fails after PATIENCE seconds)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENCE
    while (await reader.totals([key]))[key] != want and loop.time() < deadline:
        await asyncio.sleep(0.05)
    assert (await reader.totals([key]))[key] == want


async def test_every_process_counts_this_ones_own_from_memory(make: Make) -> None:
    own: Counter[str] = Counter({"m1": 2})
    a = make(own)
    b = make({"m1": 1, "m2": 3, "gone": 0})
    idle = make()
    for shared in (a, b, idle):
        await shared.publish()
    assert await idle.totals(["m1", "m2", "m3"]) == {"m1": 3, "m2": 3, "m3": 0}
    assert await b.totals(["m2", "m1"]) == {"m2": 3, "m1": 3}
    # Its own counts from memory, current, not the hash it last wrote (2).
    own["m1"] = 5
    assert await a.totals(["m1"]) == {"m1": 6}
    assert await idle.totals([]) == {}


async def test_a_whole_list_is_summed_past_the_scripts_chunk(make: Make) -> None:
    keys = [f"m{i}" for i in range(2 * CHUNK + 7)]
    a = make({k: i % 5 for i, k in enumerate(keys)})
    b = make({k: 1 for k in keys[CHUNK - 1 : CHUNK + 2]})
    await a.publish()
    await b.publish()
    want = {k: i % 5 for i, k in enumerate(keys)}
    for k in keys[CHUNK - 1 : CHUNK + 2]:
        want[k] += 1
    assert await make().totals(keys) == want


async def test_a_dead_processs_counts_expire_and_it_leaves_the_live_set(
    make: Make, redis: aioredis.Redis
) -> None:
    dead = make({"m": 4}, period=0.1, expiry=0.3)
    await dead.publish()  # and never again: it died
    assert 0 < await redis.pttl(dead.key) <= 300
    reader = make()
    assert await reader.totals(["m"]) == {"m": 4}
    await until(reader, "m", 0)  # Redis expired its hash
    assert not await redis.sismember(reader.live, dead.process)


async def test_a_change_shows_soon_and_nothing_left_is_nothing_kept(
    make: Make, redis: aioredis.Redis
) -> None:
    counts: Counter[str] = Counter()
    writer = make(counts, period=3600.0, expiry=7200.0)
    writer.start()
    reader = make()
    counts["m"] += 1
    writer.changed()
    await until(reader, "m", 1)  # not an hour later
    counts["m"] += 2
    writer.changed()
    await until(reader, "m", 3)
    del counts["m"]
    writer.changed()
    await until(reader, "m", 0)
    assert not await redis.exists(writer.key)
    assert not await redis.sismember(writer.live, writer.process)


async def test_a_closed_process_is_no_longer_counted(make: Make) -> None:
    closing = make({"m": 2})
    await closing.publish()
    reader = make()
    assert await reader.totals(["m"]) == {"m": 2}
    await closing.aclose()
    assert await reader.totals(["m"]) == {"m": 0}


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_redis_out_of_reach_gives_the_own_counts_logged_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    shared = SharedCounts(f"redis://127.0.0.1:{_closed_port()}/0", "jackpot:test:none:",
                          Counter({"m": 2}), 5.0, 15.0)
    try:
        with caplog.at_level(logging.WARNING, logger="jackpot.shared_counts"):
            assert await shared.totals(["m", "n"]) == {"m": 2, "n": 0}
            with pytest.raises(UNREACHABLE):
                await shared.publish()
            assert await shared.totals(["m"]) == {"m": 2}
        warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert len(warnings) == 1, warnings
        assert "Redis" in warnings[0].getMessage()
    finally:
        await shared.aclose()
