"""What the API and pages show of a tournament: settings, standings, pairings, your next step.

Points and Buchholz are exact fractions, written as in the export (``"3/2"``), so a
client adds them up as the standings do. The standings stand after the last round
whose matches have all ended; before the start they list the entrants at their
current ratings.
"""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.clock import iso
from jackpot.web.base.tables.core import matches
from jackpot.web.base.tables.players import player_ratings
from jackpot.web.base.tables.tournaments import tournaments
from jackpot.web.tournaments.rounds import NEWCOMER_RATING
from jackpot.web.tournaments.store import Tournament

#: Tournaments each part of the list shows at most.
LISTED = 50


def fraction_text(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def settings_of(row: Any) -> dict[str, Any]:
    return {
        "id": row["id"],
        "name": row["name"],
        "variant": row["variant"],
        "table_size": row["table_size"],
        "rounds": row["rounds"],
        "deadline_seconds": row["deadline_seconds"],
        "spares": row["spares"],
        "round_seconds": row["round_seconds"],
        "starts_at": iso(row["starts_at"]),
        "max_players": row["max_players"],
        "private": row["private"],
        "status": row["status"],
        "round": row["round"],
        "round_ends_at": iso(row["round_ends_at"]),
        "entered": row["entered"],
    }


async def standings_view(conn: AsyncConnection, t: Tournament) -> list[dict[str, Any]]:
    """Everybody in standing order: name, points, Buchholz, rating, place, withdrawn."""
    if t.row["status"] == "entering":
        current = await _current_ratings(conn, t)
        order = sorted(t.entries, key=lambda e: (-current[e.user_id], e.name))
        return [
            {
                "name": e.name,
                "points": "0",
                "buchholz": "0",
                "rating": current[e.user_id],
                "rank": n,
                "withdrawn": False,
            }
            for n, e in enumerate(order, start=1)
        ]
    if "standings_view" not in t.memo:
        t.memo["standings_view"] = _standings_rows(t)
    rows: list[dict[str, Any]] = t.memo["standings_view"]
    return rows


def _standings_rows(t: Tournament) -> list[dict[str, Any]]:
    return [
        {
            "name": t.entries[s.player].name,
            "points": fraction_text(s.points),
            "buchholz": fraction_text(s.buchholz),
            "rating": t.entries[s.player].rating,
            "rank": s.rank,
            "withdrawn": t.entries[s.player].withdrawn_round is not None,
        }
        for s in t.standings()
    ]


async def _current_ratings(conn: AsyncConnection, t: Tournament) -> dict[int, float]:
    ids = [e.user_id for e in t.entries]
    found = {uid: NEWCOMER_RATING for uid in ids}
    if ids:
        for r in await conn.execute(
            select(player_ratings.c.user_id, player_ratings.c.rating).where(
                player_ratings.c.variant == t.row["variant"], player_ratings.c.user_id.in_(ids)
            )
        ):
            found[r.user_id] = float(r.rating)
    return found


def pairings_view(t: Tournament) -> list[dict[str, Any]]:
    """Each round paired so far: its tables (match, players in joining order, places
    once ended) and its byes."""
    if "pairings_view" not in t.memo:
        t.memo["pairings_view"] = _pairing_rows(t)
    rows: list[dict[str, Any]] = t.memo["pairings_view"]
    return rows


def _pairing_rows(t: Tournament) -> list[dict[str, Any]]:
    out = []
    for r in range(1, t.round + 1):
        if r not in t.byes:
            continue
        out.append(
            {
                "round": r,
                "ends_at": iso(t.ends.get(r)),
                "tables": [
                    {
                        "table": table.table,
                        "match": table.match_id,
                        "players": [t.entries[p].name for p in table.players],
                        "places": list(table.places) if table.places is not None else None,
                    }
                    for table in t.tables.get(r, [])
                ],
                "byes": [t.entries[p].name for p in t.byes[r]],
            }
        )
    return out


async def next_step(
    conn: AsyncConnection, t: Tournament, user_id: int | None, now: datetime
) -> dict[str, Any] | None:
    """What the reader has to do next: ``enter``, ``wait`` (for the start), ``play``
    (their table's match), ``bye``, ``wait_round`` (their table is over), ``withdrawn``
    or ``done``; None for a reader who cannot take part."""
    status = t.row["status"]
    mine = t.entry_of(user_id)
    if user_id is None:
        return None
    if status == "entering":
        if mine is None:
            open_ = t.row["entered"] < t.row["max_players"] and t.row["starts_at"] > now
            return {"step": "enter"} if open_ else None
        return {"step": "wait", "starts_at": iso(t.row["starts_at"])}
    if mine is None or mine.number is None:
        return None
    if status == "finished":
        return {"step": "done", "place": mine.place}
    if mine.withdrawn_round is not None:
        return {"step": "withdrawn"}
    table = t.table_of(mine.number, t.round)
    if table is None:
        return {"step": "bye", "round": t.round}
    if table.places is not None:
        return {"step": "wait_round", "round": t.round, "match": table.match_id}
    playing = (
        await conn.execute(select(matches.c.status).where(matches.c.id == table.match_id))
    ).scalar_one()
    return {
        "step": "play" if playing == "playing" else "wait_round",
        "round": t.round,
        "table": table.table,
        "match": table.match_id,
    }


async def full_view(
    conn: AsyncConnection, t: Tournament, user_id: int | None, now: datetime
) -> dict[str, Any]:
    mine = t.entry_of(user_id)
    creator = t.row["creator_id"]
    return settings_of(t.row) | {
        "yours": creator is not None and creator == user_id,
        "entered_by_you": mine is not None,
        "standings": await standings_view(conn, t),
        "pairings": pairings_view(t),
        "next": await next_step(conn, t, user_id, now),
    }


async def listing(conn: AsyncConnection) -> dict[str, list[dict[str, Any]]]:
    """Public tournaments: upcoming (soonest first), running, finished (latest first)."""
    tt = tournaments
    public = tt.c.private.is_(False)
    parts = {
        "upcoming": (tt.c.status == "entering", tt.c.starts_at),
        "running": (tt.c.status == "playing", tt.c.started_at.desc()),
        "finished": (tt.c.status == "finished", tt.c.finished_at.desc()),
    }
    out: dict[str, list[dict[str, Any]]] = {}
    for part, (where, order) in parts.items():
        rows = await conn.execute(
            select(tt).where(public, where).order_by(order, tt.c.id).limit(LISTED)
        )
        out[part] = [settings_of(r) for r in rows.mappings()]
    return out
