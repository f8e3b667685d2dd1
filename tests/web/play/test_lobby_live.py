"""The live lobby: actions that change the open matches ping the lobby's stream, moves
do not, and the stream passes a burst of pings on as one frame."""

from __future__ import annotations

import secrets
import threading
from typing import Any

import httpx
from web_helpers import sign_up

from jackpot.web.play.lobby import LOBBY

PASSWORD = "correct horse battery"


def pings(bus_sub: Any) -> int:
    n = 0
    while not bus_sub.queue.empty():
        bus_sub.queue.get_nowait()
        n += 1
    return n


async def test_what_pings_the_lobby(app: Any, make_client: Any) -> None:
    """A public match created, a seat taken or left, a match started or called off:
    one ping each, once committed. Moves, and private matches, leave the lobby alone."""
    lobby = app.state.bus.subscribe(LOBBY)
    ana, ben, cy = await make_client(), await make_client(), await make_client()
    for c, name in ((ana, "Ana"), (ben, "Ben"), (cy, "Cy")):
        await sign_up(c, name)
    public = (await ana.post("/api/matches", json={"seats": 3, "bots": 0})).json()["id"]
    assert pings(lobby) == 1
    assert (await ben.post(f"/api/matches/{public}/join", json={})).status_code == 200
    assert pings(lobby) == 1
    assert (await ben.post(f"/api/matches/{public}/resign")).status_code == 200  # leaves
    assert pings(lobby) == 1
    assert (await ana.post(f"/api/matches/{public}/resign")).status_code == 200  # calls off
    assert pings(lobby) == 1
    private = {"seats": 2, "bots": 0, "private": True}
    hidden = (await ana.post("/api/matches", json=private)).json()["id"]
    assert (await ben.post(f"/api/matches/{hidden}/join", json={})).status_code == 200
    assert pings(lobby) == 0
    two = (await ana.post("/api/matches", json={"seats": 2, "bots": 0})).json()["id"]
    assert pings(lobby) == 1
    state = (await cy.post(f"/api/matches/{two}/join", json={})).json()
    assert state["status"] == "playing" and pings(lobby) == 1  # joined and started: one ping
    mover = ana if state["seats"][state["turn"]["seat"]]["name"] == "Ana" else cy
    assert (await mover.post(f"/api/matches/{two}/throw", json={})).status_code == 200
    assert pings(lobby) == 0
    lobby.close()


def account(url: str, name: str) -> httpx.Client:
    c = httpx.Client(base_url=url, timeout=30)
    r = c.post(
        "/api/account", json={"email": f"{name}@example.org", "password": PASSWORD, "name": name}
    )
    assert r.status_code == 201, r.text
    return c


def read_pings(url: str, want: int, out: list[str], ready: threading.Event) -> None:
    with (
        httpx.Client(base_url=url, timeout=30) as c,
        c.stream("GET", "/api/lobby/events") as r,
    ):
        assert r.headers["content-type"].startswith("text/event-stream")
        ready.set()
        for line in r.iter_lines():
            if line.startswith("event: "):
                out.append(line[7:])
                if len(out) >= want:
                    return


def test_a_new_match_and_a_join_reach_an_open_lobby_stream(live_server) -> None:  # type: ignore[no-untyped-def]
    url = live_server.url
    tag = secrets.token_hex(3)
    ana, ben = account(url, f"lob_a{tag}"), account(url, f"lob_b{tag}")
    got: list[str] = []
    ready = threading.Event()
    reader = threading.Thread(target=read_pings, args=(url, 1, got, ready))
    reader.start()
    assert ready.wait(30)
    mid = ana.post("/api/matches", json={"seats": 2, "bots": 0}).json()["id"]
    reader.join(30)
    assert not reader.is_alive() and got == ["lobby"]

    got.clear()
    ready.clear()
    reader = threading.Thread(target=read_pings, args=(url, 1, got, ready))
    reader.start()
    assert ready.wait(30)
    assert ben.post(f"/api/matches/{mid}/join", json={}).status_code == 200
    reader.join(30)
    assert not reader.is_alive() and got == ["lobby"]
    assert mid not in {m["id"] for m in ana.get("/api/matches").json()["matches"]}
