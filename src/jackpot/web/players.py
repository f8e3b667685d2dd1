"""Leaderboard, player profiles, match history, record export, and the replay page.

Every list here is one query (or one more for the names of a page's opponents),
whatever its length: the leaderboard reads one index range of ``player_ratings``
and the profile sums ``seat_stats``, so nothing re-reads records per row.

Privacy: a profile and its history are public only for players who chose to be
on the leaderboard (the seed page's "only if you want one"); everybody else sees
their own. A finished match's record is public anyway (anyone may verify it), so
its replay is too.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from fractions import Fraction
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response, StreamingResponse
from sqlalchemy import func, select, true
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.engine import FULL, Variant
from jackpot.strategy.solver import expected_score_min, p_shut_max
from jackpot.web import models as t
from jackpot.web import models_ratings as r
from jackpot.web.actions import Actor, check_match_id, iso
from jackpot.web.charts import Series, legend, line_chart
from jackpot.web.deps import current_actor, db_of
from jackpot.web.errors import ApiError, invalid, not_found
from jackpot.web.profiles import match_seats, seat_links, seats_of
from jackpot.web.ratings import PROVISIONAL_SIGMA, display_rating
from jackpot.web.review import Review, review
from jackpot.web.views import load_record

router = APIRouter()

PER_PAGE = 50
HISTORY_PER_PAGE = 50
VARIANTS = ("jackpot", "classic")
OUTCOMES = ("won", "drew", "lost")


def _variant(value: str | None) -> str:
    value = value or "jackpot"
    if value not in VARIANTS:
        raise invalid(f"variant must be 'jackpot' or 'classic', not {value!r}")
    return value


def best_play_rate(variant: str) -> float:
    """The chance of shutting the box in a turn with the best play (exact, as a float)."""
    return float(p_shut_max(Variant(variant), FULL))


# -- the leaderboard -------------------------------------------------------------


#: (database URL, variant) -> (monotonic expiry, count of listed players).
_COUNTS: dict[tuple[str, str], tuple[float, int]] = {}
COUNT_SECONDS = 15.0


async def _listed_count(conn: AsyncConnection, variant: str, listed: Any) -> int:
    """How many players are listed, remembered for a few seconds.

    Counting is a scan of every listed entry of the index (16 ms for 68,000 on
    PostgreSQL here), paid by every page view only to print "page 1 of N"; a total
    a few seconds old is as good for that.
    """
    key = (str(conn.engine.url), variant)
    now = time.monotonic()
    hit = _COUNTS.get(key)
    if hit is not None and hit[0] > now:
        return hit[1]
    total = int(
        (
            await conn.execute(select(func.count()).select_from(r.player_ratings).where(listed))
        ).scalar_one()
    )
    _COUNTS[key] = (now + COUNT_SECONDS, total)
    return total


async def leaderboard_page(
    conn: AsyncConnection, variant: str, page: int, per_page: int = PER_PAGE
) -> dict[str, Any]:
    """One page of the leaderboard: listed players by rating, ranks shared by equal
    ratings (1, 1, 3). Three indexed queries, none per row."""
    listed = (r.player_ratings.c.variant == variant) & (r.player_ratings.c.listed == true())
    total = await _listed_count(conn, variant, listed)
    # The page's ids first, from the covering index alone: SQLite computes every
    # skipped OFFSET row in full, so a join here would cost a users lookup per
    # skipped row (120 ms for the last of 1,400 pages, measured); this way the
    # skipped rows are index entries only, and just the page is joined.
    page_ids = (
        select(r.player_ratings.c.user_id, r.player_ratings.c.rating)
        .where(listed)
        .order_by(r.player_ratings.c.rating.desc(), r.player_ratings.c.user_id.desc())
        .limit(per_page)
        .offset((page - 1) * per_page)
        .subquery()
    )
    rows = (
        await conn.execute(
            select(
                t.users.c.name,
                r.player_ratings.c.rating,
                r.player_ratings.c.matches,
                r.player_ratings.c.wins,
                r.player_ratings.c.jackpots,
                r.player_ratings.c.turns,
                r.player_ratings.c.score_sum,
            )
            .select_from(page_ids)
            .join(
                r.player_ratings,
                (r.player_ratings.c.user_id == page_ids.c.user_id)
                & (r.player_ratings.c.variant == variant),
            )
            .join(t.users, t.users.c.id == page_ids.c.user_id)
            .order_by(page_ids.c.rating.desc(), page_ids.c.user_id.desc())
        )
    ).all()
    players = []
    rank = 0
    for i, row in enumerate(rows):
        if i == 0:
            above = (
                await conn.execute(
                    select(func.count())
                    .select_from(r.player_ratings)
                    .where(listed, r.player_ratings.c.rating > row.rating)
                )
            ).scalar_one()
            rank = int(above) + 1
        elif row.rating != rows[i - 1].rating:
            rank = (page - 1) * per_page + i + 1
        players.append(
            {
                "rank": rank,
                "name": row.name,
                "rating": row.rating,
                "matches": row.matches,
                "wins": row.wins,
                "jackpots": row.jackpots,
                "turns": row.turns,
                "jackpot_rate": row.jackpots / row.turns if row.turns else None,
                "average_score": row.score_sum / row.turns if row.turns else None,
            }
        )
    return {
        "variant": variant,
        "page": page,
        "per_page": per_page,
        "total": total,
        "pages": max(1, -(-total // per_page)),
        "players": players,
    }


@router.get("/api/leaderboard")
async def leaderboard_api(
    request: Request,
    variant: str = "jackpot",
    page: int = Query(1, ge=1, le=100000),
    per_page: int = Query(PER_PAGE, ge=1, le=200),
) -> dict[str, Any]:
    """Players who chose to be listed and whose rating is no longer provisional."""
    async with db_of(request).read() as conn:
        return await leaderboard_page(conn, _variant(variant), page, per_page)


@router.get("/leaderboard", include_in_schema=False)
async def leaderboard_html(
    request: Request, variant: str = "jackpot", page: int = Query(1, ge=1, le=100000)
) -> Response:
    from jackpot.web.pages import render

    async with db_of(request).read() as conn:
        board = await leaderboard_page(conn, _variant(variant), page)
    return await render(
        request,
        "leaderboard.html",
        {"board": board, "variants": VARIANTS, "provisional_sigma": PROVISIONAL_SIGMA},
    )


# -- profiles --------------------------------------------------------------------


async def _player(conn: AsyncConnection, name: str, viewer: int | None) -> Any:
    """The account called ``name``, if the viewer may see it (else 404 either way,
    so a private profile does not even confirm the name exists)."""
    row = (
        await conn.execute(
            select(t.users.c.id, t.users.c.name, t.users.c.leaderboard).where(
                t.users.c.name_key == name.lower(), t.users.c.is_guest.is_(False)
            )
        )
    ).first()
    if row is None or not (row.leaderboard or row.id == viewer):
        raise not_found(f"there is no public player called {name}")
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
        series = [Series("Rating", [(0, float(start)), *points])] if points else []
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
                "history": [
                    {"match": i + 1, "rating": h.rating, "at": iso(h.at)}
                    for i, h in enumerate(history)
                ],
                "chart": line_chart(
                    series,
                    label=f"{v.capitalize()} rating after each rated match",
                    x_name="rated match",
                    y_name="rating",
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
    to the profiles ``viewer_id`` may open (profiles.py); three queries a page."""
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
    seats = await seats_of(conn, [x.match_id for x in rows], viewer_id)
    matches = []
    for x in rows:
        others = [o for o in seats.get(x.match_id, []) if o["seat"] != x.seat]
        matches.append(
            {
                "id": x.match_id,
                "variant": x.variant,
                "finished": iso(x.finished_at),
                "seats": x.seats,
                "rated": x.humans >= 2,
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
        raise invalid(f"variant must be 'jackpot' or 'classic', not {variant!r}")
    if result is not None and result not in OUTCOMES:
        raise invalid(f"result must be 'won', 'drew' or 'lost', not {result!r}")
    return variant, result


@router.get("/players/{name}", include_in_schema=False)
async def profile_html(name: str, request: Request) -> Response:
    from jackpot.web.pages import render

    actor = await current_actor(request)
    async with db_of(request).read() as conn:
        player = await _player(conn, name, actor.user_id if actor else None)
        data = await profile_data(conn, player.id)
        recent = await history_data(
            conn, player.id, None, None, 1, per_page=10, viewer_id=_viewer(actor)
        )
    return await render(
        request,
        "player.html",
        {
            "player": player,
            "data": data,
            "recent": recent["matches"],
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
    from jackpot.web.pages import render

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
    for v in data["variants"]:
        v.pop("chart")
    return {"name": player.name, **data}


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
async def records_api(name: str, request: Request) -> Response:
    """Every finished match of the player as ``jackpot-record/1``, one JSON per line,
    oldest first; streamed, so a long history never sits in memory at once."""
    actor = await current_actor(request)
    db = db_of(request)
    async with db.read() as conn:
        player = await _player(conn, name, actor.user_id if actor else None)
        ids = (
            (
                await conn.execute(
                    select(r.seat_stats.c.match_id)
                    .where(r.seat_stats.c.user_id == player.id)
                    .order_by(r.seat_stats.c.finished_at, r.seat_stats.c.match_id)
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
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


# -- replay and analysis ---------------------------------------------------------


def _pct(p: Fraction | None) -> str | None:
    if p is None:
        return None
    return f"{float(p) * 100:.2f}%"


def replay_data(rev: Review) -> dict[str, Any]:
    """What replay.js needs: every step with its options valued, JSON-safe."""
    steps = []
    for s in rev.steps:
        steps.append(
            {
                "kind": s.kind,
                "seat": s.seat,
                "round": s.round,
                "n": s.n,
                "dice": list(s.dice),
                "cover": None if s.cover is None else list(s.cover),
                "reason": s.reason,
                "open_before": list(s.open_before),
                "open_after": list(s.open_after),
                "totals": list(s.totals),
                "options": [
                    {
                        "tiles": list(o.tiles),
                        "p": float(o.p_shut),
                        "p_exact": str(o.p_shut),
                        "p_text": _pct(o.p_shut),
                        "e": round(float(o.expected_score), 3),
                    }
                    for o in s.options
                ],
                "best": None if s.best is None else list(s.best),
                "given_away": None if s.given_away is None else float(s.given_away),
                "given_away_text": _pct(s.given_away),
                "turn_score": s.turn_score,
                "shut": s.shut,
            }
        )
    return {"variant": str(rev.record.variant), "steps": steps}


@router.get("/matches/{match_id}/replay", include_in_schema=False)
async def replay_html(match_id: str, request: Request) -> Response:
    from jackpot.web.pages import render

    actor = await current_actor(request)
    async with db_of(request).read() as conn:
        rec = await load_record(conn, match_id)
        profiles = [s["profile"] for s in await match_seats(conn, match_id, _viewer(actor))]
    if rec["result"] is None or rec["server_seed"] is None:
        raise ApiError(
            409,
            "match_not_finished",
            "the replay and its analysis open when the match has ended",
        )
    try:
        rev = review(rec)
    except ValueError as exc:
        raise ApiError(500, "bad_record", str(exc)) from None
    names = [s["name"] or f"Seat {i + 1}" for i, s in enumerate(rec["seats"])]
    series = [
        Series(
            names[i],
            [(k + 1, None if v is None else float(v)) for k, v in enumerate(sr.totals_by_round)],
        )
        for i, sr in enumerate(rev.seats)
    ]
    seats = []
    for i, sr in enumerate(rev.seats):
        seats.append(
            {
                "name": names[i],
                "profile": profiles[i] if i < len(profiles) else None,
                "bot": rec["seats"][i]["bot"],
                "place": rec["result"]["places"][i],
                "total": rec["result"]["totals"][i],
                "turns": sr.turns,
                "jackpots": sr.jackpots,
                "choices": sr.choices,
                "best_choices": sr.best_choices,
                "accuracy": sr.accuracy,
                "given_away_per_turn": sr.given_away_per_turn,
                "totals_by_round": sr.totals_by_round,
            }
        )
    data = replay_data(rev)
    data["names"] = names
    return await render(
        request,
        "replay.html",
        {
            "rec": rec,
            "seats": seats,
            "rounds": rev.rounds,
            "chart": line_chart(
                series,
                label="Running totals after each round, one line per seat",
                x_name="round",
                y_name="running total",
            ),
            "legend": legend(series),
            "steps": data["steps"],
            "replay_json": json.dumps(data).replace("<", "\\u003c"),
        },
    )


# -- who sits where -----------------------------------------------------------------


@router.get("/api/matches/{match_id}/seats")
async def seats_api(match_id: str, request: Request) -> dict[str, Any]:
    """Per seat, the profile its name links to and a bot's strength once the match is
    over. Not part of the match state (the live events do not carry them): the match
    page asks again after a join, a leave or the end, which is when they change."""
    check_match_id(match_id)
    actor = await current_actor(request)
    async with db_of(request).read() as conn:
        seats = await match_seats(conn, match_id, actor.user_id if actor else None)
    return {"seats": seat_links(seats)}


# -- live odds in practice and bot matches -----------------------------------------


@router.get("/api/matches/{match_id}/odds")
async def odds_api(match_id: str, request: Request) -> dict[str, Any]:
    """The exact odds of the position on the board now, for the "show odds" switch.

    Only where nobody can be helped against another person: practice alone and
    matches against bots, or any match once it has ended. Between people, during
    play, it is refused.
    """
    from jackpot.engine import Match
    from jackpot.web.actions import _match_row, _seat_rows
    from jackpot.web.review import value_options

    async with db_of(request).read() as conn:
        row = await _match_row(conn, match_id)
        seat_rows = await _seat_rows(conn, match_id)
    people = sum(1 for s in seat_rows if not s["is_bot"])
    if people >= 2 and row["status"] != "finished":
        raise ApiError(
            403,
            "odds_hidden",
            "odds are shown during play only in practice and against the bot; "
            "between people, the replay shows them once the match has ended",
        )
    m = Match.from_dict(row["state"]) if row["state"] is not None else None
    turn = m.turn if m is not None else None
    if m is None or turn is None:
        return {"seat": None, "open": [], "dice": None, "p_shut": None, "options": []}
    variant = Variant(row["variant"])
    body: dict[str, Any] = {
        "seat": turn.seat,
        "open": sorted(turn.open),
        "dice": None if turn.dice is None else list(turn.dice),
        "p_shut": _pct(p_shut_max(variant, turn.open)),
        "options": [],
        "best": None,
    }
    if turn.dice is not None and turn.options:
        rows, best = value_options(variant, turn.open, turn.dice)
        body["best"] = list(best)
        body["options"] = [
            {"tiles": list(o.tiles), "p_text": _pct(o.p_shut), "p_exact": str(o.p_shut)}
            for o in rows
        ]
    return body
