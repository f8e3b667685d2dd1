"""Helpers for the ratings tests: people matches played through the API, and
players written straight into the tables (for leaderboard shapes no API reaches)."""

from __future__ import annotations

from typing import Any

import httpx
from web_helpers import move, sign_up


async def people(make_client: Any, names: list[str]) -> list[httpx.AsyncClient]:
    clients = []
    for name in names:
        c = await make_client()
        await sign_up(c, name)
        clients.append(c)
    return clients


async def start_match(
    clients: list[httpx.AsyncClient], variant: str, bots: int = 0
) -> dict[str, Any]:
    """Seat 0 creates a match for len(clients) people and ``bots`` bots; the others join
    in order, so clients[i] plays seat i."""
    r = await clients[0].post(
        "/api/matches",
        json={"variant": variant, "seats": len(clients) + bots, "bots": bots},
    )
    assert r.status_code == 201, r.text
    state = r.json()
    for c in clients[1:]:
        r = await c.post(f"/api/matches/{state['id']}/join", json={})
        assert r.status_code == 200, r.text
        state = r.json()
    return state


async def play(
    clients: list[httpx.AsyncClient],
    state: dict[str, Any],
    resign_first: list[int] | None = None,
) -> dict[str, Any]:
    """Resign the seats in ``resign_first`` (in that order), then play to the end."""
    mid = state["id"]
    for seat in resign_first or []:
        r = await clients[seat].post(f"/api/matches/{mid}/resign")
        assert r.status_code == 200, r.text
        state = r.json()
    for _ in range(5000):
        if state["status"] == "finished":
            return state
        seat = state["turn"]["seat"]
        r = await move(clients[seat], state)
        assert r.status_code == 200, r.text
        state = r.json()
    raise AssertionError("the match did not end")
