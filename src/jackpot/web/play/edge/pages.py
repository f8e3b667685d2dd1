"""The pages around playing: home, new match, match page, lobby, my matches, rules.

Home plays the bot in one click; the rules, fair-play and verify pages are here too.
The forms post here (CSRF-checked) and redirect; the match page talks to the JSON
API and listens to the SSE stream.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from jinja2 import TemplateNotFound

from jackpot.engine import MAX_SPARES
from jackpot.web.accounts.credentials import GUEST_DAYS, new_guest
from jackpot.web.base.clock import iso, utcnow
from jackpot.web.base.edge.forms import form_text, read_form, see_other
from jackpot.web.base.edge.http import current_actor, db_of, set_session_cookie, settings_of
from jackpot.web.base.edge.templates import render
from jackpot.web.base.errors import ApiError
from jackpot.web.base.quotas import active_cap
from jackpot.web.base.settings import MAX_DEADLINE_SECONDS
from jackpot.web.matches.dailies import player_dailies
from jackpot.web.matches.listing import lobby_matches, my_matches
from jackpot.web.matches.playback import PACE_COVER_MS, PACE_THROW_MS
from jackpot.web.matches.seats import match_seats, seat_links
from jackpot.web.matches.store import seat_rows, shown_match_row
from jackpot.web.matches.views import public_state
from jackpot.web.play import seating
from jackpot.web.play.edge.match_form import read_choices, read_quick_play
from jackpot.web.play.phrases import said_of

router = APIRouter(include_in_schema=False)

#: Deadline of a match against the bot started with one click: a day per throw,
#: so a guest may leave a match and come back to it.
BOT_DEADLINE = 86400

DEADLINES = [
    (60, "1 minute"),
    (300, "5 minutes"),
    (3600, "1 hour"),
    (6 * 3600, "6 hours"),
    (86400, "1 day"),
    (3 * 86400, "3 days"),
    (7 * 86400, "1 week"),
]

#: How long a new match may wait for players (a week unless chosen).
EXPIRIES = [3600, 86400, 3 * 86400, 7 * 86400, 14 * 86400, 30 * 86400]


# -- home, play, match -----------------------------------------------------------


@router.get("/")
async def home(request: Request) -> Response:
    return await render(request, "home.html")


@router.post("/play")
async def play(request: Request) -> Response:
    """One click from the home page: a match against the bot (or alone), guest or not."""
    form = await read_form(request)
    # The buttons' hidden fields, edited in the browser, get a refusal in words.
    chosen = read_quick_play(form)
    solo = chosen.solo
    actor = await current_actor(request)
    new_token = None
    async with db_of(request).write() as conn:
        if actor is None:
            actor, new_token = await new_guest(request, conn)
        out = await seating.create_match(
            conn,
            actor,
            variant=chosen.variant,
            seats=1 if solo else 2,
            bots_count=0 if solo else 1,
            deadline_seconds=BOT_DEADLINE,
            client_seed=form_text(form, "client_seed") or None,
            private=True,
            min_deadline=settings_of(request).min_deadline_seconds,
            max_active=active_cap(settings_of(request), actor.is_guest),
            # Filled in by the page's script once it fetched one; without scripts the
            # match's seed is made with it, as for programs.
            commitment=form_text(form, "commitment") or None,
        )
    response = see_other(f"/matches/{out.match_id}")
    if new_token:
        set_session_cookie(response, settings_of(request), new_token, GUEST_DAYS)
    return response


@router.get("/matches/new")
async def new_match_form(request: Request) -> Response:
    actor = await current_actor(request)
    if actor is None or actor.is_guest:
        return see_other("/signup?next=/matches/new")
    return await render(
        request,
        "new_match.html",
        {
            "deadlines": DEADLINES,
            "expiries": EXPIRIES,
            "min_deadline": settings_of(request).min_deadline_seconds,
            "max_spares": MAX_SPARES,
        },
    )


@router.post("/matches/new")
async def new_match(request: Request) -> Response:
    form = await read_form(request)
    actor = await current_actor(request)
    if actor is None or actor.is_guest:
        return see_other("/signup?next=/matches/new")
    try:
        chosen = read_choices(form, settings_of(request).min_deadline_seconds)
        async with db_of(request).write() as conn:
            out = await seating.create_match(
                conn,
                actor,
                variant=chosen.variant,
                seats=chosen.seats,
                bots_count=chosen.bots,
                deadline_seconds=chosen.deadline_seconds,
                client_seed=form_text(form, "client_seed") or None,
                private=form_text(form, "private") == "on",
                min_deadline=settings_of(request).min_deadline_seconds,
                max_active=active_cap(settings_of(request), actor.is_guest),
                expiry_seconds=chosen.expiry_seconds,
                commitment=form_text(form, "commitment") or None,
                spares=chosen.spares,
            )
    except ApiError as exc:
        return await render(
            request,
            "new_match.html",
            {
                "deadlines": DEADLINES,
                "expiries": EXPIRIES,
                    "error": exc.message,
                "min_deadline": settings_of(request).min_deadline_seconds,
                "max_spares": MAX_SPARES,
            },
            status=exc.status,
        )
    return see_other(f"/matches/{out.match_id}")


@router.get("/matches/{match_id}")
async def match_page(match_id: str, request: Request) -> Response:
    actor = await current_actor(request)
    viewer = actor.user_id if actor else None
    async with db_of(request).read() as conn:
        row = await shown_match_row(conn, match_id, viewer)
        state = public_state(row, await seat_rows(conn, match_id), viewer)
        seats = seat_links(await match_seats(conn, match_id, viewer))
        said = await said_of(conn, match_id)
    after_end = settings_of(request).phrase_after_end
    ended = row["finished_at"]
    seated = any(s["you"] for s in state["seats"])
    can_join = (
        state["status"] == "waiting"
        and not seated
        and any(s["name"] is None and not s["bot"] for s in state["seats"])
    )
    # The address a seated player sends to invite others: from the configured base
    # URL, never from the request's Host header, which the sender does not control.
    invite_url = (
        f"{settings_of(request).link_base}/matches/{state['id']}"
        if state["status"] == "waiting" and seated
        else None
    )
    return await render(
        request,
        "match.html",
        {
            "state": state,
            "state_json": json.dumps(state).replace("<", "\\u003c"),
            "seats_json": json.dumps({"seats": seats}).replace("<", "\\u003c"),
            "said_json": json.dumps({"said": said}).replace("<", "\\u003c"),
            "phrase_after_end": after_end,
            # Until when phrases may still be said, once the match is over.
            "phrases_until": iso(ended + timedelta(seconds=after_end)) if ended else None,
            "seated": seated,
            "can_join": can_join,
            "invite_url": invite_url,
            # When the lobby gives up on it (the page hides the line once it starts).
            "expires_at": row["expires_at"] if state["status"] == "waiting" else None,
            "max_deadline": MAX_DEADLINE_SECONDS,
            "pace_throw_ms": PACE_THROW_MS,
            "pace_cover_ms": PACE_COVER_MS,
        },
    )


@router.post("/matches/{match_id}/join")
async def join_form(match_id: str, request: Request) -> Response:
    form = await read_form(request)
    actor = await current_actor(request)
    if actor is None or actor.is_guest:
        return see_other(f"/signup?next=/matches/{match_id}")
    async with db_of(request).write() as conn:
        seed = form_text(form, "client_seed") or None
        await seating.join_match(
            conn,
            actor,
            match_id,
            seed,
            max_active=active_cap(settings_of(request), actor.is_guest),
        )
    return see_other(f"/matches/{match_id}")


@router.get("/lobby")
async def lobby(request: Request) -> Response:
    async with db_of(request).read() as conn:
        matches = await lobby_matches(conn)
    for m in matches:  # the page says the time in the reader's language
        m["expiry"] = datetime.fromisoformat(m["expires_at"]) if m["expires_at"] else None
    return await render(request, "lobby.html", {"matches": matches})


@router.get("/my")
async def my_page(request: Request) -> Response:
    actor = await current_actor(request)
    matches: list[dict[str, Any]] = []
    dailies = None
    if actor is not None:
        async with db_of(request).read() as conn:
            matches = await my_matches(conn, actor.user_id)
            if not actor.is_guest:
                dailies = await player_dailies(conn, actor.user_id, actor.user_id, utcnow())
    return await render(request, "my_matches.html", {"matches": matches, "dailies": dailies})


# -- content pages --------------------------------------------------------------


async def _content(request: Request, name: str, title: str) -> Response:
    try:
        return await render(request, name)
    except TemplateNotFound:
        return await render(request, "placeholder.html", {"title": title})


@router.get("/rules")
async def rules(request: Request) -> Response:
    return await _content(request, "rules.html", "Rules")


@router.get("/fair-play")
async def fair_play(request: Request) -> Response:
    return await _content(request, "fair_play.html", "Fair play")


@router.get("/verify")
async def verify(request: Request) -> Response:
    return await _content(request, "verify.html", "Verify a match")
