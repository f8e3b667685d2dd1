"""Rematch through the API: offered by any seat at the end of a match between
people, started once everyone accepts, with the same seats, variant and deadline
and a new seed and commitment."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from web_helpers import join_in_joining_order, sign_up

from jackpot import fair

_names = iter(range(10_000))


async def people(make_client: Any, n: int) -> list[tuple[httpx.AsyncClient, str]]:
    out = []
    for _ in range(n):
        c = await make_client()
        name = f"Re{next(_names)}"
        await sign_up(c, name)
        out.append((c, name))
    return out


async def finished_match(
    players: list[tuple[httpx.AsyncClient, str]],
    *,
    bots: int = 0,
    variant: str = "classic",
    deadline: int = 7200,
) -> dict[str, Any]:
    """A match between ``players`` that ends at once: everyone but the last resigns.

    The last to join picks a client seed that keeps the joining order, so players[k]
    sits in seat k (the rematch then draws its own order)."""
    first = players[0][0]
    state = (
        await first.post(
            "/api/matches",
            json={
                "seats": len(players) + bots,
                "bots": bots,
                "variant": variant,
                "deadline_seconds": deadline,
                "private": True,
            },
        )
    ).json()
    for k, (c, _) in enumerate(players[1:], start=2):
        if k == len(players):
            state = (await join_in_joining_order(c, state["id"])).json()
        else:
            state = (await c.post(f"/api/matches/{state['id']}/join", json={})).json()
    for c, _ in players[:-1]:
        r = await c.post(f"/api/matches/{state['id']}/resign")
        assert r.status_code == 200, r.text
        state = r.json()
    if state["status"] != "finished":  # bots still in: the last person resigns too
        state = (await players[-1][0].post(f"/api/matches/{state['id']}/resign")).json()
    assert state["status"] == "finished" and state["result"] is not None
    return state


async def test_everyone_accepts_and_the_rematch_starts(make_client) -> None:  # type: ignore[no-untyped-def]
    players = await people(make_client, 3)
    (ana, ana_name), (ben, _), (cid, _) = players
    old = await finished_match(players, variant="jackpot", deadline=7200)
    mid = old["id"]
    view = (await ben.get(f"/api/matches/{mid}/rematch")).json()
    assert view["possible"] and view["offer"] is None and view["your_seat"] == 1

    r = await ben.post(f"/api/matches/{mid}/rematch", json={"client_seed": "ben-seed"})
    assert r.status_code == 200
    offer = r.json()["offer"]
    assert offer["status"] == "open" and offer["offered_by"] == 1
    assert offer["accepted"] == [1] and offer["waiting_for"] == [0, 2]
    # Ana sees the offer from her side; an acceptance does not start it yet.
    seen = (await ana.get(f"/api/matches/{mid}/rematch")).json()
    assert seen["offer"]["waiting_for"] == [0, 2] and seen["your_seat"] == 0
    r = await ana.post(f"/api/matches/{mid}/rematch", json={"client_seed": "ana-seed"})
    assert r.json()["offer"]["status"] == "open" and r.json()["offer"]["waiting_for"] == [2]

    r = await cid.post(f"/api/matches/{mid}/rematch", json={})
    offer = r.json()["offer"]
    assert offer["status"] == "started" and offer["waiting_for"] == []
    new = (await ana.get(f"/api/matches/{offer['new_match_id']}")).json()
    assert new["id"] != mid
    assert new["status"] == "playing"
    assert new["variant"] == "jackpot" and new["deadline_seconds"] == 7200
    assert new["private"] is True
    # The same people, in an order of play drawn again from the new seeds.
    assert sorted(s["name"] for s in new["seats"]) == sorted(s["name"] for s in old["seats"])
    assert [s["name"] for s in new["seats"] if s["you"]] == [ana_name]
    assert new["turn"]["due_at"] is not None
    # New dice: a fresh commitment, and the seeds the players sent.
    assert new["commitment"] != old["commitment"]
    assert new["server_seed"] is None
    assert new["client_seed"].startswith("ana-seed.ben-seed.")
    # Everyone sees where the rematch went; asking again changes nothing.
    for c, _ in players:
        again = (await c.post(f"/api/matches/{mid}/rematch", json={})).json()
        assert again["offer"]["new_match_id"] == offer["new_match_id"]
    # The rematch can be played and verified like any match; the people joined in
    # their old seats' order, so its client seed's parts are in that order.
    r = await ana.post(f"/api/matches/{new['id']}/resign")
    r = await ben.post(f"/api/matches/{new['id']}/resign")
    record = (await ana.get(f"/api/matches/{new['id']}/record")).json()
    assert record["server_seed"] and fair.verify(fair.parse_record(record)).ok
    in_joining_order = sorted(range(3), key=record["joined"].__getitem__)
    assert [new["seats"][p]["name"] for p in in_joining_order] == [
        s["name"] for s in old["seats"]
    ]


async def test_bots_come_along(make_client) -> None:  # type: ignore[no-untyped-def]
    players = await people(make_client, 2)
    old = await finished_match(players, bots=1, deadline=3600)
    mid = old["id"]
    await players[0][0].post(f"/api/matches/{mid}/rematch", json={})
    offer = (await players[1][0].post(f"/api/matches/{mid}/rematch", json={})).json()["offer"]
    new = (await players[0][0].get(f"/api/matches/{offer['new_match_id']}")).json()
    assert sorted(s["bot"] for s in new["seats"]) == [False, False, True]
    # Started at once, bots and all (a bot drawn to throw first may even have shut the
    # box already: in Classic that ends it).
    assert new["status"] in ("playing", "finished") and new["client_seed"]
    assert new["variant"] == "classic"


async def test_a_declined_offer_can_be_made_again(make_client) -> None:  # type: ignore[no-untyped-def]
    players = await people(make_client, 2)
    (ana, _), (ben, _) = players
    mid = (await finished_match(players))["id"]
    await ana.post(f"/api/matches/{mid}/rematch", json={})
    r = await ben.post(f"/api/matches/{mid}/rematch/decline")
    assert r.json()["offer"]["status"] == "declined" and r.json()["offer"]["declined_by"] == 1
    assert (await ana.post(f"/api/matches/{mid}/rematch/decline")).status_code == 409
    # Ben changes his mind and offers; only Ana's acceptance is now awaited.
    r = await ben.post(f"/api/matches/{mid}/rematch", json={})
    assert r.json()["offer"]["waiting_for"] == [0] and r.json()["offer"]["offered_by"] == 1
    r = await ana.post(f"/api/matches/{mid}/rematch", json={})
    assert r.json()["offer"]["status"] == "started"


async def test_who_may_ask_and_when(make_client) -> None:  # type: ignore[no-untyped-def]
    players = await people(make_client, 2)
    (ana, _), (ben, _) = players
    outsider = (await people(make_client, 1))[0][0]
    # Not before the end.
    state = (
        await ana.post("/api/matches", json={"seats": 2, "bots": 0, "deadline_seconds": 600})
    ).json()
    await ben.post(f"/api/matches/{state['id']}/join", json={})
    r = await ana.post(f"/api/matches/{state['id']}/rematch", json={})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
    mid = (await finished_match(players))["id"]
    # Not by someone who did not play, nor by nobody.
    r = await outsider.post(f"/api/matches/{mid}/rematch", json={})
    assert r.status_code == 403
    assert (
        await (await make_client()).post(f"/api/matches/{mid}/rematch", json={})
    ).status_code == 401
    view = (await outsider.get(f"/api/matches/{mid}/rematch")).json()
    assert view["your_seat"] is None
    # Not against the bot alone: that is a click on "play" away.
    solo = (
        await ana.post("/api/matches", json={"seats": 2, "bots": 1, "deadline_seconds": 600})
    ).json()
    await ana.post(f"/api/matches/{solo['id']}/resign")
    r = await ana.post(f"/api/matches/{solo['id']}/rematch", json={})
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_rematch"
    assert not (await ana.get(f"/api/matches/{solo['id']}/rematch")).json()["possible"]
    # A bad client seed is refused with the usual message.
    r = await ana.post(f"/api/matches/{mid}/rematch", json={"client_seed": "no spaces!"})
    assert r.status_code == 422


@pytest.mark.pg
async def test_accepting_at_once_starts_one_match(make_client) -> None:  # type: ignore[no-untyped-def]
    players = await people(make_client, 3)
    mid = (await finished_match(players))["id"]
    await players[0][0].post(f"/api/matches/{mid}/rematch", json={})
    results = await asyncio.gather(
        *(c.post(f"/api/matches/{mid}/rematch", json={}) for c, _ in players[1:])
    )
    assert all(r.status_code in (200, 409) for r in results)
    views = [(await c.get(f"/api/matches/{mid}/rematch")).json() for c, _ in players]
    new_ids = {v["offer"]["new_match_id"] for v in views}
    assert len(new_ids) == 1 and None not in new_ids
    mine = (await players[0][0].get("/api/my/matches")).json()["matches"]
    assert sum(1 for m in mine if m["status"] == "playing") == 1


async def test_the_others_are_mailed_about_an_offer(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    from datetime import timedelta
    from email import message_from_bytes, policy

    from jackpot.web.base.clock import utcnow
    from jackpot.web.notify.mailer import mail_step
    from jackpot.web.notify.notices import GRACE

    players = await people(make_client, 3)
    (ana, ana_name), (ben, ben_name), (cid, _) = players
    mid = (await finished_match(players, deadline=86400))["id"]
    t0 = utcnow()
    await ana.post(f"/api/matches/{mid}/rematch", json={})
    await cid.post(f"/api/matches/{mid}/rematch", json={})  # Cid accepts within the grace
    assert await mail_step(app.state.db, settings, t0 + GRACE / 2) == 0
    assert await mail_step(app.state.db, settings, t0 + GRACE + timedelta(seconds=5)) == 1
    [path] = sorted(settings.outbox_dir.glob("*.eml"))
    msg = message_from_bytes(path.read_bytes(), policy=policy.default)
    assert msg["To"] == f"{ben_name.lower()}@example.org"  # not Cid, who accepted
    assert msg["Subject"] == f"{ana_name} offers you a rematch of your Classic match"
    assert f"/matches/{mid}" in msg.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    # Ben declines: the offer is closed, and a later offer mails again.
    await ben.post(f"/api/matches/{mid}/rematch/decline")
    t1 = utcnow()
    await cid.post(f"/api/matches/{mid}/rematch", json={})
    assert await mail_step(app.state.db, settings, t1 + timedelta(hours=2)) == 2  # Ana and Ben
    assert len(list(settings.outbox_dir.glob("*.eml"))) == 3
