"""Guest matches are kept a week after the guest was last seen, then forgotten."""

from __future__ import annotations

from datetime import timedelta

import httpx
from sqlalchemy import func, select

from jackpot.web.base.clock import utcnow
from jackpot.web.base.tables import core as t
from jackpot.web.play.sweeper import forget_old_guests


async def count(app, table) -> int:  # type: ignore[no-untyped-def]
    async with app.state.db.read() as conn:
        return int((await conn.execute(select(func.count()).select_from(table))).scalar_one())


async def test_old_guests_and_their_matches_are_forgotten(app, make_client) -> None:  # type: ignore[no-untyped-def]
    guest: httpx.AsyncClient = await make_client()
    await guest.post("/api/matches", json={"seats": 2, "bots": 1})
    assert await count(app, t.matches) == 1
    await forget_old_guests(app.state.db, 7, utcnow() + timedelta(days=6))
    assert await count(app, t.matches) == 1  # six days: still kept
    await forget_old_guests(app.state.db, 7, utcnow() + timedelta(days=8))
    assert await count(app, t.matches) == 0
    assert await count(app, t.users) == 0
    assert await count(app, t.match_events) == 0


async def test_a_guest_who_signed_up_is_kept(app, make_client) -> None:  # type: ignore[no-untyped-def]
    c: httpx.AsyncClient = await make_client()
    await c.post("/api/matches", json={"seats": 2, "bots": 1})
    await c.post(
        "/api/account", json={"email": "a@example.org", "password": "long enough pw", "name": "Ana"}
    )
    await forget_old_guests(app.state.db, 7, utcnow() + timedelta(days=30))
    assert await count(app, t.matches) == 1
