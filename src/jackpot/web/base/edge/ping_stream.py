"""A stream of pings for a page that fetches its live section again on each one.

The lobby and the daily boards are read from the database; their pages only need to
hear that something may have changed (static/live-section.js). Actions queue a ping
on a bus channel once their transaction commits; each open stream passes a burst of
pings on as one SSE frame, so a flurry of changes costs the page one fetch. A ping
carries nothing: one lost (a dropped subscriber, a Redis hiccup) costs freshness
until the next, and the page fetches again each time its stream (re)connects.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from fastapi import Request

from jackpot.web.base.edge.client import client_bucket
from jackpot.web.base.edge.http import bus_of, settings_of
from jackpot.web.base.live.bus import bursts, is_closed
from jackpot.web.base.live.stream_caps import CappedStream, StreamCaps


async def ping_stream(request: Request, channel: str, event: str) -> CappedStream:
    """One ``event`` frame per burst of pings on ``channel``; a comment line keeps it
    open. It counts among the caller's open streams (base/live/stream_caps.py)."""
    keepalive = settings_of(request).sse_keepalive
    caps: StreamCaps = request.app.state.stream_caps
    address = client_bucket(request)
    caps.acquire(address)
    sub = bus_of(request).subscribe(channel)

    async def gen() -> AsyncIterator[str]:
        try:
            yield "retry: 2000\n\n"
            async for burst in bursts(sub.queue, keepalive):
                if burst is None:
                    yield ": keep-alive\n\n"
                elif any(is_closed(ev) for ev in burst):
                    return
                else:
                    yield f"event: {event}\ndata: {{}}\n\n"
        finally:
            sub.close()

    def ended() -> None:
        sub.close()  # also when the stream ended before its first frame
        caps.release(address)

    return CappedStream.events(ended, gen())
