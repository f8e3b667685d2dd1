"""Creating a match, taking and leaving its seats before the start, and the start.

Each in the caller's transaction, through Core: these are rare next to the moves,
which play/actions.py runs on the driver.
"""

from __future__ import annotations

import json
import secrets
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import case, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot import fair
from jackpot.engine import Match, Variant
from jackpot.web.base import models as t
from jackpot.web.base.clock import utcnow
from jackpot.web.base.errors import conflict, forbidden, invalid
from jackpot.web.base.identity import Actor
from jackpot.web.base.quotas import check_active_matches
from jackpot.web.base.settings import (
    DEFAULT_EXPIRY_SECONDS,
    MAX_DEADLINE_SECONDS,
    MAX_EXPIRY_SECONDS,
    MIN_EXPIRY_SECONDS,
)
from jackpot.web.matches.store import match_row, seat_rows
from jackpot.web.matches.views import autoplay_of
from jackpot.web.play.match_sql import Driver, on_driver
from jackpot.web.play.transaction import MoveTx, Outcome, load_match, rate_if_finished

MAX_SEATS = 4
_INSERT_EVENTS = insert(t.match_events)


def check_client_seed(seed: str | None) -> str:
    """The seed a player sent (422 if malformed), or a fresh random one."""
    if seed is None or seed == "":
        return secrets.token_hex(8)
    try:
        return fair.check_client_seed(seed)
    except ValueError:
        raise invalid(
            "the client seed must be 1 to 64 letters, digits, _ or -", "bad_client_seed"
        ) from None


async def create_match(
    conn: AsyncConnection,
    actor: Actor,
    *,
    variant: str,
    seats: int,
    bots_count: int,
    deadline_seconds: int,
    client_seed: str | None,
    private: bool,
    min_deadline: int,
    max_active: int | None,
    expiry_seconds: int = DEFAULT_EXPIRY_SECONDS,
    now: datetime | None = None,
) -> Outcome:
    """A new match with ``actor`` in seat 0; ``max_active`` caps the matches the
    actor may have waiting or in play (None: no cap, for a rematch, which only
    follows a finished match)."""
    now = now or utcnow()
    try:
        var = Variant(variant)
    except ValueError:
        raise invalid(
            "variant must be 'jackpot' or 'classic', not %(given)s", given=repr(variant)
        ) from None
    if not 1 <= seats <= MAX_SEATS:
        raise invalid(
            "a match has 1 to %(most)s seats, not %(seats)s", most=MAX_SEATS, seats=seats
        )
    if not 0 <= bots_count <= seats - 1:
        raise invalid(
            "with seats: %(seats)s, bots must be from 0 to %(most)s, not %(bots)s",
            most=seats - 1,
            seats=seats,
            bots=bots_count,
        )
    if not min_deadline <= deadline_seconds <= MAX_DEADLINE_SECONDS:
        raise invalid(
            "deadline_seconds must be from %(least)s to %(most)s (one week), not %(given)s",
            least=min_deadline,
            most=MAX_DEADLINE_SECONDS,
            given=deadline_seconds,
        )
    if not MIN_EXPIRY_SECONDS <= expiry_seconds <= MAX_EXPIRY_SECONDS:
        raise invalid(
            "a match waits for players from %(least)s to %(most)s seconds, not %(given)s",
            least=MIN_EXPIRY_SECONDS,
            most=MAX_EXPIRY_SECONDS,
            given=expiry_seconds,
        )
    if actor.is_guest and seats - bots_count != 1:
        raise forbidden(
            "a guest can play the bot or practise alone; sign up to play people", "account_required"
        )
    seed = check_client_seed(client_seed)
    if max_active is not None:
        await check_active_matches(conn, actor.user_id, actor.is_guest, max_active)
    server_seed = secrets.token_hex(32)
    match_id = "m_" + secrets.token_hex(8)
    await conn.execute(
        insert(t.matches).values(
            id=match_id,
            variant=var.value,
            status="waiting",
            seat_count=seats,
            deadline_seconds=deadline_seconds,
            private=private,
            creator_id=actor.user_id,
            created_at=now,
            server_seed=server_seed,
            commitment=fair.commitment(server_seed),
            version=0,
            record_len=0,
            # Only a match with seats for people to take waits, and may expire.
            expires_at=None
            if bots_count == seats - 1
            else now + timedelta(seconds=expiry_seconds),
        )
    )
    rows: list[dict[str, Any]] = [
        {
            "match_id": match_id,
            "seat": 0,
            "user_id": actor.user_id,
            "is_bot": False,
            "name": actor.name,
            "client_seed": seed,
        }
    ]
    for s in range(1, seats):
        is_bot = s >= seats - bots_count
        name = None
        if is_bot:
            name = "Bot" if bots_count == 1 else f"Bot {s - (seats - bots_count) + 1}"
        rows.append(
            {
                "match_id": match_id,
                "seat": s,
                "user_id": None,
                "is_bot": is_bot,
                "name": name,
                "client_seed": None,
            }
        )
    await conn.execute(insert(t.seats), rows)
    out = Outcome(match_id)
    if bots_count == seats - 1:
        await _start(conn, match_id, now, out)
    return out


async def join_match(
    conn: AsyncConnection,
    actor: Actor,
    match_id: str,
    client_seed: str | None,
    now: datetime | None = None,
    *,
    max_active: int | None,
) -> Outcome:
    now = now or utcnow()
    if actor.is_guest:
        raise forbidden("sign up (or log in) to play people", "account_required")
    row = await match_row(conn, match_id, lock=True)
    seed = check_client_seed(client_seed)
    if row["status"] != "waiting":
        raise conflict("this match has already started", "match_started")
    seats_in = await seat_rows(conn, match_id)
    if any(s["user_id"] == actor.user_id for s in seats_in):
        raise conflict("you already have a seat in this match", "already_seated")
    free = [s for s in seats_in if not s["is_bot"] and s["user_id"] is None]
    if not free:
        raise conflict("every seat is taken", "match_full")
    if max_active is not None:
        await check_active_matches(conn, actor.user_id, actor.is_guest, max_active)
    seat = free[0]["seat"]
    res = await conn.execute(
        update(t.seats)
        .where(t.seats.c.match_id == match_id, t.seats.c.seat == seat, t.seats.c.user_id.is_(None))
        .values(user_id=actor.user_id, name=actor.name, client_seed=seed)
    )
    if res.rowcount != 1:
        raise conflict("that seat was just taken; try again", "match_full")
    version = row["version"] + 1
    out = Outcome(match_id, [{"seq": version, "type": "joined", "seat": seat, "name": actor.name}])
    await _store_events(conn, match_id, out.events)
    await _next_version(conn, row)
    if len(free) == 1:
        await _start(conn, match_id, now, out)
    return out


async def _start(conn: AsyncConnection, match_id: str, now: datetime, out: Outcome) -> None:
    """All seats are filled: fix the client seed, draw the order of play and the bots'
    strengths, and let bots move if the first seat is one."""
    row = await match_row(conn, match_id)
    seats_in = await seat_rows(conn, match_id)
    client_seed = fair.combine_client_seeds(
        [s["client_seed"] for s in seats_in if not s["is_bot"]]
    )
    joined = fair.order_of_play(
        row["server_seed"],
        client_seed,
        len(seats_in),
        people=sum(1 for s in seats_in if not s["is_bot"]),
    )
    await _seat_in_order(conn, match_id, joined)
    await _autoplay_at_start(conn, row, seats_in)
    for place, index in enumerate(joined):
        if seats_in[index]["is_bot"]:
            strength = fair.bot_strength(row["server_seed"], client_seed, place)
            await conn.execute(
                update(t.seats)
                .where(t.seats.c.match_id == match_id, t.seats.c.seat == place)
                .values(strength=str(strength))
            )
    await conn.execute(
        update(t.matches)
        .where(t.matches.c.id == match_id)
        .values(status="playing", started_at=now, client_seed=client_seed)
    )
    m = Match.new(Variant(row["variant"]), row["seat_count"])

    def first_turn(db: Driver) -> MoveTx:
        tx = MoveTx(*load_match(db, match_id, lock=False), m, now)
        tx.live.append(
            {
                "type": "started",
                "client_seed": client_seed,
                "joined": list(joined),
                "autoplay": [autoplay_of(s) for s in tx.seat_rows],
            }
        )
        tx.became_due = True
        tx.run_bots()
        tx.save(db)
        return tx

    tx = await on_driver(conn, first_turn)
    out.events.extend(tx.live)
    await rate_if_finished(conn, tx)


#: Autoplay is on by default only where a move can wait a long time: between people,
#: an hour or more a throw (docs/autoplay.md).
AUTOPLAY_MIN_DEADLINE = 3600


async def _autoplay_at_start(conn: AsyncConnection, row: Any, seats_in: list[Any]) -> None:
    """Fix each person's autoplay in this match from their account's default (on unless
    they switched it off) in a match between people with an hour or more a throw; off
    in bot, solo and short matches. The match page may switch it for this match."""
    people = [s for s in seats_in if not s["is_bot"]]
    by_default = len(people) >= 2 and row["deadline_seconds"] >= AUTOPLAY_MIN_DEADLINE
    chosen = {
        u.id: (u.autoplay_throws is not False, u.autoplay_covers is not False)
        for u in (
            await conn.execute(
                select(t.users.c.id, t.users.c.autoplay_throws, t.users.c.autoplay_covers).where(
                    t.users.c.id.in_([s["user_id"] for s in people])
                )
            )
        ).all()
    }
    for s in people:
        throws, covers = chosen.get(s["user_id"], (True, True)) if by_default else (False, False)
        await conn.execute(
            update(t.seats)
            .where(t.seats.c.match_id == row["id"], t.seats.c.user_id == s["user_id"])
            .values(autoplay_throws=throws, autoplay_covers=covers, acted=False)
        )


async def _seat_in_order(conn: AsyncConnection, match_id: str, joined: tuple[int, ...]) -> None:
    """Renumber the seats to the order of play: seat p is the one whose number was
    ``joined[p]`` until now (its joining index, kept in ``joined``). Through negative
    numbers first, since both databases check the primary key row by row."""
    place = case(
        *((t.seats.c.seat == index, -1 - p) for p, index in enumerate(joined)),
        else_=t.seats.c.seat,
    )
    mine = t.seats.c.match_id == match_id
    # Both right-hand sides read the row as it was: ``joined`` takes the old number.
    await conn.execute(update(t.seats).where(mine).values(joined=t.seats.c.seat, seat=place))
    await conn.execute(update(t.seats).where(mine).values(seat=-1 - t.seats.c.seat))


async def leave_waiting(conn: AsyncConnection, actor: Actor, row: Any) -> Outcome:
    """Before the start a resignation just frees the seat (the creator's cancels)."""
    match_id = row["id"]
    seats_in = await seat_rows(conn, match_id)
    mine = [s for s in seats_in if s["user_id"] == actor.user_id and not s["is_bot"]]
    if not mine:
        raise forbidden("you have no seat in this match", "not_seated")
    version = row["version"] + 1
    if mine[0]["seat"] == 0:
        # Called off: the seed is published, in the event as in a fresh load.
        ev = {"seq": version, "type": "cancelled", "server_seed": row["server_seed"]}
        await _next_version(conn, row, status="finished", finished_at=utcnow())
    else:
        ev = {"seq": version, "type": "left", "seat": mine[0]["seat"]}
        await conn.execute(
            update(t.seats)
            .where(t.seats.c.match_id == match_id, t.seats.c.seat == mine[0]["seat"])
            .values(user_id=None, name=None, client_seed=None)
        )
        await _next_version(conn, row)
    await _store_events(conn, match_id, [ev])
    return Outcome(match_id, [ev])


async def expire_waiting(conn: AsyncConnection, match_id: str, now: datetime) -> Outcome | None:
    """Call off a match whose time in the lobby is over, as its creator could (the
    seed is published); None if it started, was called off or moved meanwhile."""
    row = await match_row(conn, match_id, lock=True)
    expires_at = row["expires_at"]
    if row["status"] != "waiting" or expires_at is None or expires_at > now:
        return None
    version = row["version"] + 1
    ev = {"seq": version, "type": "cancelled", "server_seed": row["server_seed"]}
    await _next_version(conn, row, status="finished", finished_at=now)
    await _store_events(conn, match_id, [ev])
    return Outcome(match_id, [ev])


async def _store_events(conn: AsyncConnection, match_id: str, events: list[dict[str, Any]]) -> None:
    if events:
        await conn.execute(
            _INSERT_EVENTS,
            [{"match_id": match_id, "seq": e["seq"], "data": json.dumps(e)} for e in events],
        )


async def _next_version(conn: AsyncConnection, row: Any, **values: Any) -> None:
    """Before the start: move a match's version on by one (setting ``values`` too),
    if nobody else moved it first."""
    res = await conn.execute(
        update(t.matches)
        .where(t.matches.c.id == row["id"], t.matches.c.version == row["version"])
        .values(version=row["version"] + 1, **values)
    )
    if res.rowcount != 1:
        raise conflict("the match changed meanwhile; try again", "retry")
