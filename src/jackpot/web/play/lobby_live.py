"""The live lobby: a ping on the bus when the open matches may have changed, and its stream.

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

from collections.abc import AsyncIterator

from fastapi import Request
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.bus import bursts, is_closed
from jackpot.web.base.client import client_bucket
from jackpot.web.base.db import publish_on_commit
from jackpot.web.base.http import bus_of, settings_of
from jackpot.web.base.stream_caps import CappedStream, StreamCaps

#: The bus channel of lobby pings.
LOBBY = "lobby"


def ping_lobby(conn: AsyncConnection) -> None:
    """Tell the lobby's pages to look again, once this transaction commits."""
    publish_on_commit(conn, LOBBY, [{"type": "lobby"}])


async def lobby_stream(request: Request) -> CappedStream:
    """One ``lobby`` frame per burst of changes; a comment line keeps it open. It
    counts among the caller's open streams, as a match's does (base/stream_caps.py)."""
    keepalive = settings_of(request).sse_keepalive
    caps: StreamCaps = request.app.state.stream_caps
    address = client_bucket(request)
    caps.acquire(address)
    sub = bus_of(request).subscribe(LOBBY)

    async def gen() -> AsyncIterator[str]:
        try:
            yield "retry: 2000\n\n"
            async for burst in bursts(sub.queue, keepalive):  # a burst of pings: one fetch
                if burst is None:
                    yield ": keep-alive\n\n"
                elif any(is_closed(ev) for ev in burst):
                    return
                else:
                    yield "event: lobby\ndata: {}\n\n"
        finally:
            sub.close()

    def ended() -> None:
        sub.close()  # also when the stream ended before its first frame
        caps.release(address)

    return CappedStream.events(ended, gen())
