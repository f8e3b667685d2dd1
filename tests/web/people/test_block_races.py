"""Two players blocking each other at once, with challenges open both ways: both
blocks hold and every challenge between them ends, and neither request fails.

On PostgreSQL each block closes the open challenges between the two; taken in
opposite orders by the two requests, their row locks deadlocked (a 500 for one).
"""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select
from web_helpers import sign_up

from jackpot.web.base.tables.accounts import blocks
from jackpot.web.base.tables.people import challenges

ROUNDS = 8


async def test_two_players_block_each_other_at_once(app, make_client) -> None:  # type: ignore[no-untyped-def]
    db = app.state.db
    for i in range(ROUNDS):
        ana, ben = await make_client(), await make_client()
        a_name, b_name = f"Ana{i}", f"Ben{i}"
        await sign_up(ana, a_name)
        await sign_up(ben, b_name)
        # Several open challenges each way: more rows to lock, in both directions.
        for client, to in ((ana, b_name), (ben, a_name)):
            for seconds in (86400, 3600):
                made = await client.post(
                    "/api/challenges",
                    json={"to": to, "variant": "jackpot", "deadline_seconds": seconds},
                )
                assert made.status_code in (201, 409), made.text
        both = await asyncio.gather(
            ana.put(f"/api/blocks/{b_name}"), ben.put(f"/api/blocks/{a_name}")
        )
        assert [r.status_code for r in both] == [200, 200], [r.text for r in both]
        async with db.read() as conn:
            made_blocks = (
                await conn.execute(select(func.count()).select_from(blocks))
            ).scalar_one()
            still_open = (
                await conn.execute(
                    select(func.count())
                    .select_from(challenges)
                    .where(challenges.c.status == "open")
                )
            ).scalar_one()
        assert made_blocks == 2 * (i + 1)
        assert still_open == 0
