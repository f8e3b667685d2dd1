"""A player's tournaments for their profile: each one's name, where it stands, and their place.

Read here, below the tournaments feature (which writes these tables), so that the
profile in players/ lists them without importing a feature above play/.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.tables.tournaments import tournament_entries, tournaments

#: Tournaments a profile lists, the latest entered first.
SHOWN = 20


async def player_tournaments(
    conn: AsyncConnection, user_id: int, viewer_id: int | None
) -> list[dict[str, Any]]:
    """The player's latest tournaments: by invitation ones only to the player."""
    e, t = tournament_entries, tournaments
    query = (
        select(t.c.id, t.c.name, t.c.status, t.c.entered, e.c.place, e.c.withdrawn_round)
        .join(t, t.c.id == e.c.tournament_id)
        .where(e.c.user_id == user_id)
        .order_by(e.c.entered_at.desc(), t.c.id)
        .limit(SHOWN)
    )
    if viewer_id != user_id:
        query = query.where(t.c.private.is_(False))
    return [
        {
            "id": r.id,
            "name": r.name,
            "status": r.status,
            "place": r.place,
            "entered": r.entered,
            "withdrawn": r.withdrawn_round is not None,
        }
        for r in await conn.execute(query)
    ]
