"""Who watches a match: the open live connections of readers not seated in it.

Each match's stream (sse.py) and socket (socket_moves.py) opened by someone who has
no seat in the match counts here while it is open, and the match page and the watch
list say how many. Each process counts the connections it serves, exactly, in
memory: with one process (SQLite's default) that is the whole count. With several
processes behind Redis a match's readers are spread over them, so each process also
publishes its counts to Redis and a count is the sum over every live process
(base/live/shared_counts.py: a process that dies drops out within
``JACKPOT_WATCHERS_EXPIRY_SECONDS``, and another's new readers show about a
second later). While Redis is out of reach the count falls back to this process's own
readers, a lower bound, rather than failing the page. A reader with two tabs open
counts twice; a player's own connections never count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import redis.asyncio as aioredis
from sqlalchemy import exists, select
from starlette.requests import HTTPConnection

from jackpot.web.base.identity import Actor
from jackpot.web.base.limits import redis_prefix
from jackpot.web.base.live.shared_counts import SharedCounts
from jackpot.web.base.settings import Settings
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables import core as t


class Watchers:
    """Open connections of non-seated readers, per match: this process's in
    ``counts``, every process's through ``shared`` when there is Redis."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.shared: SharedCounts | None = None

    def opened(self, match_id: str) -> None:
        self.counts[match_id] += 1
        if self.shared is not None:
            self.shared.changed()

    def closed(self, match_id: str) -> None:
        self.counts[match_id] -= 1
        if self.counts[match_id] <= 0:
            del self.counts[match_id]
        if self.shared is not None:
            self.shared.changed()

    async def count(self, match_id: str) -> int:
        return (await self.count_all([match_id]))[match_id]

    async def count_all(self, match_ids: Sequence[str]) -> dict[str, int]:
        """Each match's watchers, in one round trip to Redis for them all."""
        if self.shared is None:
            return {m: self.counts.get(m, 0) for m in match_ids}
        return await self.shared.totals(match_ids)

    def start(self) -> None:
        if self.shared is not None:
            self.shared.start()

    async def aclose(self) -> None:
        if self.shared is not None:
            await self.shared.aclose()


def make_watchers(settings: Settings, redis: aioredis.Redis | None) -> Watchers:
    """Counted in this process alone, or summed over every process with Redis (through
    the process's shared client)."""
    watchers = Watchers()
    if redis is not None:
        watchers.shared = SharedCounts(
            redis,
            redis_prefix(settings.database_url) + "watchers:",
            watchers.counts,
            settings.watchers_seconds,
            settings.watchers_expiry_seconds,
        )
    return watchers


def watchers_of(conn: HTTPConnection) -> Watchers:
    watchers: Watchers = conn.app.state.watchers
    return watchers


async def is_seated(db: Database, match_id: str, actor: Actor | None) -> bool:
    """Whether the reader has a seat in the match (one indexed read; none for a
    reader nobody knows)."""
    if actor is None:
        return False
    async with db.read() as conn:
        query = select(
            exists().where(
                t.seats.c.match_id == match_id,
                t.seats.c.user_id == actor.user_id,
                t.seats.c.is_bot.is_(False),
            )
        )
        return bool((await conn.execute(query)).scalar())
