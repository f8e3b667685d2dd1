"""Play now: seeks of one kind pair into a match at once, both seekers hear it, blocked
pairs are never paired, and every refusal is a clear 4xx."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import timedelta

import pytest
from starlette.routing import Match
from web_helpers import sign_up

from jackpot.web.base.clock import utcnow
from jackpot.web.base.identity import Actor
from jackpot.web.notify.user_hub import POKE
from jackpot.web.people import api as people_api
from jackpot.web.people.expiry import expire_once
from jackpot.web.people.seeks import SEEKS, create

#: Repeated on PostgreSQL (make test): pairing.
pytestmark = pytest.mark.pg

KIND = {"variant": "classic", "deadline_seconds": 3600, "seats": 2}


async def heard(queue: asyncio.Queue, kind: str) -> dict:  # type: ignore[type-arg]
    """The first event of ``kind`` on a player's stream (pokes pass by)."""
    while True:
        ev = await asyncio.wait_for(queue.get(), timeout=10)
        if ev != POKE and ev.get("type") == kind:
            return dict(ev)


async def test_two_people_seeking_the_same_kind_are_paired(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await make_client(), await make_client()
    ana_id = (await sign_up(ana, "Ana"))["id"]
    ben_id = (await sign_up(ben, "Ben"))["id"]
    hub = app.state.user_hub
    ana_hears, ben_hears = hub.subscribe(ana_id), hub.subscribe(ben_id)
    try:
        first = await ana.post("/api/seeks", json=KIND)
        assert first.status_code == 201, first.text
        assert first.json()["status"] == "waiting"
        # Another kind does not pair with it.
        other = await ben.post("/api/seeks", json={**KIND, "deadline_seconds": 7200})
        assert other.json()["status"] == "waiting"
        listed = (await ben.get("/api/seeks")).json()["kinds"]
        assert {(k["deadline_seconds"], k["waiting"]) for k in listed} == {(3600, 1), (7200, 1)}
        assert all("name" not in k and "user_id" not in k for k in listed)
        assert listed[0]["ratings"][0]["provisional"] is True
        second = await ben.post("/api/seeks", json=KIND)
        assert second.status_code == 201, second.text
        body = second.json()
        assert body["status"] == "paired"
        match_id = body["match"]
        a_event = await heard(ana_hears.queue, "paired")
        b_event = await heard(ben_hears.queue, "paired")
    finally:
        hub.unsubscribe(ana_hears, ana_id)
        hub.unsubscribe(ben_hears, ben_id)
    assert a_event == {"type": "paired", "seek": first.json()["id"], "match": match_id}
    assert b_event["match"] == match_id
    seek = (await ana.get(f"/api/seeks/{first.json()['id']}")).json()
    assert (seek["status"], seek["match"]) == ("paired", match_id)
    state = (await ana.get(f"/api/matches/{match_id}")).json()
    assert state["status"] == "playing"
    assert state["variant"] == "classic" and state["deadline_seconds"] == 3600
    assert sorted(s["name"] for s in state["seats"]) == ["Ana", "Ben"]
    # Ben's other seek still waits; the paired kind is gone from the list.
    kinds = (await ana.get("/api/seeks")).json()["kinds"]
    assert [(k["deadline_seconds"], k["waiting"]) for k in kinds] == [(7200, 1)]


async def test_three_seats_pair_when_the_third_arrives(app, make_client) -> None:  # type: ignore[no-untyped-def]
    clients = [await make_client() for _ in range(3)]
    for c, name in zip(clients, ("Ana", "Ben", "Cal"), strict=True):
        await sign_up(c, name)
    kind = {**KIND, "seats": 3}
    assert (await clients[0].post("/api/seeks", json=kind)).json()["status"] == "waiting"
    assert (await clients[1].post("/api/seeks", json=kind)).json()["status"] == "waiting"
    third = (await clients[2].post("/api/seeks", json=kind)).json()
    assert third["status"] == "paired"
    state = (await clients[0].get(f"/api/matches/{third['match']}")).json()
    assert sorted(s["name"] for s in state["seats"]) == ["Ana", "Ben", "Cal"]


async def test_blocked_pairs_are_never_paired(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben, cal = await make_client(), await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    await sign_up(cal, "Cal")
    assert (await ana.put("/api/blocks/Ben")).status_code == 200
    a = (await ana.post("/api/seeks", json=KIND)).json()
    b = (await ben.post("/api/seeks", json=KIND)).json()
    assert b["status"] == "waiting"  # Ana blocked Ben: they wait apart
    c = (await cal.post("/api/seeks", json=KIND)).json()
    # Cal is paired with the oldest seek that may play him: Ana's.
    assert c["status"] == "paired"
    assert (await ana.get(f"/api/seeks/{a['id']}")).json()["match"] == c["match"]
    assert (await ben.get(f"/api/seeks/{b['id']}")).json()["status"] == "waiting"


async def test_neither_side_of_a_block_sees_the_others_seek(app, make_client) -> None:  # type: ignore[no-untyped-def]
    """A seek the reader could never be paired with is not offered ("Play this"
    paired nobody): not to the one who blocked, nor to the one blocked; others see it."""
    ana, ben, cal = await make_client(), await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    await sign_up(cal, "Cal")
    assert (await ana.put("/api/blocks/Ben")).status_code == 200
    assert (await ana.post("/api/seeks", json=KIND)).json()["status"] == "waiting"
    assert (await ben.get("/api/seeks")).json()["kinds"] == []
    page = await ben.get("/play-now", headers={"accept": "text/html"})
    assert page.status_code == 200 and "Play this" not in page.text
    [kind] = (await cal.get("/api/seeks")).json()["kinds"]
    assert kind["waiting"] == 1
    assert "Play this" in (await cal.get("/play-now", headers={"accept": "text/html"})).text
    await ana.delete("/api/seeks/" + (await ana.get("/api/seeks")).json()["mine"][0]["id"])
    assert (await ben.post("/api/seeks", json=KIND)).json()["status"] == "waiting"
    assert (await ana.get("/api/seeks")).json()["kinds"] == []
    assert [k["waiting"] for k in (await cal.get("/api/seeks")).json()["kinds"]] == [1]


async def test_refusals(app, make_client) -> None:  # type: ignore[no-untyped-def]
    nobody = await make_client()
    r = await nobody.post("/api/seeks", json=KIND)
    assert (r.status_code, r.json()["error"]["code"]) == (403, "account_required")
    guest = await make_client()
    await guest.post("/api/matches", json={"variant": "jackpot", "seats": 2, "bots": 1})
    r = await guest.post("/api/seeks", json=KIND)
    assert (r.status_code, r.json()["error"]["code"]) == (403, "account_required")
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    for bad in (
        {**KIND, "variant": "chess"},
        {**KIND, "seats": 1},
        {**KIND, "seats": 5},
        {**KIND, "deadline_seconds": 0},
        {**KIND, "deadline_seconds": 8 * 86400},
        {**KIND, "extra": 1},
    ):
        r = await ana.post("/api/seeks", json=bad)
        assert r.status_code == 422, (bad, r.text)
    mine = (await ana.post("/api/seeks", json=KIND)).json()
    r = await ana.post("/api/seeks", json=KIND)
    assert (r.status_code, r.json()["error"]["code"]) == (409, "already_seeking")
    for n in range(2, 6):
        more = await ana.post("/api/seeks", json={**KIND, "deadline_seconds": 3600 * n})
        assert more.status_code == 201
    r = await ana.post("/api/seeks", json={**KIND, "deadline_seconds": 3600 * 9})
    assert (r.status_code, r.json()["error"]["code"]) == (429, "too_many_seeks")
    # Someone else's seek is not found; an unknown id neither.
    assert (await ben.get(f"/api/seeks/{mine['id']}")).status_code == 404
    assert (await ben.delete(f"/api/seeks/{mine['id']}")).status_code == 404
    assert (await ana.get("/api/seeks/s_nothing")).status_code == 404
    cancelled = await ana.delete(f"/api/seeks/{mine['id']}")
    assert cancelled.json()["status"] == "cancelled"
    r = await ana.delete(f"/api/seeks/{mine['id']}")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "seek_closed")
    # A cancelled seek pairs with nobody.
    assert (await ben.post("/api/seeks", json=KIND)).json()["status"] == "waiting"


async def test_seeks_expire(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    short = (await ana.post("/api/seeks", json={**KIND, "deadline_seconds": 60})).json()
    long = (await ana.post("/api/seeks", json=KIND)).json()
    assert await expire_once(app.state.db, utcnow() + timedelta(minutes=11)) == 1
    assert (await ana.get(f"/api/seeks/{short['id']}")).json()["status"] == "expired"
    assert (await ana.get(f"/api/seeks/{long['id']}")).json()["status"] == "waiting"
    r = await ben.post("/api/seeks", json={**KIND, "deadline_seconds": 60})
    assert r.json()["status"] == "waiting"  # nobody is paired with an expired seek
    assert await expire_once(app.state.db, utcnow() + timedelta(days=8)) == 2


async def test_a_group_never_holds_a_blocked_pair(app, make_client) -> None:  # type: ignore[no-untyped-def]
    clients = {}
    for name in ("Ana", "Ben", "Cal", "Dan"):
        clients[name] = await make_client()
        await sign_up(clients[name], name)
    kind = {**KIND, "seats": 3}
    await clients["Ana"].put("/api/blocks/Cal")
    seeks = {}
    for name in ("Ana", "Ben", "Cal"):
        seeks[name] = (await clients[name].post("/api/seeks", json=kind)).json()
        assert seeks[name]["status"] == "waiting", name  # Cal may not sit with Ana
    dan = (await clients["Dan"].post("/api/seeks", json=kind)).json()
    assert dan["status"] == "paired"
    state = (await clients["Dan"].get(f"/api/matches/{dan['match']}")).json()
    assert sorted(s["name"] for s in state["seats"]) == ["Ana", "Ben", "Dan"]
    cal = (await clients["Cal"].get(f"/api/seeks/{seeks['Cal']['id']}")).json()
    assert cal["status"] == "waiting"



async def test_two_seeks_arriving_together_are_paired(app, make_client) -> None:  # type: ignore[no-untyped-def]
    """Neither may miss the other's row: Ben's seek arrives while Ana's transaction
    is still open. On PostgreSQL a kind's seeks take turns (SQLite's writer has them
    in turn anyway), so Ben's waits for Ana's to commit, and sees it."""
    ana, ben = await make_client(), await make_client()
    people = [
        Actor((await sign_up(c, name))["id"], name, False)
        for c, name in ((ana, "Ana"), (ben, "Ben"))
    ]
    db, settings = app.state.db, app.state.settings
    ana_made, ben_done = asyncio.Event(), asyncio.Event()
    answers: dict[str, dict] = {}  # type: ignore[type-arg]

    async def seek(who: Actor) -> None:
        async with db.write() as conn:
            answers[who.name] = await create(
                conn, who, settings, variant="jackpot", deadline_seconds=900, seats=2,
                now=utcnow(),
            )
            if who.name == "Ana":
                ana_made.set()
                # Ben's seek runs now unless it has to wait for this one: then
                # this one commits after a second.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ben_done.wait(), timeout=1)
            else:
                ben_done.set()

    async def ben_after_ana() -> None:
        await ana_made.wait()
        await seek(people[1])

    await asyncio.gather(seek(people[0]), ben_after_ana())
    assert answers["Ana"]["status"] == "waiting"
    assert answers["Ben"]["status"] == "paired"


def pings(sub) -> int:  # type: ignore[no-untyped-def]
    n = 0
    while not sub.queue.empty():
        sub.queue.get_nowait()
        n += 1
    return n


async def test_what_pings_the_pages_listing_the_seeks(app, make_client) -> None:  # type: ignore[no-untyped-def]
    """A seek made, paired, cancelled or expired: the /play-now pages hear one ping
    (on ``GET /api/seeks/events``) once it is committed, and read the list again."""
    listing = app.state.bus.subscribe(SEEKS)
    try:
        ana, ben, cal = await make_client(), await make_client(), await make_client()
        for client, name in ((ana, "Ana"), (ben, "Ben"), (cal, "Cal")):
            await sign_up(client, name)
        kind = {"variant": "jackpot", "deadline_seconds": 86400, "seats": 2}
        first = (await ana.post("/api/seeks", json=kind)).json()
        assert pings(listing) == 1
        assert (await ben.post("/api/seeks", json=kind)).json()["status"] == "paired"
        assert pings(listing) == 1
        other = (await cal.post("/api/seeks", json={**kind, "seats": 3})).json()
        assert pings(listing) == 1
        assert (await cal.delete(f"/api/seeks/{other['id']}")).status_code == 200
        assert pings(listing) == 1
        await cal.post("/api/seeks", json={**kind, "seats": 4})
        pings(listing)
        assert await expire_once(app.state.db, utcnow() + timedelta(days=8)) == 1
        assert pings(listing) == 1
        # Reading the list, or a refused seek, changes nothing.
        await ana.get("/api/seeks")
        assert (await ana.post("/api/seeks", json={**kind, "seats": 9})).status_code == 422
        assert pings(listing) == 0
        assert first["status"] == "waiting"
    finally:
        listing.close()
    # The stream's path is its own, not read as a seek's id.
    scope = {"type": "http", "method": "GET", "path": "/api/seeks/events"}
    first = next(r for r in people_api.router.routes if r.matches(scope)[0] == Match.FULL)
    assert first.name == "seeks_events"
