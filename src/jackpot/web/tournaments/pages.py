"""The tournaments' pages: the list, the form that makes one, and a tournament's own page.

A tournament's page follows it live: static/tournament.js fetches it again on each
ping of ``/api/tournaments/{id}/events`` and puts in its ``#tournament-live`` (the
standings, the rounds' tables, the reader's next step). Entering, withdrawing and
the early start are forms that lead back to the page, or show it again with what
went wrong.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from markupsafe import Markup
from sqlalchemy.exc import IntegrityError

from jackpot.i18n import current_locale
from jackpot.i18n import gettext as _
from jackpot.web.base.clock import iso, utcnow
from jackpot.web.base.edge.forms import form_int, form_text, read_form, see_other
from jackpot.web.base.edge.http import current_actor, db_of, settings_of
from jackpot.web.base.edge.templates import render
from jackpot.web.base.errors import ApiError
from jackpot.web.play.commitments import issue
from jackpot.web.tournaments.entries import (
    already_entered,
    create,
    enter,
    require_account,
    start_early,
    withdraw,
)
from jackpot.web.tournaments.rules import NewTournamentBody, check_new
from jackpot.web.tournaments.store import Tournament, load
from jackpot.web.tournaments.views import full_view, listing

router = APIRouter(include_in_schema=False)

#: What the form offers for a throw's time and a round's length, in seconds.
DEADLINES = (60, 300, 3600, 86400, 259200)
ROUND_LENGTHS = (600, 3600, 86400, 3 * 86400, 7 * 86400, 14 * 86400)


@router.get("/tournaments")
async def tournaments_page(request: Request) -> Response:
    async with db_of(request).read() as conn:
        lists = await listing(conn)
    for part in lists.values():
        for t in part:
            t["starts_dt"] = datetime.fromisoformat(t["starts_at"])
    return await render(request, "tournaments.html", {"lists": lists})


def _form_context(error: str | None = None, values: dict[str, Any] | None = None) -> dict[str, Any]:
    start = (utcnow() + timedelta(days=1)).replace(minute=0, second=0, microsecond=0)
    return {
        "error": error,
        "deadlines": DEADLINES,
        "round_lengths": ROUND_LENGTHS,
        "v": {
            "name": "",
            "variant": "jackpot",
            "table_size": 2,
            "rounds": 3,
            "deadline_seconds": 86400,
            "spares": 2,
            "round_seconds": 7 * 86400,
            "starts_at": start.strftime("%Y-%m-%dT%H:%M"),
            "max_players": 16,
            "private": False,
        }
        | (values or {}),
    }


@router.get("/tournaments/new")
async def new_page(request: Request) -> Response:
    actor = await current_actor(request)
    if actor is None or actor.is_guest:
        return see_other("/signup?next=/tournaments/new")
    return await render(request, "tournament_new.html", _form_context())


@router.post("/tournaments/new")
async def new_form(request: Request) -> Response:
    form = await read_form(request)
    actor = await current_actor(request)
    if actor is None or actor.is_guest:
        return see_other("/signup?next=/tournaments/new")
    # The form's datetime-local field is UTC, as the page says.
    start = form_text(form, "starts_at")
    values: dict[str, Any] = {
        "name": form_text(form, "name")[:80],
        "variant": form_text(form, "variant", "jackpot"),
        "table_size": form_int(form, "table_size", 2),
        "rounds": form_int(form, "rounds", 3),
        "deadline_seconds": form_int(form, "deadline_seconds", 86400),
        "spares": form_int(form, "spares", 2),
        "round_seconds": form_int(form, "round_seconds", 7 * 86400),
        "starts_at": start[:40],
        "max_players": form_int(form, "max_players", 16),
        "private": form_text(form, "private") == "on",
    }
    settings = settings_of(request)
    try:
        body = NewTournamentBody(**(values | {"starts_at": start[:40] + "Z"}))
        new = check_new(body, settings, actor.name)
        async with db_of(request).write() as conn:
            tournament_id = await create(conn, actor, new, settings, utcnow())
    except ApiError as exc:
        return await render(
            request, "tournament_new.html", _form_context(exc.message, values), status=exc.status
        )
    except ValueError:
        error = _("Some of these settings are out of range: look at them again.")
        return await render(
            request, "tournament_new.html", _form_context(error, values), status=422
        )
    return see_other(f"/tournaments/{tournament_id}")


async def _page(
    request: Request, tournament_id: str, error: str | None = None, shown: int | None = None
) -> dict[str, Any]:
    actor = await current_actor(request)
    now = utcnow()
    async with db_of(request).read() as conn:
        t = await load(conn, tournament_id, cached=True)
        view = await full_view(conn, t, actor.user_id if actor else None, now)
    rounds = view["pairings"]
    # One round's tables at a time, the latest by default: a thousand players' rounds
    # all at once would be a page nobody reads.
    chosen = next((r for r in rounds if r["round"] == shown), rounds[-1] if rounds else None)
    return {
        "t": view,
        "shown": chosen,
        "standings_html": _fragment(
            request, t, "_tournament_standings.html", "standings", standings=view["standings"]
        ),
        "round_html": _fragment(
            request,
            t,
            "_tournament_round.html",
            f"round {chosen['round'] if chosen else 0}",
            r=chosen,
            t=view,
        ),
        "error": error,
        "now": iso(now),
        "round_ends": t.row["round_ends_at"],
        "starts": t.row["starts_at"],
    }


def _fragment(
    request: Request, kept: Tournament, name: str, part: str, **ctx: Any
) -> Markup:
    """A part of the page that is the same for every reader (the standings, a round's
    tables), rendered once per version of the tournament and language: most of a
    large tournament's page."""
    key = f"html:{part}:{current_locale()}"
    if key not in kept.memo:
        env = request.app.state.templates.env
        kept.memo[key] = Markup(env.get_template(name).render(**ctx))
    html: Markup = kept.memo[key]
    return html


@router.get("/tournaments/{tournament_id}")
async def tournament_page(
    tournament_id: str, request: Request, round: int = Query(0, ge=0, le=100)
) -> Response:
    """The tournament: its standings, one round's tables (the latest, or ``round``)."""
    ctx = await _page(request, tournament_id, shown=round or None)
    return await render(request, "tournament.html", ctx)


async def _act(request: Request, tournament_id: str, what: str) -> Response:
    form = await read_form(request)
    actor = await current_actor(request)
    if actor is None or actor.is_guest:
        return see_other(f"/signup?next=/tournaments/{tournament_id}")
    now = utcnow()
    try:
        account = require_account(actor)
        try:
            async with db_of(request).write() as conn:
                if what == "enter":
                    commitment = form_text(form, "commitment")
                    if not commitment:
                        # A page without scripts: the part is made with the entry,
                        # which the other players' seeds follow.
                        commitment = (await issue(conn, now)).commitment
                    seed = form_text(form, "client_seed")[:64]
                    await enter(conn, account, tournament_id, seed, commitment, now)
                elif what == "withdraw":
                    await withdraw(conn, account, tournament_id, now)
                else:
                    await start_early(conn, account, tournament_id, now)
        except IntegrityError:
            raise already_entered() from None
    except ApiError as exc:
        ctx = await _page(request, tournament_id, exc.message)
        return await render(request, "tournament.html", ctx, status=exc.status)
    return see_other(f"/tournaments/{tournament_id}")


@router.post("/tournaments/{tournament_id}/enter")
async def enter_form(tournament_id: str, request: Request) -> Response:
    return await _act(request, tournament_id, "enter")


@router.post("/tournaments/{tournament_id}/withdraw")
async def withdraw_form(tournament_id: str, request: Request) -> Response:
    return await _act(request, tournament_id, "withdraw")


@router.post("/tournaments/{tournament_id}/start")
async def start_form(tournament_id: str, request: Request) -> Response:
    return await _act(request, tournament_id, "start")
