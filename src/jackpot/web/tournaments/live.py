"""A tournament's page, live: a ping on its channel whenever its standings or tables may change.

An entry, a withdrawal, a round paired, a table ended, the finish: each queues one
ping on ``tournament:<id>`` (and on ``tournaments``, which the list follows), sent
once its transaction commits. The page fetches its live section again on each
(static/live-section.js); a ping carries nothing, so one lost costs only freshness.
"""

from __future__ import annotations

from fastapi import Request
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.edge.ping_stream import ping_stream
from jackpot.web.base.live.stream_caps import CappedStream
from jackpot.web.base.storage.db import publish_on_commit

#: The channel of the list of tournaments.
TOURNAMENTS = "tournaments"


def tournament_channel(tournament_id: str) -> str:
    return f"tournament:{tournament_id}"


def ping_tournament(conn: AsyncConnection, tournament_id: str) -> None:
    """Tell the tournament's page, and the list, to look again once this commits."""
    publish_on_commit(conn, tournament_channel(tournament_id), [{"type": "tournament"}])
    publish_on_commit(conn, TOURNAMENTS, [{"type": "tournament"}])


async def tournament_stream(request: Request, tournament_id: str) -> CappedStream:
    """One ``tournament`` frame per burst of changes (base/edge/ping_stream.py)."""
    return await ping_stream(request, tournament_channel(tournament_id), "tournament")
