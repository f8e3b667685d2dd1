"""A passed deadline with a spare left uses the spare (exactly once, even with several
sweepers), restarts the deadline in full and tells every page; with none left the
seat goes out as before. A late move does what the sweeper would."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from live_helpers import apply_in_node, events_after
from web_helpers import join_in_joining_order, sign_up

from jackpot import fair
from jackpot.web.base.clock import iso, utcnow
from jackpot.web.base.identity import Actor
from jackpot.web.base.storage.db import Database
from jackpot.web.matches.live import apply_event
from jackpot.web.play import actions
from jackpot.web.play.sweeper import sweep_once
from jackpot.web.play.transaction import run_move

pytestmark = pytest.mark.pg

_names = iter(range(10_000))


async def spare_match(make_client, seats: int = 3, deadline: int = 60, spares: int = 1):  # type: ignore[no-untyped-def]
    """A match between people with ``spares``; clients[k] plays seat k."""
    clients = [await make_client() for _ in range(seats)]
    for c in clients:
        await sign_up(c, f"Sparer{next(_names)}")
    body = {"seats": seats, "bots": 0, "deadline_seconds": deadline, "spares": spares}
    state = (await clients[0].post("/api/matches", json=body)).json()
    for c in clients[1:-1]:
        state = (await c.post(f"/api/matches/{state['id']}/join", json={})).json()
    state = (await join_in_joining_order(clients[-1], state["id"])).json()
    assert state["status"] == "playing" and state["turn"]["seat"] == 0
    return clients, state


async def test_a_spare_then_a_timeout_and_the_pages_follow(app, make_client) -> None:  # type: ignore[no-untyped-def]
    clients, started = await spare_match(make_client)
    mid = started["id"]
    first = (await clients[1].get(f"/api/matches/{mid}")).json()  # what ben's page loaded
    db: Database = app.state.db
    later = utcnow() + timedelta(seconds=61)
    assert await sweep_once(db, later) == 1
    assert await sweep_once(db, later) == 0  # used once: the new deadline is not due
    state = (await clients[1].get(f"/api/matches/{mid}")).json()
    assert [s["spares_left"] for s in state["seats"]] == [0, 1, 1]
    assert state["seats"][0]["out"] is None and state["turn"]["seat"] == 0
    # The deadline starts again in full, from when the spare was used.
    assert state["turn"]["due_at"] == iso(later + timedelta(seconds=60))
    record = (await clients[1].get(f"/api/matches/{mid}/record")).json()
    assert record["events"] == [{"type": "spare", "seat": 0}]
    # One deadline later, with no spare left, the seat is out, as without spares.
    assert await sweep_once(db, later + timedelta(seconds=59)) == 0
    assert await sweep_once(db, later + timedelta(seconds=61)) == 1
    state = (await clients[1].get(f"/api/matches/{mid}")).json()
    assert state["seats"][0]["out"] == "timeout" and state["turn"]["seat"] == 1
    # The other two play on; one resigns, so the match ends and its stream closes.
    assert (await clients[2].post(f"/api/matches/{mid}/resign")).status_code == 200
    events = await events_after(clients[1], mid, first["seq"])
    spare = [e for e in events if e["type"] == "spare_used"]
    assert spare == [{"type": "spare_used", "seat": 0, "left": 0, "seq": spare[0]["seq"]}]
    fresh = (await clients[1].get(f"/api/matches/{mid}")).json()
    applied: dict[str, Any] = first
    for ev in events:
        applied = apply_event(applied, ev)
    assert applied == fresh
    assert apply_in_node(first, events) == fresh
    record = (await clients[1].get(f"/api/matches/{mid}/record")).json()
    assert [e for e in record["events"] if e["type"] != "throw"] == [
        {"type": "spare", "seat": 0},
        {"type": "out", "seat": 0, "reason": "timeout"},
        {"type": "out", "seat": 2, "reason": "resigned"},
    ]
    assert fair.verify(fair.parse_record(record)).ok
    # A record that drops the spare says a seat went out with one left: refused.
    tampered = {**record, "events": [e for e in record["events"] if e["type"] != "spare"]}
    verdict = fair.verify(fair.parse_record(tampered))
    assert not verdict.ok and "spare deadline left" in str(verdict.problem)


async def test_several_sweepers_use_a_spare_once(settings, make_client, app) -> None:  # type: ignore[no-untyped-def]
    matches = [await spare_match(make_client, seats=2, spares=2) for _ in range(3)]
    # Three sweepers, each with its own connections, as separate processes would.
    others = [Database(settings.database_url) for _ in range(2)]
    later = utcnow() + timedelta(seconds=61)
    try:
        counts = await asyncio.gather(
            sweep_once(app.state.db, later), *(sweep_once(db, later) for db in others)
        )
    finally:
        for db in others:
            await db.dispose()
    assert sum(counts) == 3
    for clients, state in matches:
        mid = state["id"]
        record = (await clients[1].get(f"/api/matches/{mid}/record")).json()
        assert record["events"] == [{"type": "spare", "seat": 0}]
        now = (await clients[1].get(f"/api/matches/{mid}")).json()
        assert [s["spares_left"] for s in now["seats"]] == [1, 2]


async def test_a_late_move_uses_the_spare_and_counts(app, make_client) -> None:  # type: ignore[no-untyped-def]
    clients, state = await spare_match(make_client, seats=2)
    mid = state["id"]
    me = (await clients[0].get("/api/account")).json()
    actor = Actor(me["id"], me["name"], False)
    later = utcnow() + timedelta(seconds=61)
    async with app.state.db.write() as conn:
        out = await run_move(conn, mid, later, actions.throw_step(actor, None), actor=actor)
    assert out is not None and out.refusal is None
    record = (await clients[1].get(f"/api/matches/{mid}/record")).json()
    assert record["events"][0] == {"type": "spare", "seat": 0}
    assert record["events"][1]["type"] == "throw" and record["events"][1]["seat"] == 0
    mid_state = (await clients[1].get(f"/api/matches/{mid}")).json()
    due = mid_state["turn"]["seat"]
    # Late again: the seat due then (seat 0 with a cover pending, or seat 1) is what
    # the passed deadline meets.
    much_later = later + timedelta(seconds=3600)
    async with app.state.db.write() as conn:
        step = actions.throw_step(actor, None)
        out = await run_move(conn, mid, much_later, step, actor=actor)
    assert out is not None and out.refusal is not None
    now = (await clients[1].get(f"/api/matches/{mid}")).json()
    if due == 0:
        # No spare left: out, and the move refused.
        assert now["seats"][0]["out"] == "timeout" and now["status"] == "finished"
        assert out.refusal.code == "deadline_passed"
    else:
        # Seat 1 uses its spare; seat 0's throw is out of turn, and the spare is kept.
        assert now["seats"][1]["spares_left"] == 0 and now["turn"]["seat"] == 1
        assert out.refusal.code == "not_your_turn"
