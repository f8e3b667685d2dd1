"""A match as a person creates it, and its seats taken and left before the start.

Each in the caller's transaction, through Core: these are rare next to the moves,
which play/actions.py runs on the driver. ``create_match`` checks what a person chose
and makes the match through new_match.py, which starts it when no seat is free.
Their live events go out once that transaction commits (base/storage/db.py's
``publish_on_commit``), with a ping for the lobby when a public match's seats there
changed; a match called off ends through the finisher, as every match does. Nobody
takes a seat beside someone they blocked or who blocked them (accounts/blocks.py).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.engine import MAX_SPARES, Variant
from jackpot.web.accounts.blocks import check_not_blocked
from jackpot.web.base.clock import utcnow
from jackpot.web.base.errors import conflict, forbidden, invalid
from jackpot.web.base.identity import Actor
from jackpot.web.base.quotas import MatchCap, check_active_matches
from jackpot.web.base.settings import (
    DEFAULT_EXPIRY_SECONDS,
    MAX_DEADLINE_SECONDS,
    MAX_EXPIRY_SECONDS,
    MIN_EXPIRY_SECONDS,
)
from jackpot.web.base.tables import core as t
from jackpot.web.matches.disclosure import shown_seed
from jackpot.web.matches.news import EndedBy, MatchEnd
from jackpot.web.matches.origin import ON_ONES_OWN, MatchRules, Origin
from jackpot.web.matches.store import match_row, seat_rows
from jackpot.web.matches.views import shown_parts
from jackpot.web.play import commitments
from jackpot.web.play.finish import finish
from jackpot.web.play.lobby import ping_lobby
from jackpot.web.play.new_match import (
    MatchSpec,
    Person,
    new_match,
    next_version,
    start,
    store_events,
)
from jackpot.web.play.outcome import Outcome
from jackpot.web.play.parts import own_seed, seed_by

MAX_SEATS = 4


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
    commitment: str | None = None,
    server_seed: str | None = None,
    origin: Origin | None = None,
    seed_by_server: bool = False,
    spares: int = 0,
) -> Outcome:
    """A new match with ``actor`` in seat 0; ``max_active`` caps the matches the
    actor may have waiting or in play (None: no cap, for a rematch, which only
    follows a finished match). ``origin``: what made it, when not the person alone
    (a rematch); its rules follow from who plays (``rules_for``).

    Its server seed is the pending one of ``commitment`` when the creator was shown
    it (used up here: 409 if it is not pending), or ``server_seed`` (a rematch offer's),
    else one made with the match. ``spares``: the spare deadlines each seat is given,
    for a match between people (a bot never waits for one, nor does practice alone).
    ``seed_by_server``: the server made ``client_seed`` earlier (a rematch answer that
    sent none)."""
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
    check_spares(spares, seats - bots_count)
    if actor.is_guest and seats - bots_count != 1:
        raise forbidden(
            "a guest can play the bot or practise alone; sign up to play people", "account_required"
        )
    seed, by_server = own_seed(client_seed)
    by_server = by_server or seed_by_server
    if commitment is not None:
        server_seed = await commitments.take(conn, commitment, now)
    spec = MatchSpec(
        var,
        [Person(actor, seed, by_server)],
        deadline_seconds,
        free=seats - 1 - bots_count,
        bots=bots_count,
        private=private,
        expires_at=now + timedelta(seconds=expiry_seconds),
        server_seed=server_seed,
        origin=origin or own_origin(seats, bots_count),
        rules=rules_for(seats - bots_count, bots_count, private),
        cap=None if max_active is None else MatchCap(max_active, actor.user_id),
        spares=spares,
    )
    return await new_match(conn, spec, now)


def check_spares(spares: int, people: int) -> None:
    """422 unless ``spares`` is 0 to MAX_SPARES, and 0 for one person (with bots or
    alone): only a person waits for a person, so only then may a deadline be spared."""
    if not 0 <= spares <= MAX_SPARES:
        raise invalid(
            "spares must be from 0 to %(most)s, not %(given)s", most=MAX_SPARES, given=spares
        )
    if spares and people < 2:
        raise invalid(
            "spares are for matches between people: against bots or alone, spares must be 0"
        )


def own_origin(seats: int, bots: int) -> Origin:
    """A match a person makes: practice alone, against the bot, or for people."""
    if seats == 1:
        return Origin("solo")
    return Origin("bot") if seats - bots == 1 else Origin("people")


def rules_for(people: int, bots: int, private: bool) -> MatchRules:
    """One person (with bots or alone) is nobody to rate or to play again; people are,
    and a public match of people alone is listed to watch."""
    if people == 1:
        return ON_ONES_OWN
    return MatchRules(rated=True, offers_rematch=True, on_watch=not private and bots == 0)


async def join_match(
    conn: AsyncConnection,
    actor: Actor,
    match_id: str,
    client_seed: str | None,
    now: datetime | None = None,
    *,
    max_active: int | None,
    seed_by_server: bool = False,
) -> Outcome:
    now = now or utcnow()
    if actor.is_guest:
        raise forbidden("sign up (or log in) to play people", "account_required")
    row = await match_row(conn, match_id, lock=True)
    seed, by_server = own_seed(client_seed)
    by_server = by_server or seed_by_server
    _check_open(row, now)
    seats_in = await seat_rows(conn, match_id)
    if any(s["user_id"] == actor.user_id for s in seats_in):
        raise conflict("you already have a seat in this match", "already_seated")
    # Nobody sits down at a table with someone they blocked, or who blocked them.
    await check_not_blocked(
        conn, actor.user_id, [s["user_id"] for s in seats_in if s["user_id"] is not None]
    )
    free = [s for s in seats_in if not s["is_bot"] and s["user_id"] is None]
    if not free:
        raise conflict("every seat is taken", "match_full")
    if max_active is not None:
        await check_active_matches(conn, actor.user_id, actor.is_guest, max_active)
    seat = free[0]["seat"]
    res = await conn.execute(
        update(t.seats)
        .where(t.seats.c.match_id == match_id, t.seats.c.seat == seat, t.seats.c.user_id.is_(None))
        .values(
            user_id=actor.user_id, name=actor.name, client_seed=seed, seed_by=seed_by(by_server)
        )
    )
    if res.rowcount != 1:
        raise conflict("that seat was just taken; try again", "match_full")
    version = row["version"] + 1
    joined = {"type": "joined", "seat": seat, "name": actor.name, "seed_by": seed_by(by_server)}
    out = Outcome(match_id, [{"seq": version, **joined}])
    await store_events(conn, match_id, out.events)
    await next_version(conn, row)
    if len(free) == 1:
        await start(conn, match_id, now, out)
    if not row["private"]:
        ping_lobby(conn)
    return out


def _check_open(row: Any, now: datetime) -> None:
    """409 unless the match still waits for players: it started, expired (even before
    the sweeper called it off), or was called off by its creator."""
    expires_at = row["expires_at"]
    if row["status"] == "waiting" and (expires_at is None or expires_at > now):
        return
    if row["status"] == "playing" or row["started_at"] is not None:
        raise conflict("this match has already started", "match_started")
    ended = row["finished_at"] or now
    if expires_at is not None and ended >= expires_at:
        raise conflict(
            "nobody took the free seats in time, so this match expired and was called off",
            "match_expired",
        )
    raise conflict("this match was called off before it started", "match_cancelled")


async def leave_waiting(conn: AsyncConnection, actor: Actor, row: Any) -> Outcome:
    """Before the start a resignation just frees the seat (the creator's cancels)."""
    match_id = row["id"]
    seats_in = await seat_rows(conn, match_id)
    mine = [s for s in seats_in if s["user_id"] == actor.user_id and not s["is_bot"]]
    if not mine:
        raise forbidden("you have no seat in this match", "not_seated")
    if mine[0]["seat"] == 0:
        return await _call_off(conn, row, seats_in, "cancelled", utcnow())
    ev = {"seq": row["version"] + 1, "type": "left", "seat": mine[0]["seat"]}
    await conn.execute(
        update(t.seats)
        .where(t.seats.c.match_id == match_id, t.seats.c.seat == mine[0]["seat"])
        .values(user_id=None, name=None, client_seed=None, seed_by=None)
    )
    await next_version(conn, row)
    await store_events(conn, match_id, [ev])
    if not row["private"]:
        ping_lobby(conn)
    return Outcome(match_id, [ev])


async def expire_waiting(conn: AsyncConnection, match_id: str, now: datetime) -> Outcome | None:
    """Call off a match whose time in the lobby is over, as its creator could (the
    seed is published); None if it started, was called off or moved meanwhile."""
    row = await match_row(conn, match_id, lock=True)
    expires_at = row["expires_at"]
    if row["status"] != "waiting" or expires_at is None or expires_at > now:
        return None
    return await _call_off(conn, row, await seat_rows(conn, match_id), "expired", now)


async def _call_off(
    conn: AsyncConnection, row: Any, seats_in: list[Any], how: EndedBy, now: datetime
) -> Outcome:
    """End a match that never started (its creator left, or it expired): its seed is
    published, in the event as in a fresh load, and the end goes through the finisher."""
    match_id = row["id"]
    version = row["version"] + 1
    ev = {
        "seq": version,
        "type": "cancelled",
        "server_seed": shown_seed(row, now, ending=True),
        "parts": shown_parts(row, now, ending=True),
    }
    await next_version(conn, row, status="finished", finished_at=now)
    await store_events(conn, match_id, [ev])
    if not row["private"]:
        ping_lobby(conn)
    ended = {**row, "status": "finished", "finished_at": now, "version": version}
    await finish(conn, MatchEnd(match_id, ended, seats_in, how, now))
    return Outcome(match_id, [ev])


async def name_guest_seats(conn: AsyncConnection, user_id: int, name: str) -> None:
    """A guest made an account (accounts/credentials.py): its seats show the new name."""
    await conn.execute(update(t.seats).where(t.seats.c.user_id == user_id).values(name=name))
