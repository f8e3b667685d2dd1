"""Two requests of one account at once: the caps and the one-of-a-kind rules of
finding people, and the cap on matches, hold, and neither request fails with a 500.

Each test holds the first request's transaction open until the second has finished
or a second has passed. On SQLite the single writer has them in turn anyway; on
PostgreSQL the second would otherwise read the rows as they were before the first
(not committed yet) and pass every check the first one made.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncConnection
from web_helpers import Work, sign_up, together

from jackpot.web.accounts.blocks import block, set_challenges
from jackpot.web.base.clock import utcnow
from jackpot.web.base.errors import ApiError
from jackpot.web.base.identity import Actor
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.accounts import blocks, people_prefs
from jackpot.web.base.tables.people import challenges, seeks
from jackpot.web.people import challenges as challenging
from jackpot.web.people import seeks as seeking
from jackpot.web.play.seating import create_match

#: Repeated on PostgreSQL (make test): races and quotas.
pytestmark = pytest.mark.pg


async def accounts(make_client, *names: str) -> list[Actor]:  # type: ignore[no-untyped-def]
    return [
        Actor((await sign_up(await make_client(), name))["id"], name, False) for name in names
    ]


async def count(db: Database, table: Any, *where: Any) -> int:
    async with db.read() as conn:
        rows = await conn.execute(select(func.count()).select_from(table).where(*where))
        return int(rows.scalar_one())


async def test_one_block_twice_at_once(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, _ben = await accounts(make_client, "Ana", "Ben")
    db, cap = app.state.db, app.state.settings.blocks_per_account
    both = await together(
        db,
        lambda conn: block(conn, ana.user_id, "Ben", utcnow(), cap),
        lambda conn: block(conn, ana.user_id, "Ben", utcnow(), cap),
    )
    assert both == ["Ben", "Ben"]
    assert await count(db, blocks, blocks.c.blocker_id == ana.user_id) == 1


async def test_the_block_cap_holds_at_once(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, *_ = await accounts(make_client, "Ana", "Ben", "Cal")
    db = app.state.db
    both = await together(
        db,
        lambda conn: block(conn, ana.user_id, "Ben", utcnow(), 1),
        lambda conn: block(conn, ana.user_id, "Cal", utcnow(), 1),
    )
    assert both[0] == "Ben"
    assert isinstance(both[1], ApiError) and both[1].code == "too_many_blocks"
    assert await count(db, blocks, blocks.c.blocker_id == ana.user_id) == 1


async def test_the_challenge_setting_twice_at_once(app, make_client) -> None:  # type: ignore[no-untyped-def]
    [ana] = await accounts(make_client, "Ana")
    db = app.state.db
    both = await together(
        db,
        lambda conn: set_challenges(conn, ana.user_id, False),
        lambda conn: set_challenges(conn, ana.user_id, True),
    )
    assert both == [None, None]
    assert await count(db, people_prefs, people_prefs.c.user_id == ana.user_id) == 1


async def test_the_seek_cap_holds_at_once(app, make_client) -> None:  # type: ignore[no-untyped-def]
    [ana] = await accounts(make_client, "Ana")
    db = app.state.db
    settings = dataclasses.replace(app.state.settings, seeks_per_account=1)

    def seek(seconds: int) -> Work:
        return lambda conn: seeking.create(
            conn, ana, settings, variant="jackpot", deadline_seconds=seconds, seats=2,
            now=utcnow(),
        )

    both = await together(db, seek(600), seek(601))
    assert both[0]["status"] == "waiting"
    assert isinstance(both[1], ApiError) and both[1].code == "too_many_seeks"
    assert await count(db, seeks, seeks.c.user_id == ana.user_id) == 1


async def test_the_challenge_caps_hold_at_once(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, *_ = await accounts(make_client, "Ana", "Ben", "Cal")
    db = app.state.db
    settings = dataclasses.replace(app.state.settings, challenges_open=1)

    def challenge(to: str) -> Work:
        return lambda conn: challenging.create(
            conn, ana, settings, to=to, variant="jackpot", deadline_seconds=86400,
            now=utcnow(),
        )

    # The same player twice: one challenge, the other request told it is open.
    both = await together(db, challenge("Ben"), challenge("Ben"))
    assert isinstance(both[1], ApiError) and both[1].code == "already_challenged"
    # Two players past the cap of open challenges.
    async with db.write() as conn:
        await challenging.withdraw(conn, ana, both[0], utcnow())
    both = await together(db, challenge("Ben"), challenge("Cal"))
    assert isinstance(both[1], ApiError) and both[1].code == "too_many_challenges"
    assert await count(db, challenges, challenges.c.status == "open") == 1


async def test_the_match_cap_holds_for_two_new_matches_at_once(app, make_client) -> None:  # type: ignore[no-untyped-def]
    [ana] = await accounts(make_client, "Ana")
    db = app.state.db

    def new_bot_match(conn: AsyncConnection) -> Awaitable[Any]:
        return create_match(
            conn, ana, variant="jackpot", seats=2, bots_count=1, deadline_seconds=86400,
            client_seed=None, private=True, min_deadline=60, max_active=1,
        )

    both = await together(db, new_bot_match, new_bot_match)
    assert isinstance(both[1], ApiError) and both[1].code == "too_many_matches", both
    assert await count(db, t.seats, t.seats.c.user_id == ana.user_id) == 1
