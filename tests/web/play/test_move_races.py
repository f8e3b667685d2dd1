"""A resignation racing a move or another resignation, on one match at once: each
request gets its answer (done, or 409 saying why), never a 500, and the match ends
once, with one record.

On PostgreSQL the two transactions really overlap (each request on a connection of
its own); on SQLite the single writer has them in turn. Run on both (make test).
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from web_helpers import sign_up

from jackpot import fair

ROUNDS = 12


async def _people_match(ana: httpx.AsyncClient, ben: httpx.AsyncClient) -> dict[str, Any]:
    made = await ana.post("/api/matches", json={"seats": 2, "bots": 0})
    assert made.status_code == 201, made.text
    joined = await ben.post(f"/api/matches/{made.json()['id']}/join", json={})
    assert joined.status_code == 200, joined.text
    state: dict[str, Any] = joined.json()
    return state


def _answered(r: httpx.Response) -> None:
    assert r.status_code in (200, 409), r.text
    if r.status_code == 409:
        assert r.json()["error"]["message"], r.text


async def _ended_once(client: httpx.AsyncClient, match_id: str) -> dict[str, Any]:
    state: dict[str, Any] = (await client.get(f"/api/matches/{match_id}")).json()
    assert state["status"] == "finished", state
    record = (await client.get(f"/api/matches/{match_id}/record")).json()
    assert fair.verify(fair.parse_record(record)).ok
    assert sum(1 for e in record["events"] if e["type"] == "out") == 1, record["events"]
    return state


async def test_two_resignations_at_once(make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    for _ in range(ROUNDS):
        state = await _people_match(ana, ben)
        mid = state["id"]
        both = await asyncio.gather(
            ana.post(f"/api/matches/{mid}/resign"), ben.post(f"/api/matches/{mid}/resign")
        )
        for r in both:
            _answered(r)
        assert sorted(r.status_code for r in both) == [200, 409], [r.text for r in both]
        await _ended_once(ana, mid)


async def test_a_resignation_racing_a_move(make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    by_name = {"Ana": ana, "Ben": ben}
    for i in range(ROUNDS):
        state = await _people_match(ana, ben)
        mid = state["id"]
        on_turn = state["seats"][state["turn"]["seat"]]["name"]
        mover = by_name[on_turn]
        # Half the rounds the other player resigns, half the mover resigns too.
        resigner = mover if i % 2 else by_name["Ben" if on_turn == "Ana" else "Ana"]
        thrown, resigned = await asyncio.gather(
            mover.post(f"/api/matches/{mid}/throw", json={}),
            resigner.post(f"/api/matches/{mid}/resign"),
        )
        _answered(thrown)
        _answered(resigned)
        assert resigned.status_code == 200 or thrown.status_code == 200
        await _ended_once(ana, mid)
