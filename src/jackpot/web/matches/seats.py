"""Who sits in a match's seats as the pages show them: profile links, bot strengths.

A name links only where the link would open: the seat belongs to an account (not a
guest, not a bot) whose profile the viewer may see, that is, a player who chose to
be listed, or the viewer themselves (players/profile.py gives everybody else a 404). The
link uses the account's current name, since the name kept on the seat is the one it
had when it sat down and stays so in the match's record.

Beside each person's name, their rating in the match's variant (provisional ones
marked so: a new player's number still moves a lot), as the match page and the
watch list show it; null for a bot or a person not rated yet.

Every function here is one query, whatever the number of matches, so a list page
pays for its seats once, not once per row.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import and_, case, false, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql.elements import ColumnElement

from jackpot.web.base.errors import not_found
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables import players as r
from jackpot.web.matches.disclosure import shown_strength


def _public_to(viewer_id: int | None) -> ColumnElement[bool]:
    """True for an account whose profile the viewer may open."""
    mine = t.users.c.id == viewer_id if viewer_id is not None else false()
    return and_(
        t.users.c.is_guest.is_(False),
        t.users.c.email.is_not(None),
        or_(t.users.c.leaderboard.is_(True), mine),
    )


def _seat_query(viewer_id: int | None) -> Any:
    """Seats with their profile name (or null), matches' status beside them."""
    profile = case((and_(t.seats.c.is_bot.is_(False), _public_to(viewer_id)), t.users.c.name))
    return (
        select(
            t.seats.c.match_id,
            t.seats.c.seat,
            t.seats.c.name,
            t.seats.c.is_bot,
            t.seats.c.strength,
            t.matches.c.status,
            t.matches.c.seed_hidden_until,
            profile.label("profile"),
            r.player_ratings.c.rating,
            r.player_ratings.c.provisional,
        )
        .join(t.matches, t.matches.c.id == t.seats.c.match_id)
        .outerjoin(t.users, t.users.c.id == t.seats.c.user_id)
        .outerjoin(
            r.player_ratings,
            and_(
                r.player_ratings.c.user_id == t.seats.c.user_id,
                r.player_ratings.c.variant == t.matches.c.variant,
                t.seats.c.is_bot.is_(False),
            ),
        )
        .order_by(t.seats.c.match_id, t.seats.c.seat)
    )


def _seat_view(row: Any) -> dict[str, Any]:
    """One seat for a page. ``strength`` stays null while the seed is hidden
    (matches/disclosure.py): it is drawn from the seed, so showing it earlier would
    tell something of the dice."""
    return {
        "seat": row.seat,
        "name": row.name,
        "bot": bool(row.is_bot),
        "profile": row.profile,
        "strength": shown_strength(row._mapping, row._mapping),
        "rating": rating_of(row),
    }


def rating_of(row: Any) -> dict[str, Any] | None:
    """A seat's rating as the pages show it, or None (a bot, a person not rated yet)."""
    if row.rating is None:
        return None
    return {"value": int(row.rating), "provisional": bool(row.provisional)}


async def seats_of(
    conn: AsyncConnection, match_ids: Iterable[str], viewer_id: int | None
) -> dict[str, list[dict[str, Any]]]:
    """The seats of each match, in seat order (one query for them all)."""
    ids = list(dict.fromkeys(match_ids))
    out: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
    if not ids:
        return out
    rows = await conn.execute(_seat_query(viewer_id).where(t.seats.c.match_id.in_(ids)))
    for row in rows.all():
        out[row.match_id].append(_seat_view(row))
    return out


async def match_seats(
    conn: AsyncConnection, match_id: str, viewer_id: int | None
) -> list[dict[str, Any]]:
    """One match's seats; 404 for a match that does not exist (every match has seats)."""
    seats = (await seats_of(conn, [match_id], viewer_id))[match_id]
    if not seats:
        raise not_found("there is no match %(match)s", match=match_id)
    return seats


def seat_links(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the match page adds to its state's seats: the profile each name links
    to, a bot's strength and a person's rating, each null where there is none (yet)."""
    return [
        {"profile": s["profile"], "strength": s["strength"], "rating": s["rating"]} for s in seats
    ]
