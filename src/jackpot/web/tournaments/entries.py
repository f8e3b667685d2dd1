"""Making a tournament, entering it, withdrawing, and the creator's early start.

Each is one action in the caller's transaction. An entry brings the person's client
seed and the commitment of their part of every table's server seed, handed out
before by ``POST /api/commitments`` (play/commitments.py's ``take`` turns it back
into the part, once). Withdrawing before the start leaves no entry; later, it
resigns the match the person is playing (play/'s resign action) and they are not
paired again.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.engine import Variant
from jackpot.web.base.errors import ApiError, conflict, forbidden, invalid
from jackpot.web.base.identity import Actor
from jackpot.web.base.settings import Settings
from jackpot.web.base.tables.core import matches
from jackpot.web.base.tables.tournaments import tournament_entries, tournaments
from jackpot.web.notify.confirmations import is_confirmed
from jackpot.web.play import actions
from jackpot.web.play.commitments import take
from jackpot.web.play.parts import own_seed
from jackpot.web.tournaments.rounds import advance, start
from jackpot.web.tournaments.store import changed, load, tournament_row

#: How far ahead a tournament may start.
MOST_AHEAD = timedelta(days=90)


@dataclass(frozen=True)
class NewTournament:
    """What the creator chose, checked (rules.py)."""

    name: str
    variant: Variant
    table_size: int
    rounds: int
    deadline_seconds: int
    spares: int
    round_seconds: int
    starts_at: datetime
    max_players: int
    private: bool


def require_account(actor: Actor | None) -> Actor:
    """The caller, who must have an account: a standing is a person's."""
    if actor is None or actor.is_guest:
        raise forbidden(
            "tournaments need an account (each person enters once): sign up or log in",
            "account_required",
        )
    return actor


async def create(
    conn: AsyncConnection, actor: Actor, new: NewTournament, settings: Settings, now: datetime
) -> str:
    """A new tournament, open for entries until ``starts_at``; its id."""
    if not await is_confirmed(conn, actor.user_id):
        raise forbidden(
            "confirm your email address first: the link is in the mail the site sent you",
            "email_unconfirmed",
        )
    if new.max_players > settings.tournament_max_players:
        raise invalid(
            "max_players must be from 2 to %(most)s, not %(given)s",
            most=settings.tournament_max_players,
            given=new.max_players,
        )
    if not now <= new.starts_at <= now + MOST_AHEAD:
        raise invalid("starts_at must be from now to 90 days ahead (ISO 8601, UTC)", "bad_start")
    mine = (
        await conn.execute(
            select(func.count())
            .select_from(tournaments)
            .where(tournaments.c.creator_id == actor.user_id, tournaments.c.status != "finished")
        )
    ).scalar_one()
    if mine >= settings.tournaments_per_account:
        raise ApiError(
            429,
            "too_many_tournaments",
            "you have made as many tournaments as one account may have under way at once: "
            "wait until one has finished",
        )
    tournament_id = "t_" + secrets.token_hex(8)
    await conn.execute(
        insert(tournaments).values(
            id=tournament_id,
            name=new.name,
            creator_id=actor.user_id,
            variant=new.variant.value,
            table_size=new.table_size,
            rounds=new.rounds,
            deadline_seconds=new.deadline_seconds,
            spares=new.spares,
            round_seconds=new.round_seconds,
            starts_at=new.starts_at,
            max_players=new.max_players,
            private=new.private,
            status="entering",
            round=0,
            round_ends_at=None,
            entered=0,
            version=0,
            created_at=now,
        )
    )
    await changed(conn, tournament_id)
    return tournament_id


async def enter(
    conn: AsyncConnection,
    actor: Actor,
    tournament_id: str,
    client_seed: str,
    commitment: str,
    now: datetime,
) -> None:
    """``actor``'s entry, with their client seed and the part behind ``commitment``."""
    row = await tournament_row(conn, tournament_id)
    _check_entering(row, now)
    e = tournament_entries
    taken = (
        await conn.execute(
            select(e.c.user_id).where(e.c.tournament_id == row["id"], e.c.user_id == actor.user_id)
        )
    ).first()
    if taken is not None:
        raise already_entered()
    seed, by_server = own_seed(client_seed)
    # One more entry, if there is room: the conditional UPDATE decides between two
    # people taking the last place at once.
    room = await conn.execute(
        update(tournaments)
        .where(
            tournaments.c.id == row["id"],
            tournaments.c.status == "entering",
            tournaments.c.entered < tournaments.c.max_players,
        )
        .values(entered=tournaments.c.entered + 1)
    )
    if room.rowcount != 1:
        now_row = await tournament_row(conn, tournament_id)
        _check_entering(now_row, now)  # it started meanwhile
        raise conflict(
            "the tournament is full: it takes %(most)s players", "full", most=row["max_players"]
        )
    part = await take(conn, commitment, now)
    await conn.execute(
        insert(e).values(
            tournament_id=row["id"],
            user_id=actor.user_id,
            name=actor.name,
            entered_at=now,
            client_seed=seed,
            seed_by_server=by_server,
            commitment=commitment,
            part=part,
        )
    )
    await changed(conn, row["id"])


def already_entered() -> ApiError:
    return conflict("you have entered this tournament already", "already_entered")


def _check_entering(row: Any, now: datetime) -> None:
    if row["status"] != "entering" or row["starts_at"] <= now:
        raise conflict(
            "the tournament has started: nobody may enter once round 1 is paired",
            "entries_closed",
        )


async def withdraw(conn: AsyncConnection, actor: Actor, tournament_id: str, now: datetime) -> None:
    """Leave the tournament: before the start the entry goes; later the match being
    played is resigned and the player is paired no more.

    The locks are taken in the order a move that ends a table takes them: the match
    the person plays first, then the tournament (whose lock the start and every
    pairing hold), so neither waits on the other in a circle."""
    seen = await load(conn, tournament_id)
    before = seen.entry_of(actor.user_id)
    if before is not None and before.number is not None:
        playing = seen.table_of(before.number, seen.round)
        if playing is not None:
            await conn.execute(
                select(matches.c.id).where(matches.c.id == playing.match_id).with_for_update()
            )
    t = await load(conn, tournament_id, lock=True)
    mine = t.entry_of(actor.user_id)
    if mine is None:
        raise conflict("you have not entered this tournament", "not_entered")
    e = tournament_entries
    if t.row["status"] == "entering":
        await conn.execute(delete(e).where(e.c.tournament_id == t.id, e.c.user_id == actor.user_id))
        await conn.execute(
            update(tournaments)
            .where(tournaments.c.id == t.id)
            .values(entered=tournaments.c.entered - 1)
        )
        await changed(conn, t.id)
        return
    if t.row["status"] == "finished":
        raise conflict("the tournament is over: there is nothing to withdraw from", "finished")
    if mine.withdrawn_round is not None:
        raise conflict("you have withdrawn from this tournament already", "withdrawn")
    await conn.execute(
        update(e)
        .where(e.c.tournament_id == t.id, e.c.user_id == actor.user_id)
        .values(withdrawn_round=t.round)
    )
    assert mine.number is not None
    table = t.table_of(mine.number, t.round)
    if table is not None and table.places is None:
        status = (
            await conn.execute(select(matches.c.status).where(matches.c.id == table.match_id))
        ).scalar_one()
        if status == "playing":
            # The table's end, if this was its last seat in play, pairs on as any end.
            await actions.resign(conn, actor, table.match_id, now)
    await advance(conn, t.id, now)
    await changed(conn, t.id)


async def start_early(
    conn: AsyncConnection, actor: Actor, tournament_id: str, now: datetime
) -> None:
    """The creator starts the tournament before its time, with two entries or more."""
    row = await tournament_row(conn, tournament_id, lock=True)
    if row["creator_id"] != actor.user_id:
        raise forbidden("only the tournament's creator may start it early", "not_creator")
    if row["status"] != "entering":
        raise conflict("the tournament has started already", "started")
    if row["entered"] < 2:
        raise conflict("a tournament needs two players or more to start", "too_few")
    await start(conn, tournament_id, now)
