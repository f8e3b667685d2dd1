"""Issue 11 item 5: live-event streams are capped per address and in all.

A real server under a lowered open-file limit (256, so 128 streams with the
default reserve of 128), clients on several loopback addresses (127.0.0.x), as
many streams as each may open and then one more. Before the caps one client
opened thousands, and the process ran out of descriptors for its database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from servers import running_server
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

PER_ADDRESS = 32
OPEN_FILES = 256
TOTAL = OPEN_FILES - 128  # the default JACKPOT_FD_RESERVE


def client_from(url: str, address: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=url,
        transport=httpx.AsyncHTTPTransport(local_address=address),
        limits=httpx.Limits(max_connections=None, max_keepalive_connections=0),
        timeout=30,
    )


async def open_streams(
    stack: contextlib.AsyncExitStack, c: httpx.AsyncClient, path: str, n: int
) -> list[httpx.Response]:
    out = []
    for _ in range(n):
        r = await stack.enter_async_context(c.stream("GET", path))
        if r.status_code != 200:
            await r.aread()
        out.append(r)
    return out


def refused_with(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.status_code
    body: Any = r.json()
    assert set(body) == {"error"} and body["error"]["code"] == code


async def test_streams_are_capped_per_address_and_in_all(tmp_path: Path) -> None:
    with running_server(tmp_path, {}, open_files=OPEN_FILES) as url:
        async with contextlib.AsyncExitStack() as stack:
            clients = [
                await stack.enter_async_context(client_from(url, f"127.0.0.{i}"))
                for i in range(2, 8)
            ]
            r = await clients[0].post("/api/matches", json={"seats": 2, "bots": 1})
            assert r.status_code == 201
            events = f"/api/matches/{r.json()['id']}/events"
            streams = await stack.enter_async_context(contextlib.AsyncExitStack())
            first = await open_streams(streams, clients[0], events, PER_ADDRESS + 1)
            assert [r.status_code for r in first[:PER_ADDRESS]] == [200] * PER_ADDRESS
            refused_with(first[-1], 429, "too_many_streams")
            opened = PER_ADDRESS
            for c in clients[1:]:
                for r in await open_streams(streams, c, events, min(PER_ADDRESS, TOTAL - opened)):
                    assert r.status_code == 200
                    opened += 1
                if opened == TOTAL:
                    break
            assert opened == TOTAL
            refused_with((await open_streams(streams, clients[-1], events, 1))[0], 503, "busy")
            # With every stream the process may hold open, everything else still works.
            other = clients[-1]
            assert (await other.get("/api/health")).status_code == 200
            made = await other.post("/api/matches", json={"seats": 2, "bots": 1})
            assert made.status_code == 201, made.text
            assert (await other.get(f"/api/matches/{made.json()['id']}")).status_code == 200
            assert (await other.get("/")).status_code == 200
            # Closed streams give their places back.
            await streams.aclose()
            for _ in range(100):  # the server sees each close when it next writes
                again = await open_streams(stack, clients[0], events, 1)
                if again[0].status_code == 200:
                    break
                await asyncio.sleep(0.1)
            assert again[0].status_code == 200


async def test_a_match_socket_counts_as_a_stream(tmp_path: Path) -> None:
    """A WebSocket holds a descriptor as long as a stream does: sockets and streams
    share the address's cap, and past it the socket is closed at once with 1013
    ("try again later")."""
    with running_server(tmp_path, {"JACKPOT_STREAMS_PER_ADDRESS": "2"}) as url:
        async with contextlib.AsyncExitStack() as stack:
            c = await stack.enter_async_context(client_from(url, "127.0.0.1"))
            r = await c.post("/api/matches", json={"seats": 2, "bots": 1})
            mid = r.json()["id"]
            socket_url = url.replace("http://", "ws://") + f"/api/matches/{mid}/socket"
            first = await stack.enter_async_context(connect(socket_url))
            assert json.loads(await first.recv())["type"] == "events"  # the backlog
            await open_streams(stack, c, f"/api/matches/{mid}/events", 1)
            second = await stack.enter_async_context(connect(socket_url))
            with pytest.raises(ConnectionClosed) as closed:
                await second.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
            # The place is given back when a socket closes.
            await first.close()
            for _ in range(50):
                third = await stack.enter_async_context(connect(socket_url))
                try:
                    assert json.loads(await third.recv())["type"] == "events"
                    break
                except ConnectionClosed:
                    await asyncio.sleep(0.1)  # the server has not seen the close yet
            else:
                raise AssertionError("the closed socket's place was never given back")
