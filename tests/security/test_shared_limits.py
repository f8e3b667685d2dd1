"""Limits count together across processes through Redis (JACKPOT_REDIS_URL), and
two sites (or two test runs, each on its own database) on one Redis never share a
count. Redis must be running: these tests fail, never skip, without it."""

from __future__ import annotations

import asyncio
import os
import secrets

from jackpot.web.base.limits import RedisCounters, redis_prefix

REDIS_URL = os.environ.get("JACKPOT_TEST_REDIS_URL") or "redis://127.0.0.1:6379/0"
PASSWORD = "correct horse battery"


async def test_two_processes_share_the_failure_counts(app_with) -> None:  # type: ignore[no-untyped-def]
    first = await app_with(redis_url=REDIS_URL)
    second = await app_with(redis_url=REDIS_URL)  # another worker on the same database
    r = await first("10.5.0.1").post("/api/account", json={
        "email": "ana@example.org", "password": PASSWORD, "name": "Ana"})
    assert r.status_code == 201
    wrong = {"email": "ana@example.org", "password": "wrong guess"}
    for i in range(5):
        worker = first if i % 2 else second
        assert (await worker("10.6.0.1").post("/api/session", json=wrong)).status_code == 401
    r = await first("10.6.0.1").post("/api/session", json=wrong)
    assert r.status_code == 429
    r = await second("10.6.0.1").post("/api/session", json=wrong)
    assert r.status_code == 429


async def test_sites_on_one_redis_count_apart() -> None:
    db_a = f"sqlite+aiosqlite:////tmp/{secrets.token_hex(4)}/a.sqlite3"
    db_b = f"sqlite+aiosqlite:////tmp/{secrets.token_hex(4)}/b.sqlite3"
    assert redis_prefix(db_a) != redis_prefix(db_b)
    a = RedisCounters(REDIS_URL, redis_prefix(db_a))
    b = RedisCounters(REDIS_URL, redis_prefix(db_b))
    try:
        assert (await a.hit("login:10.0.0.1", 60))[0] == 1
        assert (await a.hit("login:10.0.0.1", 60))[0] == 2
        assert (await b.hit("login:10.0.0.1", 60))[0] == 1
        count, left = await a.peek("login:10.0.0.1")
        assert count == 2 and 0 < left <= 60
    finally:
        await a.clear("login:10.0.0.1")
        await b.clear("login:10.0.0.1")
        await a.aclose()
        await b.aclose()


async def test_a_crowd_of_checks_waits_for_the_shared_pool_rather_than_failing(app_with) -> None:  # type: ignore[no-untyped-def]
    """400 checks at once in one process: each waits for one of the pool's
    connections (JACKPOT_REDIS_CONNECTIONS), none is answered 503. redis-py's own
    pool refused the 101st at once, and 400 sign-ups at once got 102 503s."""
    clients = await app_with(redis_url=REDIS_URL, redis_connections=8)
    app = clients()._transport.app
    counters = app.state.counters
    key = "test-crowd:" + secrets.token_hex(4)
    try:
        counts = await asyncio.gather(*(counters.hit(key, 60) for _ in range(400)))
        assert sorted(c for c, _left in counts) == list(range(1, 401))
        pool = app.state.redis.connection_pool
        assert pool.max_connections == 8
        assert len(pool._available_connections) + len(pool._in_use_connections) <= 8
    finally:
        await counters.clear(key)


async def test_bad_sign_ups_at_once_get_no_503(app_with) -> None:  # type: ignore[no-untyped-def]
    """The issue's crowd through the site: 300 bad sign-ups at once from 300
    addresses, each counted in Redis before it is refused for its password."""
    clients = await app_with(redis_url=REDIS_URL, redis_connections=8, hash_queue=1000)
    bad = {"email": "x@example.org", "password": "short", "name": "Xavier"}
    answers = await asyncio.gather(
        *(clients(f"10.{i // 250}.{i % 250}.9").post("/api/account", json=bad)
          for i in range(300))
    )
    codes = sorted({r.status_code for r in answers})
    assert codes == [422], [r.text for r in answers if r.status_code != 422][:3]
