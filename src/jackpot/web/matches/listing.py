"""Lists of matches: the lobby and a player's own matches."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, case, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.clock import iso, utcnow
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.players import player_ratings
from jackpot.web.matches.seats import seats_of
from jackpot.web.matches.views import daily_day, never_threw


async def lobby_matches(conn: AsyncConnection, limit: int = 100) -> list[dict[str, Any]]:
    """Public matches still waiting for players, newest first, with their seats."""
    rows = (
        await conn.execute(
            select(
                t.matches.c.id,
                t.matches.c.variant,
                t.matches.c.seat_count,
                t.matches.c.deadline_seconds,
                t.matches.c.spares,
                t.matches.c.created_at,
                t.matches.c.expires_at,
            )
            .where(
                t.matches.c.status == "waiting",
                t.matches.c.private.is_(False),
                # Not one whose time is up and the sweeper has yet to call off.
                or_(t.matches.c.expires_at.is_(None), t.matches.c.expires_at > utcnow()),
            )
            .order_by(t.matches.c.created_at.desc())
            .limit(limit)
        )
    ).all()
    ids = [r.id for r in rows]
    seats: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
    if ids:
        # Each person's rating in the match's variant beside their name (none before
        # their first rated match).
        rated = and_(
            player_ratings.c.user_id == t.seats.c.user_id,
            player_ratings.c.variant == t.matches.c.variant,
        )
        for s in (
            await conn.execute(
                select(
                    t.seats.c.match_id,
                    t.seats.c.name,
                    t.seats.c.is_bot,
                    player_ratings.c.rating,
                    player_ratings.c.provisional,
                )
                .join(t.matches, t.matches.c.id == t.seats.c.match_id)
                .outerjoin(player_ratings, rated)
                .where(t.seats.c.match_id.in_(ids))
                .order_by(t.seats.c.match_id, t.seats.c.seat)
            )
        ).all():
            shown = (
                None
                if s.rating is None
                else {"rating": int(s.rating), "provisional": bool(s.provisional)}
            )
            seats[s.match_id].append({"name": s.name, "bot": bool(s.is_bot), "rating": shown})
    return [
        {
            "id": r.id,
            "variant": r.variant,
            "seats": seats[r.id],
            "free": sum(1 for s in seats[r.id] if s["name"] is None),
            "deadline_seconds": r.deadline_seconds,
            "spares": r.spares,
            "created": iso(r.created_at),
            # When it is called off if its seats are not all taken by then.
            "expires_at": iso(r.expires_at),
        }
        for r in rows
    ]


async def my_matches(conn: AsyncConnection, user_id: int, limit: int = 200) -> list[dict[str, Any]]:
    """The player's matches: those where it is their throw first (soonest deadline
    first), then the ones under way, those waiting for players, and the finished
    ones, newest first (the same order on SQLite and PostgreSQL, which sort nulls
    apart).

    Each names its opponents and whose throw it is, with that throw's deadline
    whoever must make it, so the list answers "what is waiting on whom" without
    opening every match. Two queries, however many matches."""
    your_turn = and_(t.matches.c.status == "playing", t.matches.c.turn_seat == t.seats.c.seat)
    rows = (
        await conn.execute(
            select(
                t.matches.c.id,
                t.matches.c.variant,
                t.matches.c.status,
                t.matches.c.due_at,
                t.matches.c.turn_seat,
                t.matches.c.created_at,
                t.matches.c.result,
                t.matches.c.started_at,
                t.matches.c.finished_at,
                t.matches.c.expires_at,
                t.matches.c.state,
                t.matches.c.client_seed,
                t.seats.c.seat,
                your_turn.label("your_turn"),
            )
            .join(t.seats, t.seats.c.match_id == t.matches.c.id)
            .where(t.seats.c.user_id == user_id, t.seats.c.is_bot.is_(False))
            .order_by(
                case(
                    (your_turn, 0),
                    (t.matches.c.status == "playing", 1),
                    (t.matches.c.status == "waiting", 2),
                    else_=3,
                ),
                t.matches.c.due_at.is_(None),  # a bot's throw (no clock) after the clocks
                t.matches.c.due_at,
                t.matches.c.created_at.desc(),
            )
            .limit(limit)
        )
    ).all()
    seats = await seats_of(conn, [r.id for r in rows], user_id)
    return [_my_row(r, seats[r.id]) for r in rows]


def _daily(r: Any) -> dict[str, Any] | None:
    """A daily entry's day and turn (matches/views.py's ``daily_of`` from the row's
    snapshot, without decoding it); None for any other match. Its result, once it
    has one, says jackpots and total instead of a place."""
    state = r.state or {}
    if state.get("daily_turns") is None:
        return None
    return {
        "date": daily_day(r.client_seed),
        "turn": state.get("round"),
        "turns": state["daily_turns"],
        "jackpots": (r.result or {}).get("jackpots"),
        "total": (r.result or {}).get("total"),
    }


def _my_row(r: Any, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """One row of "My matches": the match, who else sits in it, and whose throw it is."""
    result = r.result or {}
    places = result.get("places") or []
    playing = r.status == "playing"
    turn = next((s for s in seats if playing and s["seat"] == r.turn_seat), None)
    return {
        "id": r.id,
        "variant": r.variant,
        "status": r.status,
        "your_turn": bool(r.your_turn),
        "due_at": iso(r.due_at) if playing else None,
        "seat": r.seat,
        "place": places[r.seat] if r.seat < len(places) else None,
        # In Classic, a seat after the one who shut the box never threw.
        "no_turn": never_threw(r.result, (r.state or {}).get("out") or [], r.seat),
        "created": iso(r.created_at),
        "opponents": [_opponent(s) for s in seats if s["seat"] != r.seat],
        "turn_seat": turn["seat"] if turn else None,
        "turn_name": turn["name"] if turn else None,
        "turn_bot": bool(turn and turn["bot"]),
        # Called off by the sweeper when its time in the lobby ran out (not by its creator).
        "expired": r.status == "finished"
        and r.started_at is None
        and r.expires_at is not None
        and r.finished_at is not None
        and r.finished_at >= r.expires_at,
        "expires_at": iso(r.expires_at) if r.status == "waiting" else None,
        "daily": _daily(r),
        **_how_it_ended(r, seats),
    }


def _how_it_ended(r: Any, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """Whether the player went out, and why ("timeout" or "resigned"), and, when the
    match ended because the last other seat left, who that was and why: a match lost
    or won on time reads differently from one played to the end."""
    state = r.state or {}
    out: list[str | None] = state.get("out") or []
    left: list[int] = state.get("left") or []
    mine = out[r.seat] if r.seat < len(out) else None
    ended_by = None
    still_in = [s for s, why in enumerate(out) if why is None]
    if r.status == "finished" and mine is None and left and len(still_in) == 1:
        last = left[-1]
        name = next((s["name"] for s in seats if s["seat"] == last), None)
        ended_by = {"name": name, "reason": out[last]}
    return {"out": mine, "ended_by": ended_by}


def _opponent(seat: dict[str, Any]) -> dict[str, Any]:
    """A seat as the list shows it; a free seat has no name. Strengths stay out:
    the list has no room for them and the match page shows them at the end."""
    return {"name": seat["name"], "bot": seat["bot"], "profile": seat["profile"]}
