"""The daily pages, live: a stream of pings whenever a board may have changed.

An entry made, an entry ended, a day closed: each queues one ping on the bus's
``daily`` channel (deals.ping_daily), sent once its transaction commits. Every open
stream (``GET /api/daily/events``) passes a burst of pings on as one SSE frame and
the page fetches its boards again (static/daily.js), as the lobby does: a ping
carries nothing, so one lost costs only freshness until the next, and the page
fetches again each time its stream (re)connects.
"""

from __future__ import annotations

from fastapi import Request

from jackpot.web.base.edge.ping_stream import ping_stream
from jackpot.web.base.live.stream_caps import CappedStream
from jackpot.web.daily.deals import DAILY


async def daily_stream(request: Request) -> CappedStream:
    """One ``daily`` frame per burst of changes (base/edge/ping_stream.py)."""
    return await ping_stream(request, DAILY, "daily")
