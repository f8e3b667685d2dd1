"""Who a credential belongs to, cached: how long, and which changes clear it.

The cross-process side (a log-out announced over Redis) is in
tests/multi/test_socket.py.
"""

from __future__ import annotations

from typing import Any

import httpx
from web_helpers import sign_up

from jackpot.web.accounts import changes
from jackpot.web.base.identity import ActorCache, share_changes
from jackpot.web.base.live.bus import EventBus


def test_entries_live_long_only_where_every_change_is_heard() -> None:
    alone, crowded = ActorCache(), ActorCache()
    share_changes(alone, EventBus(), alone=True, seconds=30)
    # Several workers without Redis: another's log-out is heard by nobody here.
    share_changes(crowded, EventBus(), alone=False, seconds=30)
    assert (alone.ttl, crowded.ttl) == (30, ActorCache.TTL)
    assert alone.announce is None  # nobody else to tell


async def test_what_changes_who_you_are_clears_the_cache_and_nothing_else_does(
    app: Any, client: httpx.AsyncClient
) -> None:
    db = app.state.db
    # One process (the test app): entries kept for the configured while.
    assert db.actors.ttl == app.state.settings.credential_cache_seconds
    user_id = (await sign_up(client, "Ann"))["id"]
    me = await client.get("/api/account")
    assert me.status_code == 200
    generation = db.actors.generation
    async with db.write() as conn:
        await changes.set_locale(conn, user_id, "pt")
        await changes.set_leaderboard(conn, user_id, True)
        await changes.set_autoplay(conn, user_id, True, True)
    # Logging in again writes "last seen": nobody else's entry need go.
    again = await client.post(
        "/api/session", json={"email": "ann@example.org", "password": "correct horse battery"}
    )
    assert again.status_code == 200, again.text
    assert db.actors.generation == generation
    async with db.write() as conn:
        await changes.rename(conn, user_id, "Annie")
    assert db.actors.generation > generation
    assert (await client.get("/api/account")).json()["name"] == "Annie"
