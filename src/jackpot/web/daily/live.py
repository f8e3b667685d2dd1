"""The daily pages, live: a stream of pings whenever a board may have changed.

An entry made, an entry ended, a day closed: each queues one ping on the bus's
``daily`` channel (deals.ping_daily), sent once its transaction commits. Every open
stream (``GET /api/daily/events``) passes a burst of pings on as one SSE frame and
the page fetches its boards again (static/daily.js), as the lobby does: a ping
carries nothing, so one lost costs only freshness until the next, and the page
fetches again each time its stream (re)connects.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from fastapi import Request

from jackpot.web.base.bus import bursts, is_closed
from jackpot.web.base.client import client_bucket
from jackpot.web.base.http import bus_of, settings_of
from jackpot.web.base.stream_caps import CappedStream, StreamCaps
from jackpot.web.daily.deals import DAILY


async def daily_stream(request: Request) -> CappedStream:
    """One ``daily`` frame per burst of changes; a comment line keeps it open. It
    counts among the caller's open streams (base/stream_caps.py)."""
    keepalive = settings_of(request).sse_keepalive
    caps: StreamCaps = request.app.state.stream_caps
    address = client_bucket(request)
    caps.acquire(address)
    sub = bus_of(request).subscribe(DAILY)

    async def gen() -> AsyncIterator[str]:
        try:
            yield "retry: 2000\n\n"
            async for burst in bursts(sub.queue, keepalive):
                if burst is None:
                    yield ": keep-alive\n\n"
                elif any(is_closed(ev) for ev in burst):
                    return
                else:
                    yield "event: daily\ndata: {}\n\n"
        finally:
            sub.close()

    def ended() -> None:
        sub.close()
        caps.release(address)

    return CappedStream.events(ended, gen())
