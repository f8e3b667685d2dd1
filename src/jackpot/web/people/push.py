"""A challenge's push: the challenged player's browsers hear of it, as of their turns.

The push worker (notify/push/sender.py) sends it, with the lease, retries and
browsers of a match's notices; this source only says which challenges are news and
what one says. A challenge is news while it is open, from the moment it is made (no
grace: unlike a throw, nothing on the site answers it by itself) and for a day at
most, as a notice; one answered, withdrawn or expired before the push went sends
nothing. Pushes do not follow the mail setting: who may challenge a player is their
challenge setting, and a browser registered asked for news.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import String, exists, literal, select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.people import challenges
from jackpot.web.base.tables.push import push_sends, push_subscriptions
from jackpot.web.notify.push.messages import About
from jackpot.web.notify.push.sender import TOO_LATE, PushSource

PREFIX = "challenge:"


async def fresh(conn: AsyncConnection, now: datetime, limit: int) -> list[tuple[str, int]]:
    """Open challenges not pushed yet to a player with a browser registered."""
    key = literal(PREFIX, String) + challenges.c.id
    rows = await conn.execute(
        select(key.label("key"), challenges.c.to_id)
        .where(
            challenges.c.status == "open",
            challenges.c.expires_at > now,
            challenges.c.created_at > now - TOO_LATE,
            exists().where(push_subscriptions.c.user_id == challenges.c.to_id),
            ~exists().where(push_sends.c.key == key),
        )
        .order_by(challenges.c.created_at)
        .limit(limit)
    )
    return [(r.key, r.to_id) for r in rows]


async def about(conn: AsyncConnection, key: str, now: datetime) -> About | None:
    """Who challenges, to which game and pace, while the challenge is still open."""
    row = (
        await conn.execute(
            select(
                challenges.c.id,
                challenges.c.status,
                challenges.c.expires_at,
                challenges.c.variant,
                challenges.c.deadline_seconds,
                t.users.c.name,
            )
            .join(t.users, t.users.c.id == challenges.c.from_id)
            .where(challenges.c.id == key.removeprefix(PREFIX))
        )
    ).first()
    if row is None or row.status != "open" or row.expires_at <= now:
        return None
    return About(
        "challenge", row.id, row.variant, [], None, by=row.name, per_throw=row.deadline_seconds
    )


CHALLENGE_PUSHES = PushSource(PREFIX, fresh, about)
