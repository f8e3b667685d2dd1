"""The SSE stream on a real server: a move made by one client reaches another's open
stream, in order, and a reconnect with Last-Event-ID misses nothing."""

from __future__ import annotations

import json
import secrets
import threading
from typing import Any

import httpx

PASSWORD = "correct horse battery"


def account(url: str, name: str) -> httpx.Client:
    c = httpx.Client(base_url=url, timeout=30)
    r = c.post(
        "/api/account", json={"email": f"{name}@example.org", "password": PASSWORD, "name": name}
    )
    assert r.status_code == 201, r.text
    # Every move pressed here (autoplay has its own tests).
    r = c.put("/api/account/autoplay", json={"throws": False, "single_covers": False})
    assert r.status_code == 200, r.text
    return c


def read_events(
    url: str, mid: str, last: int, want: int, out: list[dict[str, Any]], ready: threading.Event
) -> None:
    with (
        httpx.Client(base_url=url, timeout=30) as c,
        c.stream("GET", f"/api/matches/{mid}/events", headers={"Last-Event-ID": str(last)}) as r,
    ):
        ready.set()
        for line in r.iter_lines():
            if line.startswith("data: "):
                out.append(json.loads(line[6:]))
                if len(out) >= want:
                    return


def test_moves_reach_an_open_stream_and_resume_works(live_server) -> None:  # type: ignore[no-untyped-def]
    url = live_server.url
    tag = secrets.token_hex(3)
    ana, ben = account(url, f"sse_a{tag}"), account(url, f"sse_b{tag}")
    state = ana.post("/api/matches", json={"seats": 2, "bots": 0, "deadline_seconds": 3600}).json()
    mid = state["id"]
    state = ben.post(f"/api/matches/{mid}/join", json={}).json()
    start = state["seq"]

    got: list[dict[str, Any]] = []
    ready = threading.Event()
    reader = threading.Thread(target=read_events, args=(url, mid, start, 1, got, ready))
    reader.start()
    assert ready.wait(30)
    # Whoever the order of play drawn from the seed put first throws.
    first, other = (ana, ben) if state["seats"][0]["name"] == f"sse_a{tag}" else (ben, ana)
    r = first.post(f"/api/matches/{mid}/throw", json={})
    assert r.status_code == 200
    reader.join(30)
    assert not reader.is_alive()
    assert got[0]["type"] == "thrown" and got[0]["seat"] == 0
    assert got[0]["seq"] == start + 1

    # Reconnect after the first event: the stream replays from there, in order.
    other.post(f"/api/matches/{mid}/resign")
    final = ana.get(f"/api/matches/{mid}").json()
    rest: list[dict[str, Any]] = []
    read_events(url, mid, got[0]["seq"], final["seq"] - got[0]["seq"], rest, threading.Event())
    assert [e["seq"] for e in rest] == list(range(got[0]["seq"] + 1, final["seq"] + 1))
    assert rest[-1]["type"] == "match_ended"
    assert rest[-1]["server_seed"] == final["server_seed"]


def test_an_idle_stream_gets_keep_alive_comments(live_server) -> None:  # type: ignore[no-untyped-def]
    """The test server sends them every half second (15 s in production)."""
    ana = account(live_server.url, f"idle{secrets.token_hex(3)}")
    mid = ana.post("/api/matches", json={"seats": 2, "bots": 0}).json()["id"]
    with (
        httpx.Client(base_url=live_server.url, timeout=30) as c,
        c.stream("GET", f"/api/matches/{mid}/events") as r,
    ):
        assert r.headers["cache-control"] == "no-cache"
        comments = 0
        for line in r.iter_lines():
            if line.startswith(":"):
                comments += 1
                if comments == 2:
                    break
    assert comments == 2
