"""Limits count together across processes through Redis (JACKPOT_REDIS_URL), and
two sites (or two test runs, each on its own database) on one Redis never share a
count. Redis must be running: these tests fail, never skip, without it."""

from __future__ import annotations

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
