"""Registering browsers for pushes at the same moment: the per-account cap holds, and
one browser registered by two accounts at once is one row, never a 500.

The first registration's transaction is held open until the second has finished or
a second has passed: on PostgreSQL the second would otherwise read the rows as they
were before the first (SQLite's single writer has them in turn anyway).
"""

from __future__ import annotations

import pytest
from sqlalchemy import select
from test_notify import player
from web_helpers import Work, together

from jackpot.web.base.clock import utcnow
from jackpot.web.base.errors import ApiError
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables.push import push_subscriptions as subs
from jackpot.web.notify.push import store

#: Repeated on PostgreSQL (make test): races.
pytestmark = pytest.mark.pg


def add(user_id: int, endpoint: str, cap: int = 3) -> Work:
    return lambda conn: store.add(conn, user_id, endpoint, "key", "auth", "en", cap, utcnow())


async def rows(db: Database) -> list[tuple[int, str]]:
    async with db.read() as conn:
        found = await conn.execute(select(subs.c.user_id, subs.c.endpoint).order_by(subs.c.id))
        return [(r.user_id, r.endpoint) for r in found]


async def test_one_browser_registered_by_two_accounts_at_once(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await player(make_client), await player(make_client)
    db = app.state.db
    endpoint = "https://push.example.org/one"
    first, second = await together(db, add(ana.id, endpoint), add(ben.id, endpoint))
    assert first == second and isinstance(first, int)
    assert await rows(db) == [(ben.id, endpoint)]


async def test_the_browser_cap_holds_at_once(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana = await player(make_client)
    db = app.state.db
    one, two = "https://push.example.org/a", "https://push.example.org/b"
    both = await together(db, add(ana.id, one, 1), add(ana.id, two, 1))
    assert isinstance(both[1], ApiError) and both[1].code == "too_many_browsers"
    assert await rows(db) == [(ana.id, one)]


async def test_a_browser_taken_from_another_account_counts_for_the_cap(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await player(make_client), await player(make_client)
    db = app.state.db
    async with db.write() as conn:
        await add(ana.id, "https://push.example.org/a", 1)(conn)
        await add(ben.id, "https://push.example.org/b", 1)(conn)
    try:
        async with db.write() as conn:
            await add(ana.id, "https://push.example.org/b", 1)(conn)
    except ApiError as exc:
        assert exc.code == "too_many_browsers"
    else:
        raise AssertionError("a second browser past the cap of one")
    assert await rows(db) == [
        (ana.id, "https://push.example.org/a"), (ben.id, "https://push.example.org/b")
    ]
