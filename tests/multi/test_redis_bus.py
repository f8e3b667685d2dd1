"""The Redis bus: a move made through process A reaches a watcher on process B, and
a watcher that was away resumes on B with Last-Event-ID from the database."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import orjson
from multi_helpers import REDIS_URL, Watcher, bearer, new_people_match, next_move, sign_up


async def _move(http: httpx.AsyncClient, base: str, tokens: list[str],
                state: dict[str, Any]) -> dict[str, Any]:
    move = next_move(state)
    assert move is not None
    seat, action, body = move
    r = await http.post(f"{base}/api/matches/{state['id']}/{action}",
                        headers=bearer(tokens[seat]), json=body)
    assert r.status_code == 200, r.text
    return dict(r.json())


async def test_move_on_a_reaches_watcher_on_b(servers: Any, http: httpx.AsyncClient) -> None:
    import redis.asyncio as aioredis

    # Fail (not skip) with a clear message when Redis is down.
    client = aioredis.from_url(REDIS_URL)
    assert await client.ping()
    await client.aclose()

    a = servers(redis=True)
    b = servers(redis=True)
    tokens = [await sign_up(http, a.url, "Ann"), await sign_up(http, a.url, "Ben")]
    http.base_url = httpx.URL(a.url)
    state = await new_people_match(http, tokens)
    match_id = state["id"]

    async with Watcher(b.url, match_id) as watcher:
        await watcher.wait_for_seq(state["seq"])  # the backlog, from B's database read
        for _ in range(6):
            state = await _move(http, a.url, tokens, state)
            # Only the bus can bring this: B did nothing but hold the stream open.
            await watcher.wait_for_seq(state["seq"])
        seen = watcher.events[-1][0]
    assert [i for i, _ in watcher.events] == list(range(1, seen + 1))

    # Away while A makes moves; back on B with Last-Event-ID: the missed ones, once.
    for _ in range(4):
        state = await _move(http, a.url, tokens, state)
    async with Watcher(b.url, match_id, last_event_id=seen) as again:
        await again.wait_for_seq(state["seq"])
        state = await _move(http, a.url, tokens, state)
        await again.wait_for_seq(state["seq"])
    assert [i for i, _ in again.events] == list(range(seen + 1, state["seq"] + 1))
    stored = (await http.get(f"{b.url}/api/matches/{match_id}")).json()
    assert stored["seq"] == state["seq"]


async def test_one_message_per_tick_each_event_once_everywhere() -> None:
    """Moves acknowledged together publish in one message; the publishing process's
    watchers get each event once (not again when its own message comes back), the
    other process's once, in each match's order."""
    import redis.asyncio as aioredis

    from jackpot.web.base.live.bus_redis import CHANNEL, RedisEventBus

    a, b = RedisEventBus(REDIS_URL), RedisEventBus(REDIS_URL)
    await a.start()
    await b.start()
    spy = aioredis.from_url(REDIS_URL).pubsub()
    await spy.subscribe(CHANNEL)
    try:
        matches = [f"bus-test-{i}" for i in range(3)]
        subs = {(bus, m): bus.subscribe(m) for bus in (a, b) for m in matches}
        await asyncio.gather(*(
            a.publish(m, [{"seq": 1, "m": m}, {"seq": 2, "m": m}]) for m in matches
        ))
        sent = [await _next_message(spy)]
        await a.publish(matches[0], [{"seq": 3, "m": matches[0]}])
        sent.append(await _next_message(spy))
        assert await _next_message(spy, 0.5) is None, "one message per tick"
        assert [len(orjson.loads(msg["data"].partition(b" ")[2])) for msg in sent] == [3, 1]
        for (bus, m), sub in subs.items():
            want = [1, 2, 3] if m == matches[0] else [1, 2]
            got = []
            while len(got) < len(want):
                ev = await asyncio.wait_for(sub.queue.get(), timeout=5)
                got.append(ev["seq"])
                assert ev["m"] == m
            await asyncio.sleep(0.2)  # an echo of A's own message would arrive by now
            assert got == want and sub.queue.empty(), (bus is a, m, got)
    finally:
        await spy.aclose()
        await a.aclose()
        await b.aclose()


async def _next_message(spy: Any, seconds: float = 5) -> Any:
    """The next message Redis carried on the bus's channel, or None after ``seconds``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while loop.time() < deadline:
        msg = await spy.get_message(timeout=0.1)
        if msg is not None and msg["type"] == "message":
            return msg
    return None
