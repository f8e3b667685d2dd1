"""The page for finding people: play now and challenges, on one page at ``/play-now``.

The page itself is the form and the lists; static/play-now.js makes a seek (the
JSON API), listens on its stream and goes to the match once paired, and answers
challenges. Without an account the page says how to get one.
"""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, Request
from fastapi.responses import Response

from jackpot.engine import MAX_SPARES
from jackpot.i18n.formats import time_left
from jackpot.web.base.clock import utcnow
from jackpot.web.base.edge.http import current_actor, db_of, settings_of
from jackpot.web.base.edge.templates import render
from jackpot.web.people import challenges
from jackpot.web.people.kinds import waiting_kinds

router = APIRouter(include_in_schema=False)

#: The seconds per throw the page offers (any from the site's minimum to a week
#: may be asked for through the API).
DEADLINES = (60, 300, 3600, 86400, 259200)


@router.get("/play-now")
async def play_now_page(request: Request) -> Response:
    actor = await current_actor(request)
    now = utcnow()
    least = settings_of(request).min_deadline_seconds
    async with db_of(request).read() as conn:
        kinds, _ = await waiting_kinds(conn, actor, now)
        listed = (
            await challenges.listed(conn, actor.user_id, now)
            if actor is not None and not actor.is_guest
            else None
        )
    # How long each challenge stays open, as the page is made (it is made again as the
    # lists refresh): a quick one waits ten minutes only.
    for side in listed.values() if listed else ():
        for c in side:
            c["expires_in"] = time_left(datetime.fromisoformat(c["expires_at"]) - now)
    return await render(
        request,
        "play_now.html",
        {
            "kinds": kinds,
            "challenges": listed,
            "deadlines": [d for d in DEADLINES if d >= least] or [least],
            "challenge_to": request.query_params.get("to", "")[:40],
            # The bot match offered while a seek waits starts as the home page's does.
            "max_spares": MAX_SPARES,
        },
    )
