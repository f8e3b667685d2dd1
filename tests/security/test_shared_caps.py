"""Issue 40 item 11: with Redis, one address's streams and guests count in every
process together.

The attack's finding: the per-address stream cap counted per process, so N
processes let one address hold N x ``JACKPOT_STREAMS_PER_ADDRESS``. Two real
servers here share a database and a Redis (two workers behind one proxy); one
address opens streams on both. Redis must be running: these fail, never skip,
without it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

REDIS_URL = os.environ.get("JACKPOT_TEST_REDIS_URL") or "redis://127.0.0.1:6379/0"
CAP = 3


def shared_env(**more: str) -> dict[str, str]:
    return {"JACKPOT_REDIS_URL": REDIS_URL, "JACKPOT_STREAMS_PER_ADDRESS": str(CAP),
            "JACKPOT_SWEEPER": "false", **more}


async def _open(stack: contextlib.AsyncExitStack, c: httpx.AsyncClient,
                path: str) -> httpx.Response:
    r = await stack.enter_async_context(c.stream("GET", path))
    if r.status_code != 200:
        await r.aread()
    return r


async def test_streams_of_one_address_count_across_processes(serve) -> None:  # type: ignore[no-untyped-def]
    a, b = serve(**shared_env()), serve(**shared_env())
    async with contextlib.AsyncExitStack() as stack:
        on_a = await stack.enter_async_context(httpx.AsyncClient(base_url=a.url, timeout=30))
        on_b = await stack.enter_async_context(httpx.AsyncClient(base_url=b.url, timeout=30))
        first = await _open(stack, on_a, "/api/lobby/events")
        assert first.status_code == 200
        assert (await _open(stack, on_a, "/api/lobby/events")).status_code == 200
        assert (await _open(stack, on_b, "/api/lobby/events")).status_code == 200
        # Three in all: the fourth is refused, on either process.
        for c in (on_b, on_a):
            r = await _open(stack, c, "/api/lobby/events")
            assert r.status_code == 429, r.status_code
            assert r.json()["error"]["code"] == "too_many_streams"
        # A match's socket holds a place too.
        r = await on_b.post("/api/matches", json={"seats": 2, "bots": 1})
        socket_url = b.url.replace("http", "ws") + f"/api/matches/{r.json()['id']}/socket"
        async with connect(socket_url) as ws:
            try:
                await ws.recv()
                raise AssertionError("the socket over the cap was served")
            except ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code == 1013
                assert closed.rcvd.reason == "too_many_streams"
        # One closed on A frees a place that B then gives out.
        await first.aclose()
        for _ in range(100):  # as soon as A has seen the client go
            r = await _open(stack, on_b, "/api/lobby/events")
            if r.status_code == 200:
                break
            await asyncio.sleep(0.1)
        assert r.status_code == 200


async def test_guests_of_one_address_count_across_processes(serve) -> None:  # type: ignore[no-untyped-def]
    """Already so through the limits' counters in Redis; kept with the streams."""
    a, b = (serve(**shared_env(JACKPOT_GUESTS_PER_ADDRESS_HOUR="3")) for _ in range(2))
    codes = []
    for i in range(4):
        url = (a, b)[i % 2].url
        async with httpx.AsyncClient(base_url=url, timeout=30) as fresh:  # no cookie: a guest
            r = await fresh.post("/api/matches", json={"seats": 2, "bots": 1})
            codes.append(r.status_code)
    assert codes == [201, 201, 201, 429], codes
