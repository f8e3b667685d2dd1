"""A seek's page, live: its stream says "paired" (with the match) and keeps a short seek alive.

``GET /api/seeks/{id}/events`` sends the seek's state at once, then each change of
it (paired, cancelled, expired) as it is committed. A seek for less than an hour a
throw is for a person at their screen: when its page's stream closes (the page was
closed or left), the seek is cancelled, so nobody is paired with an empty chair.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import datetime

import orjson
from fastapi import Request

from jackpot.web.base.clock import utcnow
from jackpot.web.base.edge.client import client_bucket
from jackpot.web.base.edge.http import bus_of, db_of, settings_of
from jackpot.web.base.errors import ApiError
from jackpot.web.base.identity import Actor
from jackpot.web.base.live.bus import bursts, is_closed
from jackpot.web.base.live.stream_caps import CappedStream, StreamCaps
from jackpot.web.base.storage.db import Database
from jackpot.web.people.rules import SHORT
from jackpot.web.people.seeks import cancel, own_seek, seek_channel

#: Cancellations of short seeks whose page closed, kept until they are done.
PENDING: set[asyncio.Task[None]] = set()


async def cancel_if_waiting(db: Database, user_id: int, seek_id: str) -> None:
    """The page of a short seek closed: call it off unless it was paired meanwhile."""
    try:
        async with db.write() as conn:
            await cancel(conn, user_id, seek_id, utcnow())
    except ApiError:
        pass  # paired, cancelled or expired already


async def seek_stream(request: Request, actor: Actor, seek_id: str, now: datetime) -> CappedStream:
    """One frame now with the seek's state, then one per change; a comment line
    keeps it open."""
    db = db_of(request)
    async with db.read() as conn:
        first = await own_seek(conn, actor.user_id, seek_id, now)
    keepalive = settings_of(request).sse_keepalive
    caps: StreamCaps = request.app.state.stream_caps
    address = client_bucket(request)
    caps.acquire(address)
    sub = bus_of(request).subscribe(seek_channel(seek_id))
    short = first["deadline_seconds"] < SHORT
    done = False

    def ended() -> None:
        nonlocal done
        if done:
            return
        done = True
        sub.close()
        caps.release(address)
        if short:
            task = asyncio.get_running_loop().create_task(
                cancel_if_waiting(db, actor.user_id, seek_id)
            )
            PENDING.add(task)
            task.add_done_callback(PENDING.discard)

    async def gen() -> AsyncIterator[bytes]:
        try:
            yield b"retry: 2000\n\nevent: seek\ndata: " + orjson.dumps(first) + b"\n\n"
            if first["status"] != "waiting":
                return
            async for burst in bursts(sub.queue, keepalive):
                if burst is None:
                    yield b": keep-alive\n\n"
                    continue
                if any(is_closed(ev) for ev in burst):
                    return
                for ev in burst:
                    yield b"event: seek\ndata: " + orjson.dumps(
                        {"id": seek_id, "status": ev["type"], "match": ev.get("match")}
                    ) + b"\n\n"
                    return
        finally:
            ended()

    return CappedStream.events(ended, gen())
