"""Server-Sent Events for one match, resumable with ``Last-Event-ID``.

The stream subscribes to the bus first, then replays from the database whatever
came after the client's last id, then forwards live events; a gap in the live
sequence (a dropped subscriber) is filled from the database, so a client never
misses or repeats an event. A comment line every 15 s keeps proxies from closing
an idle stream (JACKPOT_SSE_KEEPALIVE_SECONDS). A finished match's stream ends
after its last event; a client that already has everything gets 204, which tells
EventSource to stop reconnecting.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import orjson
from fastapi import Request, Response
from fastapi.responses import StreamingResponse
from sqlalchemy import select

from jackpot.web.base import models as t
from jackpot.web.base.bus import CLOSED
from jackpot.web.base.http import bus_of, db_of, settings_of
from jackpot.web.matches.store import match_row

FINAL = {"match_ended", "cancelled"}


def _last_id(request: Request) -> int:
    raw = request.headers.get("last-event-id") or request.query_params.get("last_event_id") or "0"
    try:
        value = int(raw)
    except ValueError:
        return 0
    return max(0, min(value, 2**31))


async def _since(request: Request, match_id: str, after: int) -> list[tuple[int, str]]:
    async with db_of(request).read() as conn:
        res = await conn.execute(
            select(t.match_events.c.seq, t.match_events.c.data)
            .where(t.match_events.c.match_id == match_id, t.match_events.c.seq > after)
            .order_by(t.match_events.c.seq)
        )
        return [(int(r.seq), str(r.data)) for r in res]


def _frame(seq: int, data: str) -> str:
    return f"id: {seq}\nevent: match\ndata: {data}\n\n"


async def _frames(
    request: Request, match_id: str, batch: list[dict[str, Any]], sent: int
) -> tuple[str, int, bool]:
    """The frames for live events after ``sent`` (a gap before one is filled from
    the database, a repeat dropped), the last id written, and whether the stream
    ends there (the match's final event, or the bus closing it)."""
    frames: list[str] = []
    for ev in batch:
        if ev is CLOSED or ev.get("type") == CLOSED["type"]:
            return "".join(frames), sent, True
        seq = int(ev["seq"])
        if seq <= sent:
            continue
        if seq > sent + 1:
            for s, data in await _since(request, match_id, sent):
                if s >= seq:
                    break
                frames.append(_frame(s, data))
                sent = s
        frames.append(_frame(seq, orjson.dumps(ev).decode()))
        sent = seq
        if ev["type"] in FINAL:
            return "".join(frames), sent, True
    return "".join(frames), sent, False


async def event_stream(request: Request, match_id: str) -> Response:
    last = _last_id(request)
    async with db_of(request).read() as conn:
        row = await match_row(conn, match_id)
    finished = row["status"] == "finished"
    if finished and row["version"] <= last:
        return Response(status_code=204)
    keepalive = settings_of(request).sse_keepalive
    sub = bus_of(request).subscribe(match_id)
    backlog = await _since(request, match_id, last)

    async def gen() -> AsyncIterator[str]:
        sent = last
        try:
            yield "retry: 2000\n\n"
            for seq, data in backlog:
                yield _frame(seq, data)
                sent = seq
                if json.loads(data)["type"] in FINAL:
                    return
            while True:
                try:
                    async with asyncio.timeout(keepalive):
                        first = await sub.queue.get()
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                # Everything already queued goes out as one write: an action's
                # events arrive together, and each write crosses every middleware.
                batch = [first]
                while not sub.queue.empty():
                    batch.append(sub.queue.get_nowait())
                chunk, sent, done = await _frames(request, match_id, batch, sent)
                if chunk:
                    yield chunk
                if done:
                    return
        finally:
            sub.close()

    return StreamingResponse(
        gen(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
