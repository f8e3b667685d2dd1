"""The move service: a throw or a cover, the same for every entry point.

The routes (api.py), the fast lane (fast_moves.py) and the match's WebSocket
(socket_moves.py) all read a move into the same bodies and call ``commit_move``:
worked out from the match this process kept where it can be (actions.prepare),
then played in a transaction shared with the moves that arrived in the same loop
tick (base/storage/group_commit.py), its events published once that transaction commits.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.edge.field_rules import one_of
from jackpot.web.base.edge.http import db_of, require_actor
from jackpot.web.base.identity import Actor
from jackpot.web.base.storage.db import Database
from jackpot.web.matches.views import public_state
from jackpot.web.play import actions
from jackpot.web.play.outcome import Outcome

#: A field a request does not take is refused (422), not silently dropped: a client
#: that misspells "expiry_seconds" should hear of it.
STRICT = ConfigDict(extra="forbid")


class ThrowBody(BaseModel):
    model_config = STRICT
    dice: int | None = Field(
        None,
        description="1 or 2 (one die only in Classic with 7-9 down)",
        strict=True,
        json_schema_extra=one_of(1, 2, nullable=True),
    )


class CoverBody(BaseModel):
    model_config = STRICT
    tiles: list[StrictInt] = Field(
        json_schema_extra={
            "minItems": 1,
            "maxItems": 4,
            "uniqueItems": True,
            "items": {"type": "integer", "minimum": 1, "maximum": 9},
        }
    )


async def commit_move(
    db: Database, actor: Actor, match_id: str, body: ThrowBody | CoverBody | None
) -> Outcome:
    """A throw (``ThrowBody`` or none) or a cover (``CoverBody``) in a group-committed
    transaction; the rows it wrote, to answer from, once it committed (its events
    are on the bus by then)."""
    if isinstance(body, CoverBody):
        step = actions.cover_step(actor, body.tiles)
    else:
        step = actions.throw_step(actor, body.dice if body else None)
    prepared = actions.prepare(db, actor, match_id, step)

    async def action(conn: AsyncConnection) -> Outcome:
        return await actions.play(conn, actor, match_id, step, prepared)

    out = await db.moves.run(action)
    if out.refusal is not None:
        raise out.refusal
    assert out.row is not None and out.seat_rows is not None
    return out


async def play_move(
    db: Database, actor: Actor, match_id: str, body: ThrowBody | CoverBody | None
) -> dict[str, Any]:
    """``commit_move``, answered with the state after it as the mover sees it (from
    the rows the move wrote, not read back)."""
    out = await commit_move(db, actor, match_id, body)
    assert out.row is not None and out.seat_rows is not None
    return public_state(out.row, out.seat_rows, actor.user_id, out.match)


async def move(
    request: Request, match_id: str, body: ThrowBody | CoverBody | None
) -> dict[str, Any]:
    """A move sent over HTTP, by the routes or the fast lane: the caller must be
    signed in and on this site."""
    actor = await require_actor(request)
    return await play_move(db_of(request), actor, match_id, body)
