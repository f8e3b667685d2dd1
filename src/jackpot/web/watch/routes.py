"""The watch list: ``GET /api/matches/live`` and the page ``/watch``.

Each match comes with how many watch it (play/watchers.py: the open live connections
of readers without a seat, in every server process), the whole list's in one look at
Redis. The page follows the list by fetching itself again every few seconds
(static/watch.js): matches start, move on a round and end all the time, and the
lobby's pings say only when a match waits or starts.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from jackpot.web.base.edge.http import current_actor, db_of, settings_of
from jackpot.web.base.edge.templates import render
from jackpot.web.play.watchers import watchers_of
from jackpot.web.watch.listing import live_matches

router = APIRouter()


async def _listed(request: Request) -> list[dict[str, Any]]:
    actor = await current_actor(request)
    async with db_of(request).read() as conn:
        found = await live_matches(
            conn, actor.user_id if actor else None, settings_of(request).watch_list_size
        )
    watching = await watchers_of(request).count_all([m["id"] for m in found])
    for m in found:
        m["watching"] = watching[m["id"]]
    return found


@router.get("/api/matches/live")
async def live(request: Request) -> dict[str, Any]:
    """Public matches between people being played now, newest first: players (with
    their ratings), variant, round, and how many watch (the open live connections of
    readers without a seat, in every server process)."""
    return {"matches": await _listed(request)}


@router.get("/watch", include_in_schema=False)
async def watch_page(request: Request) -> Response:
    return await render(request, "watch.html", {"matches": await _listed(request)})
