"""Missed throw deadlines put the seat out, exactly once even with several sweepers."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from web_helpers import join_in_joining_order, sign_up

from jackpot import fair
from jackpot.web.base.clock import utcnow
from jackpot.web.base.storage.db import Database
from jackpot.web.play.sweeper import sweep_once

_names = iter(range(10_000))


async def people_match(make_client, seats: int = 2, deadline: int = 60):  # type: ignore[no-untyped-def]
    clients = [await make_client() for _ in range(seats)]
    for c in clients:
        await sign_up(c, f"Player{next(_names)}")
    state = (
        await clients[0].post(
            "/api/matches", json={"seats": seats, "bots": 0, "deadline_seconds": deadline}
        )
    ).json()
    # The last to join keeps the joining order (tests of deadlines, not of the draw):
    # clients[k] plays seat k.
    for c in clients[1:-1]:
        state = (await c.post(f"/api/matches/{state['id']}/join", json={})).json()
    state = (await join_in_joining_order(clients[-1], state["id"])).json()
    return clients, state


async def test_a_missed_deadline_puts_the_seat_out(app, make_client) -> None:  # type: ignore[no-untyped-def]
    clients, state = await people_match(make_client, seats=3)
    db: Database = app.state.db
    assert await sweep_once(db) == 0  # nothing is due yet
    later = utcnow() + timedelta(seconds=61)
    assert await sweep_once(db, later) == 1
    state = (await clients[1].get(f"/api/matches/{state['id']}")).json()
    assert state["seats"][0]["out"] == "timeout"
    assert state["status"] == "playing" and state["turn"]["seat"] == 1
    # The next seat's throw has its own, fresh deadline.
    assert state["turn"]["due_at"] is not None
    record = (await clients[1].get(f"/api/matches/{state['id']}/record")).json()
    assert record["events"] == [{"type": "out", "seat": 0, "reason": "timeout"}]


async def test_the_deadline_covers_the_throw_and_its_cover(app, make_client) -> None:  # type: ignore[no-untyped-def]
    clients, state = await people_match(make_client)
    due = state["turn"]["due_at"]
    thrown = (await clients[0].post(f"/api/matches/{state['id']}/throw", json={})).json()
    if thrown["turn"]["seat"] == 0:  # a cover is due: same deadline as the throw
        assert thrown["turn"]["due_at"] == due
    assert await sweep_once(app.state.db, utcnow() + timedelta(seconds=61)) == 1
    final = (await clients[1].get(f"/api/matches/{state['id']}")).json()
    assert final["status"] == "finished"
    record = (await clients[1].get(f"/api/matches/{state['id']}/record")).json()
    assert fair.verify(fair.parse_record(record)).ok


@pytest.mark.pg
async def test_several_sweepers_apply_each_timeout_once(settings, make_client, app) -> None:  # type: ignore[no-untyped-def]
    matches = [await people_match(make_client, seats=3) for _ in range(3)]
    # Three sweepers, each with its own database connections, as separate processes would.
    others = [Database(settings.database_url) for _ in range(2)]
    later = utcnow() + timedelta(seconds=61)
    try:
        counts = await asyncio.gather(
            sweep_once(app.state.db, later),
            *(sweep_once(db, later) for db in others),
        )
    finally:
        for db in others:
            await db.dispose()
    assert sum(counts) == 3
    for clients, state in matches:
        record = (await clients[1].get(f"/api/matches/{state['id']}/record")).json()
        assert record["events"] == [{"type": "out", "seat": 0, "reason": "timeout"}]


async def test_minimum_deadline_is_enforced(client) -> None:  # type: ignore[no-untyped-def]
    r = await client.post("/api/matches", json={"seats": 1, "bots": 0, "deadline_seconds": 0})
    assert r.status_code == 422 and "deadline_seconds" in r.json()["error"]["message"]
    r = await client.post("/api/matches", json={"seats": 1, "bots": 0, "deadline_seconds": 1})
    assert r.status_code == 201  # the test settings lower the minimum to 1 s
