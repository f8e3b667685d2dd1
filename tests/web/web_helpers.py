"""Helpers for the API tests: sign up, play a match through the API."""

from __future__ import annotations

from typing import Any

import httpx

PASSWORD = "correct horse battery"


async def sign_up(client: httpx.AsyncClient, name: str) -> dict[str, Any]:
    r = await client.post(
        "/api/account",
        json={"email": f"{name.lower()}@example.org", "password": PASSWORD, "name": name},
    )
    assert r.status_code == 201, r.text
    return dict(r.json())


async def move(client: httpx.AsyncClient, state: dict[str, Any]) -> httpx.Response:
    """The obvious next move for the caller's seat: throw, or cover the last option."""
    turn = state["turn"]
    mid = state["id"]
    if turn["dice"] is None:
        return await client.post(f"/api/matches/{mid}/throw", json={})
    return await client.post(f"/api/matches/{mid}/cover", json={"tiles": turn["options"][-1]})


async def play_out(
    clients: dict[int, httpx.AsyncClient],
    state: dict[str, Any],
    log: list[str] | None = None,
    check_fresh: bool = False,
) -> dict[str, Any]:
    """Play a match to its end; ``clients`` maps each human seat to its client.
    Every response body is appended to ``log`` (for the secrecy test)."""
    mid = state["id"]
    for _ in range(5000):
        if state["status"] == "finished":
            return state
        seat = state["turn"]["seat"]
        r = await move(clients[seat], state)
        assert r.status_code == 200, r.text
        if log is not None:
            log.append(r.text)
        state = r.json()
        if check_fresh:  # the answer to a move is exactly what a fresh load shows
            assert state == (await clients[seat].get(f"/api/matches/{mid}")).json()
        if log is not None:
            for c in clients.values():
                for path in (
                    f"/api/matches/{mid}",
                    f"/api/matches/{mid}/record",
                    f"/matches/{mid}",
                ):
                    log.append((await c.get(path)).text)
    raise AssertionError("the match did not end")
