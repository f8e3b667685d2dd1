"""Server-Sent Events for one match, resumable with ``Last-Event-ID``.

The stream subscribes to the bus first, then replays from the database whatever
came after the client's last id, then forwards live events; a gap in the live
sequence (a dropped subscriber) is filled from the database, so a client never
misses or repeats an event. A comment line every 15 s keeps proxies from closing
an idle stream (JACKPOT_SSE_KEEPALIVE_SECONDS). A finished match's stream ends
after its last event; a client that already has everything gets 204, which tells
EventSource to stop reconnecting.

A ``said`` event (play/phrases.py) has no ``seq``: it is not one of the match's
numbered events, so it goes out as it comes, in a frame without an ``id`` (the
client's Last-Event-ID stays the last numbered one), and a stream that resumes
does not replay it: the page reads what was said with ``GET .../said`` instead.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import orjson
from fastapi import Request, Response
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.edge.client import client_bucket
from jackpot.web.base.edge.http import bus_of, current_actor, db_of, settings_of
from jackpot.web.base.errors import ApiError
from jackpot.web.base.live.bus import bursts, is_closed
from jackpot.web.base.live.stream_caps import CappedStream, StreamCaps
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables import core as t
from jackpot.web.matches.store import shown_match_row
from jackpot.web.play.watchers import is_seated, watchers_of

FINAL = {"match_ended", "cancelled"}


def _last_id(request: Request) -> int:
    raw = request.headers.get("last-event-id") or request.query_params.get("last_event_id") or "0"
    try:
        value = int(raw)
    except ValueError:
        return 0
    return max(0, min(value, 2**31))


async def _since(db: Database, match_id: str, after: int) -> list[tuple[int, str]]:
    async with db.read() as conn:
        return await _events_after(conn, match_id, after)


async def _events_after(conn: AsyncConnection, match_id: str, after: int) -> list[tuple[int, str]]:
    res = await conn.execute(
        select(t.match_events.c.seq, t.match_events.c.data)
        .where(t.match_events.c.match_id == match_id, t.match_events.c.seq > after)
        .order_by(t.match_events.c.seq)
    )
    return [(int(r.seq), str(r.data)) for r in res]


async def backlog_since(
    db: Database, match_id: str, after: int, viewer_id: int | None
) -> tuple[bool, list[tuple[int, str]]]:
    """Whether the match exists for ``viewer_id`` (disclosure.py), and its stored
    events after ``after`` (up to its final one). Subscribe to the bus first, so
    nothing falls between the two. One read transaction for both: every match socket
    opens with it."""
    async with db.read() as conn:
        try:
            await shown_match_row(conn, match_id, viewer_id)
        except ApiError:
            return False, []
        backlog = await _events_after(conn, match_id, after)
    for i, (_seq, data) in enumerate(backlog):
        if json.loads(data)["type"] in FINAL:
            return True, backlog[: i + 1]
    return True, backlog


def _frame(seq: int, data: str) -> str:
    """One SSE frame; an unnumbered event (seq 0) sets no id."""
    if not seq:
        return f"event: match\ndata: {data}\n\n"
    return f"id: {seq}\nevent: match\ndata: {data}\n\n"


async def live_after(
    db: Database, match_id: str, batch: list[dict[str, Any]], sent: int
) -> tuple[list[tuple[int, str]], int, str | None]:
    """The live events of ``batch`` after ``sent`` as (seq, JSON) (a gap before one
    filled from the database, a repeat dropped; an unnumbered one, ``said``, as it
    comes, with seq 0); the last seq among them; and why no more will come: "final"
    (the match's last event), "closed" (the bus dropped the subscriber) or None."""
    out: list[tuple[int, str]] = []
    for ev in batch:
        if is_closed(ev):
            return out, sent, "closed"
        if "seq" not in ev:
            out.append((0, orjson.dumps(ev).decode()))
            continue
        seq = int(ev["seq"])
        if seq <= sent:
            continue
        if seq > sent + 1:
            for s, data in await _since(db, match_id, sent):
                if s >= seq:
                    break
                out.append((s, data))
                sent = s
        out.append((seq, orjson.dumps(ev).decode()))
        sent = seq
        if ev["type"] in FINAL:
            return out, sent, "final"
    return out, sent, None


async def event_stream(request: Request, match_id: str) -> Response:
    last = _last_id(request)
    actor = await current_actor(request)
    async with db_of(request).read() as conn:
        row = await shown_match_row(conn, match_id, actor.user_id if actor else None)
    finished = row["status"] == "finished"
    if finished and row["version"] <= last:
        return Response(status_code=204)
    keepalive = settings_of(request).sse_keepalive
    # A reader without a seat watches: counted while the stream is open (watchers.py).
    watching = not await is_seated(db_of(request), match_id, actor)
    caps: StreamCaps = request.app.state.stream_caps
    address = client_bucket(request)
    caps.acquire(address)
    sub = bus_of(request).subscribe(match_id)
    try:
        backlog = await _since(db_of(request), match_id, last)
    except BaseException:
        sub.close()
        caps.release(address)
        raise
    watchers = watchers_of(request)
    if watching:
        watchers.opened(match_id)

    async def gen() -> AsyncIterator[str]:
        sent = last
        try:
            yield "retry: 2000\n\n"
            for seq, data in backlog:
                yield _frame(seq, data)
                sent = seq
                if json.loads(data)["type"] in FINAL:
                    return
            # A burst goes out as one write: each write crosses every middleware.
            async for batch in bursts(sub.queue, keepalive):
                if batch is None:
                    yield ": keep-alive\n\n"
                    continue
                events, sent, end = await live_after(db_of(request), match_id, batch, sent)
                if events:
                    yield "".join(_frame(seq, data) for seq, data in events)
                if end is not None:
                    return
        finally:
            sub.close()

    def ended() -> None:
        sub.close()  # also when the stream ended before its first frame
        caps.release(address)
        if watching:
            watchers.closed(match_id)

    return CappedStream.events(ended, gen())
