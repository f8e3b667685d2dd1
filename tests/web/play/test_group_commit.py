"""Group commit (group_commit.py): moves arriving together share one transaction,
a clean refusal leaves the others alone, a failure after writing rolls the batch
back and each move runs again alone."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncConnection
from web_helpers import sign_up

from jackpot.web.base.errors import ApiError, conflict
from jackpot.web.base.identity import Actor
from jackpot.web.base.storage.group_commit import WROTE
from jackpot.web.base.tables import core as t
from jackpot.web.play import actions
from jackpot.web.play.moves import CoverBody, ThrowBody, play_move

#: Repeated on PostgreSQL (make test): group commit.
pytestmark = pytest.mark.pg


async def _bot_matches(client: httpx.AsyncClient, n: int) -> tuple[Actor, list[str]]:
    me = await sign_up(client, "Grace")
    ids = []
    for _ in range(n):
        r = await client.post("/api/matches", json={"seats": 2, "bots": 1})
        assert r.status_code == 201, r.text
        ids.append(r.json()["id"])
    return Actor(me["id"], me["name"], False), ids


def _count_transactions(db: Any) -> list[int]:
    calls = [0]
    real = db.moves._write

    def counted() -> Any:
        calls[0] += 1
        return real()

    db.moves._write = counted
    return calls


async def test_moves_of_one_tick_share_a_transaction(app: Any, client: httpx.AsyncClient) -> None:
    db = app.state.db
    actor, ids = await _bot_matches(client, 3)
    calls = _count_transactions(db)
    answers = await asyncio.gather(
        *(play_move(db, actor, mid, ThrowBody()) for mid in ids),
        play_move(db, actor, ids[0], CoverBody(tiles=[1, 1])),  # refused before writing
        return_exceptions=True,
    )
    assert calls == [1]
    for mid, state in zip(ids, answers[:3], strict=True):
        assert isinstance(state, dict), state
        assert state == (await client.get(f"/api/matches/{mid}")).json()
    refused = answers[3]
    assert isinstance(refused, ApiError) and refused.code == "not_on_offer"


async def test_a_failure_after_writing_reruns_each_move_alone(
    app: Any, client: httpx.AsyncClient
) -> None:
    db = app.state.db
    actor, ids = await _bot_matches(client, 2)
    calls = _count_transactions(db)
    before = (await client.get(f"/api/matches/{ids[0]}")).json()["seq"]

    async def writes_then_refuses(conn: AsyncConnection) -> None:
        await conn.execute(insert(t.match_events).values(match_id=ids[1], seq=999, data="{}"))
        conn.sync_connection.info[WROTE] = True  # type: ignore[union-attr]
        raise conflict("changed meanwhile", "retry")

    async def throw(conn: AsyncConnection) -> Any:
        return await actions.play(
            conn, actor, ids[0], actions.throw_step(actor, None), None
        )

    done = await asyncio.gather(
        db.moves.run(throw), db.moves.run(writes_then_refuses), return_exceptions=True
    )
    assert calls == [3]  # the batch, rolled back; then each alone
    assert not isinstance(done[0], BaseException) and done[0].events
    assert isinstance(done[1], ApiError) and done[1].code == "retry"
    assert (await client.get(f"/api/matches/{ids[0]}")).json()["seq"] > before
    async with db.read() as conn:
        kept = (await conn.execute(
            select(t.match_events.c.seq).where(t.match_events.c.seq == 999)
        )).all()
    assert kept == []
