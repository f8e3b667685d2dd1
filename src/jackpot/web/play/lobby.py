"""The live lobby's ping: the bus is told when the open matches may have changed.

The lobby lists public matches waiting for players (matches/listing.py). When an
action creates a public match, takes or leaves a seat of one, starts it or calls it
off, it queues one ping on the bus's ``lobby`` channel (:func:`ping_lobby`; match
ids start with ``m_``, so the name is free), sent once its transaction commits. Every open
lobby stream (``GET /api/lobby/events``) passes pings on as SSE frames, and the page
fetches its list again (static/lobby.js). A ping carries nothing: the list comes
from the database, so a ping lost (a dropped subscriber, a Redis hiccup) costs only
freshness until the next one, and a page fetches the list each time its stream
(re)connects, so nothing that happened while it was away stays unseen.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.storage.db import publish_on_commit

#: The bus channel of lobby pings.
LOBBY = "lobby"


def ping_lobby(conn: AsyncConnection) -> None:
    """Tell the lobby's pages to look again, once this transaction commits."""
    publish_on_commit(conn, LOBBY, [{"type": "lobby"}])
