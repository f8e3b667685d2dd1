"""Who watches a match: the open live connections of readers not seated in it.

Each match's stream (sse.py) and socket (socket_moves.py) opened by someone who has
no seat in the match counts here while it is open, and the match page and the watch
list say how many. Per process, on purpose: the connections are this process's, and
summing them through the bus would need every process to announce its counts and
forget those of a process that died. With several processes behind Redis a match's
readers are spread over them, so the number is the watchers this process serves: a
lower bound, exact with one process (SQLite's default). A reader with two tabs open
counts twice; a player's own connections never count.
"""

from __future__ import annotations

from collections import Counter

from sqlalchemy import exists, select
from starlette.requests import HTTPConnection

from jackpot.web.base import models as t
from jackpot.web.base.db import Database
from jackpot.web.base.identity import Actor


class Watchers:
    """Open connections of non-seated readers, per match, in this process."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    def opened(self, match_id: str) -> None:
        self.counts[match_id] += 1

    def closed(self, match_id: str) -> None:
        self.counts[match_id] -= 1
        if self.counts[match_id] <= 0:
            del self.counts[match_id]

    def count(self, match_id: str) -> int:
        return self.counts.get(match_id, 0)


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
