"""The kinds of match people wait in, as one reader sees them: which of them are their own."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.identity import Actor
from jackpot.web.people import seeks


def with_yours(kinds: list[dict[str, Any]], mine: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each kind with ``"yours"``: whether the reader waits in it. A person is never
    paired with their own seek, so a page offers no "Play this" there and says that
    they are waiting instead."""
    own = {(s["variant"], s["deadline_seconds"], s["seats"], s["spares"]) for s in mine}
    return [
        {**k, "yours": (k["variant"], k["deadline_seconds"], k["seats"], k["spares"]) in own}
        for k in kinds
    ]


async def waiting_kinds(
    conn: AsyncConnection, actor: Actor | None, now: datetime
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The open kinds, marked for ``actor`` and without the seeks of those the actor
    blocked or was blocked by, and the actor's own waiting seeks (none for a guest or
    nobody)."""
    mine = (
        await seeks.my_open_seeks(conn, actor.user_id, now)
        if actor is not None and not actor.is_guest
        else []
    )
    viewer = actor.user_id if actor is not None and not actor.is_guest else None
    return with_yours(await seeks.open_seeks(conn, now, viewer), mine), mine
