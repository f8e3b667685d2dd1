"""What the API and the pages show of a match: its public state and its record.

Nothing here may reveal a future throw: the server seed and the bot strengths drawn
from it are shown only where disclosure.py allows.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.engine import RULES, Match, Variant, may_throw_one_die
from jackpot.fair.daily import BY_NUMBER, BY_POSITION, DailyDeal
from jackpot.fair.entries import SEED_BY
from jackpot.fair.record import record_format
from jackpot.web.base.clock import iso
from jackpot.web.base.storage.snapshots import match_of
from jackpot.web.base.tables import core as t
from jackpot.web.matches.disclosure import shown_seed, shown_strengths
from jackpot.web.matches.origin import origin_of
from jackpot.web.matches.store import match_row, seat_rows, shown_match_row


def autoplay_of(seat: Any) -> dict[str, bool] | None:
    """A person's autoplay in the match (docs/autoplay.md); None for a bot, before the
    start, and in a match started before autoplay."""
    if seat["is_bot"] or seat["autoplay_throws"] is None:
        return None
    return {"throws": bool(seat["autoplay_throws"]), "single_covers": bool(seat["autoplay_covers"])}


def never_threw(result: Any, out: Sequence[str | None], seat: int) -> bool:
    """Whether ``seat`` of a finished match never threw, as its result shows: still in,
    no shut box and no points while another seat shut the box. In Classic nobody throws
    after a shut box (its total of 0 is no score); in Jackpot every seat still in
    finishes the round, and a finished turn scores above 0 unless it shut the box. A
    daily entry's result (one seat, turn scores) has no shut boxes to read."""
    if not result or "shut" not in result or (seat < len(out) and out[seat] is not None):
        return False
    shut: list[int | None] = result["shut"]
    return shut[seat] is None and result["totals"][seat] == 0 and any(
        n is not None for n in shut
    )


def daily_day(client_seed: str | None) -> str:
    """A daily entry's day, read from its client seed (``daily-<day>-<variant>``:
    fair.daily_client_seed), which the entry was made with."""
    return str(client_seed).removeprefix("daily-")[:10]


def daily_of(row: Any, m: Match | None) -> dict[str, Any] | None:
    """Where a daily entry stands: its day, the turn played (``m.round``: turn t + 1
    is round t + 1), of how many, and its jackpots so far; None for any other match."""
    if m is None or m.daily_turns is None:
        return None
    return {
        "date": daily_day(row["client_seed"]),
        "turn": m.round,
        "turns": m.daily_turns,
        "jackpots": sum(1 for score in m.turn_scores if score == 0),
    }


def shown_parts(
    row: Any, now: datetime | None = None, *, ending: bool = False
) -> list[dict[str, Any]] | None:
    """A seed made of parts: each part's commitment, and the parts themselves once the
    seed they make may be shown (disclosure.py); None for a seed drawn whole."""
    kept = row["parts"]
    if not kept:
        return None
    public = shown_seed(row, now, ending=ending) is not None
    return [{"commitment": p["commitment"], "part": p["part"] if public else None} for p in kept]
def spares_left(m: Match | None, seat: int, spares: int) -> int:
    """The spare deadlines ``seat`` has left: the engine keeps them once the match
    started; before, every seat has all the match gives."""
    if m is None or seat >= len(m.spares_left):
        return spares
    return m.spares_left[seat]


def public_state(
    row: Any, seats_in: list[Any], viewer_id: int | None, match: Match | None = None
) -> dict[str, Any]:
    """The state every viewer may see, the viewer's own seat marked "you" (``match``:
    the engine state of ``row`` when the caller has it decoded already)."""
    m = match if match is not None else match_of(row)
    spares = int(row["spares"])
    seats = []
    for s in seats_in:
        i = s["seat"]
        seats.append(
            {
                "name": s["name"],
                "bot": bool(s["is_bot"]),
                "you": viewer_id is not None and s["user_id"] == viewer_id and not s["is_bot"],
                "out": m.out[i] if m is not None else None,
                "total": m.totals[i] if m is not None else 0,
                "autoplay": autoplay_of(s),
                # Who made this person's client seed: "server" when they sent none,
                # so no page tells them they added a part of their own.
                "seed_by": s["seed_by"],
                "spares_left": spares_left(m, i, spares),
            }
        )
    turn = None
    if m is not None and m.turn is not None:
        tn = m.turn
        turn = {
            "seat": tn.seat,
            "open": sorted(tn.open),
            "dice": None if tn.dice is None else list(tn.dice),
            "options": [list(o) for o in tn.options],
            "due_at": iso(row["due_at"]),
            "one_die": tn.dice is None and may_throw_one_die(Variant(row["variant"]), tn.open),
        }
    return {
        "id": row["id"],
        "variant": row["variant"],
        "status": row["status"],
        "deadline_seconds": row["deadline_seconds"],
        "spares": spares,
        "private": bool(row["private"]),
        "origin": origin_of(row),
        "created": iso(row["created_at"]),
        "commitment": row["commitment"],
        "server_seed": shown_seed(row),
        "client_seed": row["client_seed"],
        "parts": shown_parts(row),
        "seats": seats,
        "round": m.round if m is not None else 0,
        "turn": turn,
        "result": row["result"],
        "seq": row["version"],
        "daily": daily_of(row, m),
    }


async def load_state(conn: AsyncConnection, match_id: str, viewer_id: int | None) -> dict[str, Any]:
    row = await shown_match_row(conn, match_id, viewer_id)
    return public_state(row, await seat_rows(conn, match_id), viewer_id)


def _tiles(text: str | None) -> list[int] | None:
    if text is None:
        return None
    return [int(x) for x in text.split(",")] if text else []


async def load_record(conn: AsyncConnection, match_id: str) -> dict[str, Any]:
    """The match's record; result null until the end, server seed null until
    disclosure.py allows it.

    ``jackpot-record/3`` for a match played by its rules (every match made now),
    ``/2`` (seats in the order of play, ``joined`` their joining indices) for one
    begun before them, ``/1`` before the start and for matches started before the
    draw existed.

    Until then a bot seat's strength is shown as "hidden": it comes from the seed.
    """
    row = await match_row(conn, match_id)
    seats_in = await seat_rows(conn, match_id)
    return record_of(row, seats_in, await record_rows(conn, match_id))


async def record_rows(conn: AsyncConnection, match_id: str) -> list[Any]:
    """The match's ``record_events`` rows in order (``record_of`` makes them a record)."""
    res = await conn.execute(
        select(t.record_events)
        .where(t.record_events.c.match_id == match_id)
        .order_by(t.record_events.c.idx)
    )
    return list(res.mappings())


def record_of(row: Any, seats_in: Sequence[Any], rows: Sequence[Any]) -> dict[str, Any]:
    """``load_record`` from rows already read (or just written: a match's end)."""
    events: list[dict[str, Any]] = []
    for r in rows:
        if r["kind"] == "throw":
            events.append(
                {
                    "type": "throw",
                    "n": r["n"],
                    "seat": r["seat"],
                    "dice": _tiles(r["dice"]),
                    "cover": _tiles(r["cover"]),
                }
            )
        elif r["kind"] == "spare":
            events.append({"type": "spare", "seat": r["seat"]})
        else:
            events.append({"type": "out", "seat": r["seat"], "reason": r["reason"]})
    seats = [
        {"name": s["name"] or "", "bot": bot} | ({SEED_BY: s["seed_by"]} if s["seed_by"] else {})
        for s, bot in zip(seats_in, shown_strengths(row, seats_in), strict=True)
    ]
    parts = shown_parts(row)
    joined = [s["joined"] for s in seats_in]
    drawn = all(j is not None for j in joined)
    # The rules the match is played by (a match begun before /3 keeps those of /2);
    # one not started has no state yet, and its record stays /1.
    m = match_of(row)
    rules = m.rules if m is not None else 0
    # Spares make a /4 (docs/fair-play.md) once the match started; before, it is a /1.
    spares = int(row["spares"]) if m is not None and drawn and m.rules >= RULES else 0
    head: dict[str, Any] = {
        "format": record_format(
            rules,
            drawn=drawn,
            uses_v4=spares > 0 or (parts is not None and drawn) or row["dice"] == BY_POSITION,
        ),
        "id": row["id"],
        "variant": row["variant"],
    }
    if m is not None and m.daily_turns is not None:
        # A daily entry (jackpot-record/3): its deal, and no deadline per throw (null).
        head["daily"] = DailyDeal(
            daily_day(row["client_seed"]), m.daily_turns, dice=row["dice"] or BY_NUMBER
        ).to_dict()
    head["origin"] = origin_of(row)
    head |= {
        "deadline_seconds": row["deadline_seconds"],
    }
    if spares:
        head["spares"] = spares
    head |= {
        "created": iso(row["created_at"]),
        "seats": seats,
    }
    if drawn:
        head["joined"] = joined
    head["commitment"] = row["commitment"]
    if parts is not None and drawn:
        head["parts"] = parts
    return head | {
        "server_seed": shown_seed(row),
        "client_seed": row["client_seed"] or "",
        "events": events,
        "result": row["result"],
    }
