"""Issue 11 item 8: caps on matches in progress and on guests per address; the
sweeper forgets guests that never played.

Each was unbounded: one guest made 300 bot matches in a second, 300 requests
without a cookie made 300 guests.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from jackpot.web.accounts.credentials import create_guest
from jackpot.web.app import create_app
from jackpot.web.base.clock import utcnow
from jackpot.web.base.tables import core as t
from jackpot.web.play.sweeper import forget_old_guests
from web.web_helpers import sign_up

#: Repeated on PostgreSQL (make test): quotas.
pytestmark = pytest.mark.pg

BOT = {"seats": 2, "bots": 1, "deadline_seconds": 60}


async def count(app: Any, table: Any) -> int:
    async with app.state.db.read() as conn:
        return int((await conn.execute(select(func.count()).select_from(table))).scalar_one())


def error_code(r: httpx.Response, status: int) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    return str(r.json()["error"]["code"])


@pytest.fixture
async def small_app(settings: Any) -> AsyncIterator[Any]:
    """Caps lowered so a test reaches them in a few requests."""
    application = create_app(
        dataclasses.replace(
            settings, account_active_matches=3, guest_active_matches=2, guests_per_address_hour=4
        )
    )
    async with application.router.lifespan_context(application):
        yield application


def client_at(app: Any, address: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app, client=(address, 1234)),
        base_url="http://testserver",
    )


async def test_a_guest_has_at_most_five_matches_in_progress(client: httpx.AsyncClient) -> None:
    ids = []
    for _ in range(5):
        r = await client.post("/api/matches", json=BOT)
        assert r.status_code == 201, r.text
        ids.append(r.json()["id"])
    assert error_code(await client.post("/api/matches", json=BOT), 429) == "too_many_matches"
    # Finishing one frees a place.
    assert (await client.post(f"/api/matches/{ids[0]}/resign")).status_code == 200
    assert (await client.post("/api/matches", json=BOT)).status_code == 201


async def test_an_account_is_capped_when_creating_and_joining(small_app: Any) -> None:
    async with client_at(small_app, "10.1.0.1") as ana, client_at(small_app, "10.1.0.2") as ben:
        await sign_up(ana, "Ana")
        await sign_up(ben, "Ben")
        people = {"seats": 2, "bots": 0, "deadline_seconds": 60}
        for _ in range(3):
            assert (await ana.post("/api/matches", json=people)).status_code == 201
        assert error_code(await ana.post("/api/matches", json=people), 429) == "too_many_matches"
        # Ben fills his own three places, then may not join Ana's.
        for _ in range(3):
            assert (await ben.post("/api/matches", json=BOT)).status_code == 201
        lobby = (await ben.get("/api/matches")).json()["matches"]
        r = await ben.post(f"/api/matches/{lobby[0]['id']}/join", json={})
        assert error_code(r, 429) == "too_many_matches"


async def test_guests_per_address_are_capped(small_app: Any) -> None:
    async with client_at(small_app, "10.2.0.1") as c:
        for _ in range(4):
            c.cookies.clear()  # a request without a cookie makes a new guest
            assert (await c.post("/api/matches", json=BOT)).status_code == 201
        c.cookies.clear()
        assert error_code(await c.post("/api/matches", json=BOT), 429) == "too_many_guests"
        c.cookies.clear()
        r = await c.get("/")
        token = re.search(r'name="csrf_token" value="([^"]+)"', r.text)
        assert token is not None
        r = await c.post(
            "/play", data={"csrf_token": token.group(1)}, headers={"accept": "text/html"}
        )
        assert r.status_code == 429 and "<html" in r.text.lower()
    assert await count(small_app, t.users) == 4
    async with client_at(small_app, "10.2.0.2") as other:  # another address is not affected
        assert (await other.post("/api/matches", json=BOT)).status_code == 201


async def test_a_match_that_cannot_be_made_leaves_no_guest(app: Any, client: Any) -> None:
    for body in ({"variant": "poker"}, {"seats": 2, "bots": 0}, {"deadline_seconds": 0}):
        client.cookies.clear()
        r = await client.post("/api/matches", json=body)
        assert r.status_code in (403, 422), r.text
        assert "jackpot_session" not in r.headers.get("set-cookie", "")
    assert await count(app, t.users) == 0


async def test_the_sweeper_forgets_guests_that_never_played(app: Any, client: Any) -> None:
    async with app.state.db.write() as conn:
        await create_guest(conn)
    assert (await client.post("/api/matches", json=BOT)).status_code == 201  # a second guest
    assert await count(app, t.users) == 2
    await forget_old_guests(app.state.db, 7, utcnow() + timedelta(hours=23), unused_hours=24)
    assert await count(app, t.users) == 2
    await forget_old_guests(app.state.db, 7, utcnow() + timedelta(hours=25), unused_hours=24)
    assert await count(app, t.users) == 1  # the one with a match is kept its week
    assert await count(app, t.credentials) == 1
    # After its retention the guest goes, with its unfinished match.
    await forget_old_guests(app.state.db, 7, utcnow() + timedelta(days=8), unused_hours=24)
    assert await count(app, t.users) == 0
    assert await count(app, t.matches) == 0
