"""The commitment comes first: a server seed handed out before its match, used by one.

``POST /api/commitments`` gives a pending seed's commitment; a match created with it
gets that seed (the creator saw its hash before choosing a client seed), once. An
unknown, used or expired commitment is refused with 409 and creates and uses up
nothing; expired ones are removed by a background step; one address may ask only so
often. A rematch offer fixes its seed when it is made, and joining a match whose time
in the lobby is over says so.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select, update
from test_rematch_api import finished_match, people
from web_helpers import sign_up

from jackpot import fair
from jackpot.web.base.clock import utcnow
from jackpot.web.base.env_values import Rate
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.play import pending_seeds
from jackpot.web.play.commitments import forget_expired
from jackpot.web.play.sweeper import expire_lobby
from jackpot.web.wiring import background_steps

#: Repeated on PostgreSQL (make test): a seed used once.
pytestmark = pytest.mark.pg

HTML = {"accept": "text/html"}


def when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


async def commitment(client: httpx.AsyncClient) -> str:
    r = await client.post("/api/commitments")
    assert r.status_code == 201, r.text
    return str(r.json()["commitment"])


async def count(app: Any, table: Any) -> int:
    async with app.state.db.read() as conn:
        return int((await conn.execute(select(func.count()).select_from(table))).scalar_one())


async def server_seed(app: Any, match_id: str) -> str:
    async with app.state.db.read() as conn:
        seed = await conn.execute(
            select(t.matches.c.server_seed).where(t.matches.c.id == match_id)
        )
        return str(seed.scalar_one())


async def test_a_match_is_made_with_the_seed_its_creator_was_shown(app, client) -> None:  # type: ignore[no-untyped-def]
    before = utcnow()
    r = await client.post("/api/commitments")
    assert r.status_code == 201, r.text
    shown = r.json()
    assert set(shown) == {"commitment", "expires_at"}
    assert len(shown["commitment"]) == 64 and int(shown["commitment"], 16) >= 0
    # Kept a day at most.
    left = when(shown["expires_at"]) - before
    assert timedelta(hours=24, seconds=-1) <= left <= timedelta(hours=24, minutes=1)
    # No account needed, for the commitment nor for the match against the bot.
    made = await client.post(
        "/api/matches",
        json={"seats": 2, "bots": 1, "client_seed": "mine", "commitment": shown["commitment"]},
    )
    assert made.status_code == 201, made.text
    state = made.json()
    assert state["commitment"] == shown["commitment"]
    assert fair.commitment(await server_seed(app, state["id"])) == shown["commitment"]
    assert await count(app, pending_seeds) == 0  # used up


async def test_a_commitment_is_good_for_one_match(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await make_client(), await make_client()
    shown = await commitment(ana)
    body = {"seats": 1, "bots": 0, "commitment": shown}
    assert (await ana.post("/api/matches", json=body)).status_code == 201
    matches = await count(app, t.matches)
    users = await count(app, t.users)
    # Used already: by the same person, or by another who saw it.
    for c in (ana, ben):
        r = await c.post("/api/matches", json=body)
        assert r.status_code == 409, r.text
        assert r.json()["error"]["code"] == "commitment_unknown"
        assert "reload the page" in r.json()["error"]["message"]
    # Never handed out.
    r = await ana.post("/api/matches", json={**body, "commitment": "ab" * 32})
    assert r.status_code == 409 and r.json()["error"]["code"] == "commitment_unknown"
    # Nothing was made: no match, and no guest for the newcomer.
    assert await count(app, t.matches) == matches
    assert await count(app, t.users) == users
    assert "set-cookie" not in r.headers


async def test_a_refused_creation_leaves_its_commitment_unused(app, client) -> None:  # type: ignore[no-untyped-def]
    shown = await commitment(client)
    bad = await client.post(
        "/api/matches", json={"seats": 2, "bots": 1, "client_seed": "no dots.", "commitment": shown}
    )
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_client_seed"
    assert await count(app, pending_seeds) == 1
    good = await client.post("/api/matches", json={"seats": 2, "bots": 1, "commitment": shown})
    assert good.status_code == 201 and good.json()["commitment"] == shown


async def test_a_commitment_must_look_like_one(client) -> None:  # type: ignore[no-untyped-def]
    for wrong in ("AB" * 32, "ab" * 31, "zz" * 32, ""):
        r = await client.post(
            "/api/matches", json={"seats": 1, "bots": 0, "commitment": wrong}
        )
        assert r.status_code == 422, (wrong, r.text)
        assert r.json()["error"]["code"] == "bad_commitment"
    r = await client.post("/api/matches", json={"seats": 1, "bots": 0, "commitment": 7})
    assert r.status_code == 422


async def test_an_expired_commitment_is_refused_and_removed(app, client) -> None:  # type: ignore[no-untyped-def]
    old, fresh = await commitment(client), await commitment(client)
    async with app.state.db.write() as conn:
        await conn.execute(
            update(pending_seeds)
            .where(pending_seeds.c.commitment == old)
            .values(expires_at=utcnow() - timedelta(seconds=1))
        )
    r = await client.post("/api/matches", json={"seats": 1, "bots": 0, "commitment": old})
    assert r.status_code == 409 and r.json()["error"]["code"] == "commitment_unknown"
    assert await count(app, t.matches) == 0
    # The background step removes it, and only it.
    steps = {s.name for s in background_steps(app.state.db, app.state.settings)}
    assert "pending seeds" in steps
    assert await forget_expired(app.state.db) == 1
    assert await forget_expired(app.state.db) == 0
    async with app.state.db.read() as conn:
        left = (await conn.execute(select(pending_seeds.c.commitment))).scalars().all()
    assert left == [fresh]
    # A day on, the fresh one has gone too.
    assert await forget_expired(app.state.db, utcnow() + timedelta(hours=24, seconds=1)) == 1


async def test_programs_still_get_a_seed_made_with_their_match(app, client) -> None:  # type: ignore[no-untyped-def]
    state = (await client.post("/api/matches", json={"seats": 1, "bots": 0})).json()
    assert fair.commitment(await server_seed(app, state["id"])) == state["commitment"]


async def test_one_address_may_ask_only_so_often(app, make_client) -> None:  # type: ignore[no-untyped-def]
    app.state.settings = dataclasses.replace(app.state.settings, commitment_limit=Rate(2, 3600))
    ana, ben = await make_client(), await make_client()
    await commitment(ana)
    await commitment(ana)
    r = await ana.post("/api/commitments")
    assert r.status_code == 429, r.text
    assert r.json()["error"]["code"] == "too_many_attempts"
    assert await count(app, pending_seeds) == 2
    await commitment(ben)  # another address counts apart


async def test_the_forms_take_the_commitment_shown(app, make_client) -> None:  # type: ignore[no-untyped-def]
    guest = await make_client()
    home = (await guest.get("/", headers=HTML)).text
    token = home.split('name="csrf_token" value="')[1].split('"')[0]
    shown = await commitment(guest)
    form = {"csrf_token": token, "variant": "classic", "mode": "bot", "commitment": shown}
    r = await guest.post("/play", data=form)
    assert r.status_code == 303, r.text
    mid = r.headers["location"].rsplit("/", 1)[1]
    assert fair.commitment(await server_seed(app, mid)) == shown
    # The same again: refused in words, and nothing made.
    matches = await count(app, t.matches)
    r = await guest.post("/play", data=form, headers=HTML)
    assert r.status_code == 409
    assert "reload the page" in r.text
    assert await count(app, t.matches) == matches
    # The new-match form, for an account.
    ana = await make_client()
    await sign_up(ana, "Formsy")
    page = (await ana.get("/matches/new", headers=HTML)).text
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    shown = await commitment(ana)
    form = {"csrf_token": token, "seats": "2", "bots": "1", "commitment": shown}
    r = await ana.post("/matches/new", data=form)
    assert r.status_code == 303, r.text
    mid = r.headers["location"].rsplit("/", 1)[1]
    assert fair.commitment(await server_seed(app, mid)) == shown
    r = await ana.post("/matches/new", data=form, headers=HTML)
    assert r.status_code == 409 and "reload the page" in r.text
    assert await count(app, t.matches) == matches + 1


async def test_a_rematch_offer_fixes_its_seed_before_anyone_accepts(app, make_client) -> None:  # type: ignore[no-untyped-def]
    players = await people(make_client, 2)
    state = await finished_match(players)
    (ana, _), (ben, _) = players
    url = f"/api/matches/{state['id']}/rematch"
    shown = await commitment(ana)
    offer = (await ana.post(url, json={"client_seed": "ana1", "commitment": shown})).json()
    assert offer["offer"]["commitment"] == shown
    # Ben sees it before he sends his seed; a seed he did not see is refused.
    seen = (await ben.get(url)).json()
    assert seen["offer"]["commitment"] == shown
    other = await commitment(ben)
    r = await ben.post(url, json={"client_seed": "ben1", "commitment": other})
    assert r.status_code == 409 and r.json()["error"]["code"] == "commitment_unknown"
    done = (await ben.post(url, json={"client_seed": "ben1", "commitment": shown})).json()
    assert done["offer"]["status"] == "started"
    new = (await ben.get(f"/api/matches/{done['offer']['new_match_id']}")).json()
    assert new["commitment"] == shown
    assert fair.commitment(await server_seed(app, new["id"])) == shown
    assert new["client_seed"] == "ana1.ben1"


async def test_an_offer_without_a_commitment_makes_its_seed_at_once(app, make_client) -> None:  # type: ignore[no-untyped-def]
    players = await people(make_client, 2)
    state = await finished_match(players)
    (ana, _), (ben, _) = players
    url = f"/api/matches/{state['id']}/rematch"
    fixed = (await ana.post(url, json={})).json()["offer"]["commitment"]
    assert len(fixed) == 64
    # Declined and offered again: a new seed, and the old one is forgotten.
    await ben.post(url + "/decline")
    assert (await ben.get(url)).json()["offer"]["commitment"] is None
    again = (await ben.post(url, json={})).json()["offer"]["commitment"]
    assert again != fixed
    done = (await ana.post(url, json={"commitment": again})).json()
    new = (await ana.get(f"/api/matches/{done['offer']['new_match_id']}")).json()
    assert new["commitment"] == again


async def test_joining_an_expired_match_says_it_expired(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Expiring")
    await sign_up(ben, "Latecomer")
    body = {"seats": 2, "bots": 0, "expiry_seconds": 3600}
    mid = (await ana.post("/api/matches", json=body)).json()["id"]
    async with app.state.db.write() as conn:
        await conn.execute(
            update(t.matches)
            .where(t.matches.c.id == mid)
            .values(expires_at=utcnow() - timedelta(seconds=1))
        )
    # Before the sweeper calls it off, and after.
    for sweep in (False, True):
        if sweep:
            assert await expire_lobby(app.state.db) == 1
        r = await ben.post(f"/api/matches/{mid}/join", json={})
        assert r.status_code == 409, r.text
        assert r.json()["error"]["code"] == "match_expired"
        assert "expired" in r.json()["error"]["message"]
    # Called off by its creator: said so, not "started".
    mid = (await ana.post("/api/matches", json=body)).json()["id"]
    assert (await ana.post(f"/api/matches/{mid}/resign")).status_code == 200
    r = await ben.post(f"/api/matches/{mid}/join", json={})
    assert r.status_code == 409 and r.json()["error"]["code"] == "match_cancelled"
