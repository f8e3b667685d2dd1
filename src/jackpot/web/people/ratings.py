"""The rating shown beside a name where people are found: the number, and whether it is provisional.

A player with no rated match yet in the variant shows the rating every newcomer
starts from, provisional, as the profile does once they have played.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.tables.players import player_ratings
from jackpot.web.players.ratings import START_MU, START_SIGMA, display_rating

#: What a player without a rating in the variant shows.
NEWCOMER = {"rating": display_rating(START_MU, START_SIGMA), "provisional": True}


async def ratings_of(
    conn: AsyncConnection, user_ids: Iterable[int], variant: str
) -> dict[int, dict[str, Any]]:
    """Each player's shown rating in ``variant``: ``{"rating", "provisional"}``."""
    ids = sorted(set(user_ids))
    found: dict[int, dict[str, Any]] = {uid: dict(NEWCOMER) for uid in ids}
    if ids:
        rows = await conn.execute(
            select(
                player_ratings.c.user_id, player_ratings.c.rating, player_ratings.c.provisional
            ).where(player_ratings.c.variant == variant, player_ratings.c.user_id.in_(ids))
        )
        for r in rows:
            found[r.user_id] = {"rating": int(r.rating), "provisional": bool(r.provisional)}
    return found
