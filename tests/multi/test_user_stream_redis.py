"""The player's own stream across processes: a move made through process A makes
the stream Ben holds on process B say it is his throw (B's hub hears the match's
events from Redis, with every database)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from multi_helpers import bearer, new_people_match, next_move, sign_up


async def _pictures(base: str, token: str, out: list[dict[str, Any]], ready: asyncio.Event) -> None:
    async with (
        httpx.AsyncClient(base_url=base, timeout=None) as c,
        c.stream("GET", "/api/my/events", headers=bearer(token)) as resp,
    ):
        assert resp.status_code == 200
        event = None
        async for line in resp.aiter_lines():
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "waiting":
                out.append(json.loads(line[6:]))
                ready.set()


async def _until(out: list[dict[str, Any]], test: Any) -> dict[str, Any]:
    async with asyncio.timeout(30):
        while not (out and test(out[-1])):
            await asyncio.sleep(0.05)
    return out[-1]


async def test_a_move_on_a_reaches_the_players_stream_on_b(
    servers: Any, http: httpx.AsyncClient
) -> None:
    a = servers(redis=True)
    b = servers(redis=True)
    tokens = [await sign_up(http, a.url, "Ann"), await sign_up(http, a.url, "Ben")]
    http.base_url = httpx.URL(a.url)
    state = await new_people_match(http, tokens)
    mid = state["id"]
    got: list[dict[str, Any]] = []
    ready = asyncio.Event()
    reader = asyncio.create_task(_pictures(b.url, tokens[1], got, ready))
    try:
        await asyncio.wait_for(ready.wait(), timeout=30)
        assert got[0]["matches"] == []  # Ann's throw first
        while state["turn"]["seat"] == 0:
            seat, action, body = next_move(state)
            r = await http.post(
                f"/api/matches/{mid}/{action}", headers=bearer(tokens[seat]), json=body
            )
            assert r.status_code == 200, r.text
            state = r.json()
        picture = await _until(got, lambda p: bool(p["matches"]))
        assert [m["id"] for m in picture["matches"]] == [mid]
        assert picture["matches"][0]["due_at"] == state["turn"]["due_at"]
    finally:
        reader.cancel()
        await asyncio.gather(reader, return_exceptions=True)
