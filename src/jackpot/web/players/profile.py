"""Player profiles, their match history and their records' export, pages and JSON.

Every list here is one query (or one more for the names of a page's opponents),
whatever its length: the profile sums ``seat_stats``, so nothing re-reads records
per row.

Privacy: a profile and its history are public only for players who chose to be on
the leaderboard (the seed page's "only if you want one"); everybody else sees their
own.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response, StreamingResponse
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.engine import FULL, Variant
from jackpot.i18n import gettext
from jackpot.i18n.formats import variant_name
from jackpot.strategy.solver import expected_score_min, p_shut_max
from jackpot.web.base.clock import iso, utcnow
from jackpot.web.base.edge.http import current_actor, db_of, settings_of
from jackpot.web.base.edge.templates import render
from jackpot.web.base.errors import invalid, not_found
from jackpot.web.base.identity import Actor
from jackpot.web.base.names import name_key
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables import players as r
from jackpot.web.matches.dailies import player_dailies
from jackpot.web.matches.seats import seats_of
from jackpot.web.matches.tournament_places import player_tournaments
from jackpot.web.matches.views import load_record
from jackpot.web.players.charts import Series, line_chart
from jackpot.web.players.ratings import PROVISIONAL_SIGMA, display_rating
from jackpot.web.players.standing import VARIANTS

router = APIRouter()

HISTORY_PER_PAGE = 50
OUTCOMES = ("won", "drew", "lost")


def best_play_rate(variant: str) -> float:
    """The chance of shutting the box in a turn with the best play (exact, as a float)."""
    return float(p_shut_max(Variant(variant), FULL))


async def _player(conn: AsyncConnection, name: str, viewer: int | None) -> Any:
    """The account called ``name``, if the viewer may see it (else 404 either way,
    so a private profile does not even confirm the name exists)."""
    row = (
        await conn.execute(
            select(t.users.c.id, t.users.c.name, t.users.c.leaderboard).where(
                t.users.c.name_key == name_key(name), t.users.c.is_guest.is_(False)
            )
        )
    ).first()
    if row is None or not (row.leaderboard or row.id == viewer):
        raise not_found("there is no public player called %(name)s", name=name)
    return row


async def profile_data(conn: AsyncConnection, user_id: int) -> dict[str, Any]:
    ratings = {
        x.variant: x
        for x in (
            await conn.execute(
                select(r.player_ratings).where(r.player_ratings.c.user_id == user_id)
            )
        ).all()
    }
    sums = {
        x.variant: x
        for x in (
            await conn.execute(
                select(
                    r.seat_stats.c.variant,
                    func.count().label("matches"),
                    func.sum(r.seat_stats.c.turns).label("turns"),
                    func.sum(r.seat_stats.c.jackpots).label("jackpots"),
                    func.sum(r.seat_stats.c.score_sum).label("score_sum"),
                    func.sum(r.seat_stats.c.choices).label("choices"),
                    func.sum(r.seat_stats.c.best_choices).label("best_choices"),
                    func.sum(r.seat_stats.c.given_away).label("given_away"),
                )
                .where(r.seat_stats.c.user_id == user_id)
                .group_by(r.seat_stats.c.variant)
            )
        ).all()
    }
    history_rows = (
        await conn.execute(
            select(r.rating_history.c.variant, r.rating_history.c.rating, r.rating_history.c.at)
            .where(r.rating_history.c.user_id == user_id)
            .order_by(r.rating_history.c.variant, r.rating_history.c.at)
        )
    ).all()
    variants = []
    for v in VARIANTS:
        rating = ratings.get(v)
        s = sums.get(v)
        if rating is None and s is None:
            continue
        points = [
            (i + 1, float(h.rating))
            for i, h in enumerate(x for x in history_rows if x.variant == v)
        ]
        history = [h for h in history_rows if h.variant == v]
        turns = int(s.turns or 0) if s else 0
        choices = int(s.choices or 0) if s else 0
        start = display_rating(25.0, 25.0 / 3)
        series = [Series(gettext("Rating"), [(0, float(start)), *points])] if points else []
        variants.append(
            {
                "variant": v,
                "rating": None if rating is None else rating.rating,
                "provisional": None if rating is None else bool(rating.provisional),
                "rated_matches": 0 if rating is None else rating.matches,
                "rated_wins": 0 if rating is None else rating.wins,
                "matches": int(s.matches) if s else 0,
                "turns": turns,
                "jackpots": int(s.jackpots or 0) if s else 0,
                "jackpot_rate": (int(s.jackpots or 0) / turns) if s and turns else None,
                "best_rate": best_play_rate(v),
                "best_score": float(expected_score_min(Variant(v), FULL)),
                "average_score": (int(s.score_sum or 0) / turns) if s and turns else None,
                "choices": choices,
                "accuracy": (int(s.best_choices or 0) / choices) if s and choices else None,
                "given_away_per_turn": (float(s.given_away or 0) / turns) if s and turns else None,
                # Skill apart from the dice, over the rated matches (ratings.py).
                "decisions": 0 if rating is None else rating.decisions,
                "given_away_per_decision": None if rating is None else rating.skill,
                "history": [
                    {"match": i + 1, "rating": h.rating, "at": iso(h.at)}
                    for i, h in enumerate(history)
                ],
                "chart": line_chart(
                    series,
                    label=gettext(
                        "%(variant)s rating after each rated match", variant=variant_name(v)
                    ),
                    x_name=gettext("rated match"),
                    y_name=gettext("rating"),
                )
                if series
                else None,
            }
        )
    return {"variants": variants}


async def history_data(
    conn: AsyncConnection,
    user_id: int,
    variant: str | None,
    outcome: str | None,
    page: int,
    per_page: int = HISTORY_PER_PAGE,
    viewer_id: int | None = None,
) -> dict[str, Any]:
    """One page of a player's finished matches, newest first. Opponents' names link
    to the profiles ``viewer_id`` may open (matches/seats.py); four queries a page."""
    cond = r.seat_stats.c.user_id == user_id
    if variant:
        cond = cond & (r.seat_stats.c.variant == variant)
    if outcome:
        cond = cond & (r.seat_stats.c.outcome == outcome)
    total = int(
        (
            await conn.execute(select(func.count()).select_from(r.seat_stats).where(cond))
        ).scalar_one()
    )
    rows = (
        await conn.execute(
            select(r.seat_stats)
            .where(cond)
            .order_by(r.seat_stats.c.finished_at.desc(), r.seat_stats.c.match_id.desc())
            .limit(per_page)
            .offset((page - 1) * per_page)
        )
    ).all()
    ids = [x.match_id for x in rows]
    seats = await seats_of(conn, ids, viewer_id)
    # Rated means it changed this player's rating (``ratings._rated``: a match where
    # fewer than two people threw, or that they left before throwing, did not), which
    # the rating history records; a match between people is not enough.
    rated = set(
        (
            await conn.execute(
                select(r.rating_history.c.match_id).where(
                    r.rating_history.c.user_id == user_id, r.rating_history.c.match_id.in_(ids)
                )
            )
        ).scalars()
    )
    matches = []
    for x in rows:
        others = [o for o in seats.get(x.match_id, []) if o["seat"] != x.seat]
        matches.append(
            {
                "id": x.match_id,
                "variant": x.variant,
                "finished": iso(x.finished_at),
                "seats": x.seats,
                "rated": x.match_id in rated,
                "place": x.place,
                "outcome": x.outcome,
                "opponents": [o["name"] or "?" for o in others],
                "opponent_seats": [
                    {"name": o["name"] or "?", "bot": o["bot"], "profile": o["profile"]}
                    for o in others
                ],
                "turns": x.turns,
                "jackpots": x.jackpots,
                "average_score": x.score_sum / x.turns if x.turns else None,
                "accuracy": x.best_choices / x.choices if x.choices else None,
            }
        )
    return {
        "total": total,
        "page": page,
        "pages": max(1, -(-total // per_page)),
        "matches": matches,
    }


def _viewer(actor: Actor | None) -> int | None:
    """Whose eyes a page is for: names link to the profiles they may open."""
    return actor.user_id if actor else None


def _filters(variant: str | None, result: str | None) -> tuple[str | None, str | None]:
    variant = variant or None
    result = result or None
    if variant is not None and variant not in VARIANTS:
        raise invalid("variant must be 'jackpot' or 'classic', not %(given)s", given=repr(variant))
    if result is not None and result not in OUTCOMES:
        raise invalid("result must be 'won', 'drew' or 'lost', not %(given)s", given=repr(result))
    return variant, result


@router.get("/players/{name}", include_in_schema=False)
async def profile_html(name: str, request: Request) -> Response:
    actor = await current_actor(request)
    async with db_of(request).read() as conn:
        player = await _player(conn, name, actor.user_id if actor else None)
        data = await profile_data(conn, player.id)
        recent = await history_data(
            conn, player.id, None, None, 1, per_page=10, viewer_id=_viewer(actor)
        )
        dailies = await player_dailies(conn, player.id, _viewer(actor), utcnow())
        played = await player_tournaments(conn, player.id, _viewer(actor))
    return await render(
        request,
        "player.html",
        {
            "player": player,
            "data": data,
            "recent": recent["matches"],
            "dailies": dailies,
            "tournaments": played,
            "mine": actor is not None and actor.user_id == player.id,
            "provisional_sigma": PROVISIONAL_SIGMA,
        },
    )


@router.get("/players/{name}/history", include_in_schema=False)
async def history_html(
    name: str,
    request: Request,
    variant: str | None = None,
    result: str | None = None,
    page: int = Query(1, ge=1, le=100000),
) -> Response:
    v, o = _filters(variant, result)
    actor = await current_actor(request)
    async with db_of(request).read() as conn:
        player = await _player(conn, name, actor.user_id if actor else None)
        data = await history_data(conn, player.id, v, o, page, viewer_id=_viewer(actor))
    return await render(
        request,
        "history.html",
        {
            "player": player,
            "data": data,
            "variant": v,
            "result": o,
            "variants": VARIANTS,
            "outcomes": OUTCOMES,
        },
    )


@router.get("/api/players/{name}")
async def profile_api(name: str, request: Request) -> dict[str, Any]:
    actor = await current_actor(request)
    async with db_of(request).read() as conn:
        player = await _player(conn, name, actor.user_id if actor else None)
        data = await profile_data(conn, player.id)
        dailies = await player_dailies(conn, player.id, _viewer(actor), utcnow())
        played = await player_tournaments(conn, player.id, _viewer(actor))
    for v in data["variants"]:
        v.pop("chart")
    return {"name": player.name, **data, "dailies": dailies, "tournaments": played}


@router.get("/api/players/{name}/matches")
async def history_api(
    name: str,
    request: Request,
    variant: str | None = None,
    result: str | None = None,
    page: int = Query(1, ge=1, le=100000),
) -> dict[str, Any]:
    v, o = _filters(variant, result)
    actor = await current_actor(request)
    async with db_of(request).read() as conn:
        player = await _player(conn, name, actor.user_id if actor else None)
        data = await history_data(conn, player.id, v, o, page, viewer_id=_viewer(actor))
    return {"name": player.name, **data}


@router.get("/api/players/{name}/records")
async def records_api(
    name: str,
    request: Request,
    page: int = Query(1, ge=1, le=100000),
    limit: int | None = None,
) -> Response:
    """The player's finished matches as ``jackpot-record/1``, one JSON per line, oldest
    first, ``limit`` a page (at most ``JACKPOT_RECORDS_PAGE``, its default): a page
    shorter than ``limit`` is the last. ``X-Total-Count`` says how many there are in
    all. Streamed. Unpaged, 2,000 matches made for the purpose took 2 s a request,
    and a few requests in a loop held up every other answer of the site."""
    most = settings_of(request).records_page
    size = most if limit is None else limit
    if not 1 <= size <= most:
        raise invalid("limit must be from 1 to %(most)s, not %(given)s", most=most, given=size)
    actor = await current_actor(request)
    db = db_of(request)
    async with db.read() as conn:
        player = await _player(conn, name, actor.user_id if actor else None)
        mine = r.seat_stats.c.user_id == player.id
        total = int(
            (
                await conn.execute(select(func.count()).select_from(r.seat_stats).where(mine))
            ).scalar_one()
        )
        ids = (
            (
                await conn.execute(
                    select(r.seat_stats.c.match_id)
                    .where(mine)
                    .order_by(r.seat_stats.c.finished_at, r.seat_stats.c.match_id)
                    .limit(size)
                    .offset((page - 1) * size)
                )
            )
            .scalars()
            .all()
        )

    async def lines() -> AsyncIterator[bytes]:
        for start in range(0, len(ids), 100):
            async with db.read() as conn:
                for match_id in ids[start : start + 100]:
                    rec = await load_record(conn, match_id)
                    yield (json.dumps(rec, separators=(",", ":")) + "\n").encode()

    filename = f"jackpot-{player.name.replace(' ', '_')}-records.jsonl"
    return StreamingResponse(
        lines(),
        media_type="application/x-ndjson",
        headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "X-Total-Count": str(total),
        },
    )
