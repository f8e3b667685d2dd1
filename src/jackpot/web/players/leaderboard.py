"""The leaderboard: listed players by rating or by skill, a page at a time, as JSON and as a page.

Only players who chose to be listed and whose rating is no longer provisional are on
it (docs/ratings.md). A page is one index range of ``player_ratings``, whatever its
number: by rating, highest first, on ``ix_player_ratings_board``; by skill (the
winning chance given away per decision, lowest first, players with no decision left
out), on ``ix_player_ratings_skill``.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from sqlalchemy import func, select, true
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.edge.http import db_of
from jackpot.web.base.edge.templates import render
from jackpot.web.base.errors import invalid
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables import players as r
from jackpot.web.players.ratings import PROVISIONAL_SIGMA
from jackpot.web.players.standing import VARIANTS, check_variant, matches_to_settle

router = APIRouter()

PER_PAGE = 50
#: The orders a page may be in: by rating (the default) or by skill.
SORTS = ("rating", "skill")

#: (database URL, variant, order) -> (monotonic expiry, count of players listed in it).
_COUNTS: dict[tuple[str, str, str], tuple[float, int]] = {}
COUNT_SECONDS = 15.0


def check_sort(value: str | None) -> str:
    """The order asked for (by rating when none), or 422."""
    value = value or "rating"
    if value not in SORTS:
        raise invalid("sort must be 'rating' or 'skill', not %(given)s", given=repr(value))
    return value


async def _listed_count(conn: AsyncConnection, variant: str, sort: str, listed: Any) -> int:
    """How many players are listed, remembered for a few seconds.

    Counting is a scan of every listed entry of the index (16 ms for 68,000 on
    PostgreSQL here), paid by every page view only to print "page 1 of N"; a total
    a few seconds old is as good for that.
    """
    key = (str(conn.engine.url), variant, sort)
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
    conn: AsyncConnection, variant: str, page: int, per_page: int = PER_PAGE, sort: str = "rating"
) -> dict[str, Any]:
    """One page of the leaderboard: listed players by rating (highest first) or by
    skill (least given away per decision first), ranks shared by equal values
    (1, 1, 3). Three indexed queries, none per row."""
    pr = r.player_ratings
    listed = (pr.c.variant == variant) & (pr.c.listed == true())
    if sort == "skill":
        listed = listed & pr.c.skill.is_not(None)
        key, order = pr.c.skill, (pr.c.skill.asc(), pr.c.user_id.asc())
    else:
        key, order = pr.c.rating, (pr.c.rating.desc(), pr.c.user_id.desc())
    total = await _listed_count(conn, variant, sort, listed)
    # The page's ids first, from the covering index alone: SQLite computes every
    # skipped OFFSET row in full, so a join here would cost a users lookup per
    # skipped row (120 ms for the last of 1,400 pages, measured); this way the
    # skipped rows are index entries only, and just the page is joined.
    page_ids = (
        select(pr.c.user_id, key.label("key"))
        .where(listed)
        .order_by(*order)
        .limit(per_page)
        .offset((page - 1) * per_page)
        .subquery()
    )
    page_order = (
        (page_ids.c.key.asc(), page_ids.c.user_id.asc())
        if sort == "skill"
        else (page_ids.c.key.desc(), page_ids.c.user_id.desc())
    )
    rows = (
        await conn.execute(
            select(
                t.users.c.name,
                page_ids.c.key,
                r.player_ratings.c.rating,
                r.player_ratings.c.matches,
                r.player_ratings.c.wins,
                r.player_ratings.c.jackpots,
                r.player_ratings.c.turns,
                r.player_ratings.c.score_sum,
                r.player_ratings.c.decisions,
                r.player_ratings.c.skill,
            )
            .select_from(page_ids)
            .join(
                r.player_ratings,
                (r.player_ratings.c.user_id == page_ids.c.user_id)
                & (r.player_ratings.c.variant == variant),
            )
            .join(t.users, t.users.c.id == page_ids.c.user_id)
            .order_by(*page_order)
        )
    ).all()
    players = []
    rank = 0
    for i, row in enumerate(rows):
        if i == 0:
            ahead = key < row.key if sort == "skill" else key > row.key
            above = (
                await conn.execute(
                    select(func.count())
                    .select_from(r.player_ratings)
                    .where(listed, ahead)
                )
            ).scalar_one()
            rank = int(above) + 1
        elif row.key != rows[i - 1].key:
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
                "decisions": row.decisions,
                "given_away_per_decision": row.skill,
            }
        )
    return {
        "variant": variant,
        "sort": sort,
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
    sort: str = "rating",
) -> dict[str, Any]:
    """Players who chose to be listed and whose rating is no longer provisional, by
    rating (``sort=rating``, the default) or by skill (``sort=skill``: the winning
    chance given away per decision, lowest first; only players with a decision)."""
    variant, sort = check_variant(variant), check_sort(sort)
    async with db_of(request).read() as conn:
        return await leaderboard_page(conn, variant, page, per_page, sort)


@router.get("/leaderboard", include_in_schema=False)
async def leaderboard_html(
    request: Request,
    variant: str = "jackpot",
    page: int = Query(1, ge=1, le=100000),
    sort: str = "rating",
) -> Response:
    variant, sort = check_variant(variant), check_sort(sort)
    async with db_of(request).read() as conn:
        board = await leaderboard_page(conn, variant, page, sort=sort)
    return await render(
        request,
        "leaderboard.html",
        {
            "board": board,
            "variants": VARIANTS,
            "provisional_sigma": PROVISIONAL_SIGMA,
            "settle": matches_to_settle(),
        },
    )
