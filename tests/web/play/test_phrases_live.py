"""A phrase said reaches the match's open SSE stream (a frame without an id, so the
stream's resume point stays the last numbered event) and its WebSocket, on a real
server."""

from __future__ import annotations

import json
import secrets
import threading
from typing import Any

import httpx
from websockets.asyncio.client import connect

PASSWORD = "correct horse battery"


def account(url: str, name: str) -> httpx.Client:
    c = httpx.Client(base_url=url, timeout=30)
    r = c.post(
        "/api/account", json={"email": f"{name}@example.org", "password": PASSWORD, "name": name}
    )
    assert r.status_code == 201, r.text
    return c


def started(url: str) -> tuple[str, httpx.Client, httpx.Client]:
    tag = secrets.token_hex(3)
    ana, ben = account(url, f"ph_a{tag}"), account(url, f"ph_b{tag}")
    mid = ana.post("/api/matches", json={"seats": 2, "bots": 0, "deadline_seconds": 3600}).json()[
        "id"
    ]
    assert ben.post(f"/api/matches/{mid}/join", json={}).json()["status"] == "playing"
    return mid, ana, ben


def read_frames(url: str, mid: str, out: list[str], ready: threading.Event) -> None:
    with (
        httpx.Client(base_url=url, timeout=30) as c,
        c.stream("GET", f"/api/matches/{mid}/events?last_event_id=100000") as r,
    ):
        ready.set()
        block: list[str] = []
        for line in r.iter_lines():
            if line:
                block.append(line)
                continue
            if any(x.startswith("data: ") for x in block):
                out.append("\n".join(block))
                return
            block = []


def test_a_phrase_reaches_an_open_stream_without_an_id(live_server) -> None:  # type: ignore[no-untyped-def]
    mid, ana, _ben = started(live_server.url)
    frames: list[str] = []
    ready = threading.Event()
    reader = threading.Thread(target=read_frames, args=(live_server.url, mid, frames, ready))
    reader.start()
    assert ready.wait(30)
    assert ana.post(f"/api/matches/{mid}/say", json={"phrase": "good_luck"}).status_code == 204
    reader.join(30)
    assert not reader.is_alive()
    lines = frames[0].splitlines()
    assert not any(x.startswith("id:") for x in lines)
    data: dict[str, Any] = json.loads(next(x[6:] for x in lines if x.startswith("data: ")))
    assert (data["type"], data["phrase"]) == ("said", "good_luck")


async def test_a_phrase_reaches_an_open_socket(live_server) -> None:  # type: ignore[no-untyped-def]
    mid, ana, ben = started(live_server.url)
    seq = ana.get(f"/api/matches/{mid}").json()["seq"]
    url = live_server.url.replace("http://", "ws://") + f"/api/matches/{mid}/socket"
    async with connect(f"{url}?last_event_id={seq}") as ws:
        assert ben.post(f"/api/matches/{mid}/say", json={"phrase": "have_fun"}).status_code == 204
        frame = json.loads(await ws.recv())
    assert frame["type"] == "events"
    assert [(e["type"], e["phrase"]) for e in frame["events"]] == [("said", "have_fun")]
