"""Issue 11 item 9: a move after its due time is refused and the timeout applied at once.

No sweeper runs in these apps (``sweeper_in_process=False``): the move itself must
apply the deadline. The due time is moved into the past in the database rather
than waited for, so nothing depends on the clock of a loaded machine.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

from jackpot import fair
from jackpot.web.base.clock import utcnow
from jackpot.web.base.tables import core as t
from web.web_helpers import join_in_joining_order, sign_up

#: Repeated on PostgreSQL (make test): a move racing its deadline.
pytestmark = pytest.mark.pg

_names = iter(range(10_000))


async def overdue(app, match_id: str) -> None:  # type: ignore[no-untyped-def]
    async with app.state.db.write() as conn:
        await conn.execute(
            update(t.matches)
            .where(t.matches.c.id == match_id)
            .values(due_at=utcnow() - timedelta(seconds=1))
        )


async def people_match(make_client, seats: int):  # type: ignore[no-untyped-def]
    clients = [await make_client() for _ in range(seats)]
    for c in clients:
        await sign_up(c, f"Late{next(_names)}")
    state = (
        await clients[0].post(
            "/api/matches", json={"seats": seats, "bots": 0, "deadline_seconds": 60}
        )
    ).json()
    # The last to join keeps the joining order (these tests are about deadlines, not
    # the order of play drawn from the seed): clients[k] plays seat k.
    for c in clients[1:-1]:
        state = (await c.post(f"/api/matches/{state['id']}/join", json={})).json()
    state = (await join_in_joining_order(clients[-1], state["id"])).json()
    return clients, state


async def test_a_late_throw_is_refused_and_the_seat_put_out(app, client) -> None:  # type: ignore[no-untyped-def]
    r = await client.post("/api/matches", json={"seats": 2, "bots": 1, "deadline_seconds": 60})
    state = r.json()
    mid = state["id"]
    me = next(i for i, s in enumerate(state["seats"]) if s["you"])  # the draw placed me
    assert state["turn"]["seat"] == me and state["turn"]["due_at"] is not None
    await overdue(app, mid)
    r = await client.post(f"/api/matches/{mid}/throw", json={})
    assert r.status_code == 409, r.text
    assert r.json()["error"]["code"] == "deadline_passed"
    # The timeout was committed by that same request: no sweeper has run.
    state = (await client.get(f"/api/matches/{mid}")).json()
    assert state["seats"][me]["out"] == "timeout"
    assert state["status"] == "finished"
    record = (await client.get(f"/api/matches/{mid}/record")).json()
    assert {"type": "out", "seat": me, "reason": "timeout"} in record["events"]
    assert fair.verify(fair.parse_record(record)).ok
    # Further moves meet a finished match.
    r = await client.post(f"/api/matches/{mid}/throw", json={})
    assert r.status_code == 409 and r.json()["error"]["code"] == "match_over"


async def test_a_late_cover_and_a_late_resignation_are_refused(app, client) -> None:  # type: ignore[no-untyped-def]
    for action in ("cover", "resign"):
        for _ in range(20):  # a first throw with nothing to cover ends a solo match
            r = await client.post(
                "/api/matches", json={"seats": 1, "bots": 0, "deadline_seconds": 60}
            )
            mid = r.json()["id"]
            state = (await client.post(f"/api/matches/{mid}/throw", json={})).json()
            if state["status"] != "finished":
                break
        assert state["turn"]["options"], "no throw with a cover in 20 matches"
        await overdue(app, mid)
        body = {"tiles": state["turn"]["options"][0]} if action == "cover" else None
        r = await client.post(f"/api/matches/{mid}/{action}", json=body)
        assert r.status_code == 409, r.text
        assert r.json()["error"]["code"] == "deadline_passed"
        state = (await client.get(f"/api/matches/{mid}")).json()
        assert state["seats"][0]["out"] == "timeout"


async def test_another_seat_moves_on_after_the_late_seat_is_put_out(app, make_client) -> None:  # type: ignore[no-untyped-def]
    clients, state = await people_match(make_client, seats=3)
    mid = state["id"]
    assert state["turn"]["seat"] == 0
    await overdue(app, mid)
    # Seat 1 does not wait for a sweeper: the overdue seat 0 is put out, and the
    # throw is seat 1's own, now due.
    r = await clients[1].post(f"/api/matches/{mid}/throw", json={})
    assert r.status_code == 200, r.text
    state = r.json()
    assert state["seats"][0]["out"] == "timeout"
    assert state["turn"]["seat"] == 1 and state["turn"]["dice"] is not None
    # Seat 0 is out for good.
    r = await clients[0].post(f"/api/matches/{mid}/throw", json={})
    assert r.status_code == 409


async def test_a_refused_move_by_another_seat_still_applies_the_timeout(app, make_client) -> None:  # type: ignore[no-untyped-def]
    clients, state = await people_match(make_client, seats=3)
    mid = state["id"]
    await overdue(app, mid)
    # Seat 2 is not next even after the timeout: refused, but seat 0 is out.
    r = await clients[2].post(f"/api/matches/{mid}/throw", json={})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_your_turn"
    state = (await clients[2].get(f"/api/matches/{mid}")).json()
    assert state["seats"][0]["out"] == "timeout" and state["turn"]["seat"] == 1


async def test_a_move_in_time_is_accepted(client) -> None:  # type: ignore[no-untyped-def]
    r = await client.post("/api/matches", json={"seats": 2, "bots": 1, "deadline_seconds": 60})
    r = await client.post(f"/api/matches/{r.json()['id']}/throw", json={})
    assert r.status_code == 200
