"""One live stream per signed-in player: "your throw in match X", "rematch offered".

Every page of the site opened by a player listens to ``GET /api/my/events``
(static/notify.js) for the tab title and the browser's notifications, instead of
asking every 15 seconds. Each event is the player's whole picture, read from the
database: the matches between people waiting for their throw and the rematches
offered to them. So a page that missed events (a dropped connection, a process
restart) is right again with the next one, and the first event of a new
connection is what a fresh load would show. It counts against the same caps as a
match's stream (per client address, and in all: base/live/stream_caps.py), and an
account may hold ``JACKPOT_USER_STREAMS_PER_ACCOUNT`` of them per process.

When to send one: the stream subscribes to the bus channel ``user:<id>``. The
``UserHub`` of each process watches every match's events as the bus hands them
over (published after commit, so this is after commit too; over Redis every
process sees every match) and, for the events that can change whose throw it is,
pokes the channels of the match's players that have a stream open in this
process. A rematch offer has no match event: its route publishes the poke itself
(``poke_players``), through the bus so it reaches every process.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.edge.client import client_bucket
from jackpot.web.base.edge.http import db_of, require_actor, settings_of
from jackpot.web.base.errors import CountedError
from jackpot.web.base.live.bus import bursts, is_closed
from jackpot.web.base.live.stream_caps import CappedStream, EventStream, StreamCaps
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.play import rematch_offers
from jackpot.web.notify.notices import waiting_turns
from jackpot.web.notify.user_hub import UserHub

router = APIRouter()
#: The news other features tell a player (web/people/: a seek paired, a challenge
#: made or answered), passed on as events of their own kind.
FORWARDED = {"paired", "challenge", "accepted", "declined", "withdrawn", "expired"}


async def offers_for(conn: AsyncConnection, user_id: int) -> list[dict[str, Any]]:
    """Open rematch offers where this player has a seat and has not accepted."""
    me = t.seats.alias("me")
    by = t.seats.alias("by")
    rows = await conn.execute(
        select(
            rematch_offers.c.match_id,
            rematch_offers.c.version,
            rematch_offers.c.accepted,
            me.c.seat,
            by.c.name,
            t.matches.c.variant,
        )
        .join(me, me.c.match_id == rematch_offers.c.match_id)
        .join(
            by,
            (by.c.match_id == rematch_offers.c.match_id)
            & (by.c.seat == rematch_offers.c.offered_by),
        )
        .join(t.matches, t.matches.c.id == rematch_offers.c.match_id)
        .where(rematch_offers.c.status == "open", me.c.user_id == user_id)
        .order_by(rematch_offers.c.created_at.desc())
        .limit(20)
    )
    return [
        {"id": r.match_id, "version": r.version, "by": r.name, "variant": r.variant}
        for r in rows
        if str(r.seat) not in r.accepted.split(",")
    ]


async def snapshot(db: Database, user_id: int) -> bytes:
    async with db.read() as conn:
        return orjson.dumps(
            {
                "matches": await waiting_turns(conn, user_id),
                "offers": await offers_for(conn, user_id),
            }
        )


def hub_of(request: Request) -> UserHub:
    hub: UserHub = request.app.state.user_hub
    return hub


@router.get("/api/my/events", response_class=EventStream)
async def my_events(request: Request) -> Response:
    """Server-Sent Events: ``event: waiting`` with ``{"matches": [...], "offers":
    [...]}`` now, and again whenever it changes; a comment line keeps it open.
    ``event: paired`` (``{"seek", "match"}``), ``challenge``, ``accepted``,
    ``declined``, ``withdrawn`` and ``expired`` pass on what finding people tells the
    player."""
    actor = await require_actor(request, account=True, same_site=False)
    hub = hub_of(request)
    settings = settings_of(request)
    if hub.open[actor.user_id] >= settings.user_streams_per_account:
        raise CountedError(
            429,
            "too_many_streams",
            "this account already has %(num)s live stream open here; close a tab",
            "this account already has %(num)s live streams open here; close some tabs",
            settings.user_streams_per_account,
        )
    db = db_of(request)
    # The same caps as a match's stream (per client address, and in all).
    caps: StreamCaps = request.app.state.stream_caps
    address = client_bucket(request)
    caps.acquire(address)
    sub = hub.subscribe(actor.user_id)
    done = False

    def ended() -> None:
        """Give the stream's places back, once, however it ended."""
        nonlocal done
        if not done:
            done = True
            hub.unsubscribe(sub, actor.user_id)
            caps.release(address)

    try:
        first = await snapshot(db, actor.user_id)
    except BaseException:
        ended()
        raise

    async def gen() -> AsyncIterator[bytes]:
        last = first
        try:
            yield b"retry: 2000\n\nevent: waiting\ndata: " + first + b"\n\n"
            async for pokes in bursts(sub.queue, settings.sse_keepalive):  # several: one look
                if pokes is None:
                    yield b": keep-alive\n\n"
                    continue
                if any(is_closed(ev) for ev in pokes):
                    return
                for ev in pokes:
                    if ev.get("type") in FORWARDED:
                        # A pairing or a challenge: the page may go to the match.
                        yield b"event: " + ev["type"].encode() + b"\ndata: " + orjson.dumps(
                            ev
                        ) + b"\n\n"
                now = await snapshot(db, actor.user_id)
                if now != last:
                    last = now
                    yield b"event: waiting\ndata: " + now + b"\n\n"
        finally:
            ended()

    return CappedStream.events(ended, gen())
