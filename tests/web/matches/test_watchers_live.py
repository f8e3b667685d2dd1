"""How many watch, on a real server: a stranger's open stream counts, on the match's
own count and on the watch list, a seated player's does not, and a closed one no
longer does."""

from __future__ import annotations

import secrets

import httpx

PASSWORD = "correct horse battery"


def account(url: str, name: str) -> httpx.Client:
    c = httpx.Client(base_url=url, timeout=30)
    r = c.post(
        "/api/account", json={"email": f"{name}@example.org", "password": PASSWORD, "name": name}
    )
    assert r.status_code == 201, r.text
    return c


def counts(c: httpx.Client, mid: str) -> tuple[int, int]:
    own = c.get(f"/api/matches/{mid}/watching").json()["watching"]
    row = next(m for m in c.get("/api/matches/live").json()["matches"] if m["id"] == mid)
    return own, row["watching"]


def test_a_strangers_stream_counts_a_players_does_not(live_server) -> None:  # type: ignore[no-untyped-def]
    url = live_server.url
    tag = secrets.token_hex(3)
    ana, ben = account(url, f"w_a{tag}"), account(url, f"w_b{tag}")
    mid = ana.post("/api/matches", json={"seats": 2, "bots": 0}).json()["id"]
    assert ben.post(f"/api/matches/{mid}/join", json={}).json()["status"] == "playing"
    assert counts(ana, mid) == (0, 0)
    with (
        ana.stream("GET", f"/api/matches/{mid}/events") as _own,
        httpx.Client(base_url=url, timeout=30) as stranger,
        stranger.stream("GET", f"/api/matches/{mid}/events") as _watching,
    ):
        # Both streams are open once their headers came: only the stranger counts.
        assert counts(ben, mid) == (1, 1)
    for _ in range(100):  # the server hears of the closed streams a moment later
        if counts(ben, mid) == (0, 0):
            break
        httpx.get(url + "/api/health")
    assert counts(ben, mid) == (0, 0)
