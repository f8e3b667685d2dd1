"""Play now: a seek waits for others of its kind, and the group is paired into a match at once.

A seek is one person's wish to play now: a variant, seconds per throw and a number
of seats (its kind). When a seek arrives and the waiting seeks of its kind make a
group with it, the group is paired there and then, in the same transaction: the
match is made through play/'s ``new_match`` (the seat order drawn from the seeds,
as for every match) and every seek of the group names it. The waiting seeks are
taken oldest first (the one that waited longest is served first); for the seats
left after it, the nearest rating to the newcomer's comes first. A pair who blocked
each other is never put in one group.

A seek for less than an hour a throw lives while its page is open (the page's
stream, live.py, cancels it when it closes) and ten minutes at most; a longer one
waits like a lobby match, a week. The background step (expiry.py) marks the ones
past their time expired.
"""

from __future__ import annotations

import secrets
import zlib
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.engine import Variant
from jackpot.web.accounts.blocks import blocked_either_way, blocked_pairs
from jackpot.web.base.clock import iso
from jackpot.web.base.errors import CountedError, conflict, not_found
from jackpot.web.base.identity import Actor
from jackpot.web.base.quotas import MatchCap, at_cap, check_active_matches, one_at_a_time
from jackpot.web.base.settings import Settings
from jackpot.web.base.storage.db import publish_on_commit
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.people import seeks
from jackpot.web.matches.origin import BETWEEN_PEOPLE, Origin
from jackpot.web.people.ratings import ratings_of
from jackpot.web.people.rules import check_deadline, check_seats, check_variant, tell, waits_for
from jackpot.web.play.new_match import MatchSpec, Person, new_match
from jackpot.web.play.parts import SERVER, contribution, seed_by
from jackpot.web.play.seating import check_spares

#: The waiting seeks of a kind a pairing looks at (oldest first): enough for any
#: group among people who blocked some of the others.
CANDIDATES = 200
#: The open seeks GET /api/seeks lists at most.
LISTED = 1000
#: PostgreSQL advisory lock class ("seek") taken per kind: see ``lock_kind``.
SEEK_LOCK = 0x7365656B


async def lock_kind(
    conn: AsyncConnection, variant: str, deadline_seconds: int, seats: int, spares: int = 0
) -> None:
    """On PostgreSQL, seeks of one kind arrive one at a time: two arriving together
    would each miss the other's row (not committed yet) and both wait, where they
    make a pair. SQLite's single writer has them in turn already."""
    if conn.dialect.name == "postgresql":
        key = zlib.crc32(f"{variant}:{deadline_seconds}:{seats}:{spares}".encode())
        signed = key - (1 << 32) if key >= 1 << 31 else key
        await conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({SEEK_LOCK}, {signed})")


#: The bus channel that tells /play-now pages the waiting seeks changed.
SEEKS = "seeks"


def ping_seeks(conn: AsyncConnection) -> None:
    """Tell the pages listing the waiting seeks to look again, once this transaction
    commits (base/edge/ping_stream.py): a seek made, paired, cancelled or expired."""
    publish_on_commit(conn, SEEKS, [{"type": "seeks"}])


def seek_channel(seek_id: str) -> str:
    """The bus channel of one seek's page (live.py)."""
    return f"seek:{seek_id}"


def check_seek_id(seek_id: str) -> str:
    if not (seek_id.startswith("s_") and len(seek_id) == 18):
        raise not_found("there is no such seek")
    return seek_id


async def create(
    conn: AsyncConnection,
    actor: Actor,
    settings: Settings,
    *,
    variant: str,
    deadline_seconds: int,
    seats: int,
    now: datetime,
    spares: int = 0,
    client_seed: str | None = None,
    commitment: str | None = None,
) -> dict[str, Any]:
    """``actor``'s new seek, paired at once when it completes a group (seeks of the
    same variant, deadline, seats and spares): ``{"id", "status", "match"}``. It keeps
    the seeker's client seed and their part of the server seed (``commitment``'s,
    shown to them first: play/parts.py) for the match."""
    var = check_variant(variant)
    check_deadline(deadline_seconds, settings.min_deadline_seconds)
    check_seats(seats)
    check_spares(spares, seats)
    await one_at_a_time(conn, actor.user_id)
    await lock_kind(conn, var.value, deadline_seconds, seats, spares)
    mine = (
        await conn.execute(
            select(seeks.c.variant, seeks.c.deadline_seconds, seeks.c.seats, seeks.c.spares).where(
                seeks.c.user_id == actor.user_id,
                seeks.c.status == "waiting",
                seeks.c.expires_at > now,
            )
        )
    ).all()
    if (var.value, deadline_seconds, seats, spares) in {tuple(r) for r in mine}:
        raise conflict("you are already looking for this kind of match", "already_seeking")
    if len(mine) >= settings.seeks_per_account:
        raise CountedError(
            429,
            "too_many_seeks",
            "you may look for %(num)s kind of match at once; cancel it first",
            "you may look for %(num)s kinds of match at once; cancel one first",
            settings.seeks_per_account,
        )
    await check_active_matches(conn, actor.user_id, False, settings.account_active_matches)
    own = await contribution(conn, client_seed, commitment, now)
    shown = (await ratings_of(conn, [actor.user_id], var.value))[actor.user_id]
    seek_id = "s_" + secrets.token_hex(8)
    wait = waits_for(deadline_seconds)
    row = {
        "id": seek_id,
        "user_id": actor.user_id,
        "variant": var.value,
        "deadline_seconds": deadline_seconds,
        "seats": seats,
        "spares": spares,
        "rating": shown["rating"],
        "provisional": shown["provisional"],
        "status": "waiting",
        "match_id": None,
        "created_at": now,
        "expires_at": now + wait,
        "client_seed": own.client_seed,
        "seed_by": seed_by(own.seed_by_server),
        "part": own.part,
    }
    await conn.execute(insert(seeks).values(**row))
    ping_seeks(conn)
    group = await find_group(conn, row, now, settings.account_active_matches)
    if group is None:
        return {"id": seek_id, "status": "waiting", "match": None}
    cap = MatchCap(settings.account_active_matches, actor.user_id)
    match_id = await pair(conn, var, deadline_seconds, group, now, cap, spares)
    return {"id": seek_id, "status": "paired", "match": match_id}


async def find_group(
    conn: AsyncConnection, new: dict[str, Any], now: datetime, most: int
) -> list[dict[str, Any]] | None:
    """The group the seek ``new`` completes (itself first), or None while too few of
    its kind wait: the oldest waiting seek first, then the nearest ratings. A seek of
    someone who has ``most`` matches waiting or in play by now waits on (passed over)."""
    rows = (
        await conn.execute(
            select(
                seeks.c.id,
                seeks.c.user_id,
                seeks.c.rating,
                seeks.c.created_at,
                seeks.c.client_seed,
                seeks.c.seed_by,
                seeks.c.part,
            )
            .where(
                seeks.c.status == "waiting",
                seeks.c.variant == new["variant"],
                seeks.c.deadline_seconds == new["deadline_seconds"],
                seeks.c.seats == new["seats"],
                seeks.c.spares == new["spares"],
                seeks.c.id != new["id"],
                seeks.c.user_id != new["user_id"],
                seeks.c.expires_at > now,
            )
            .order_by(seeks.c.created_at, seeks.c.id)
            .limit(CANDIDATES)
        )
    ).all()
    if len(rows) < new["seats"] - 1:
        return None
    full = await at_cap(conn, [r.user_id for r in rows], most)
    rows = [r for r in rows if r.user_id not in full]
    if len(rows) < new["seats"] - 1:
        return None
    shut = await blocked_pairs(conn, [new["user_id"], *(r.user_id for r in rows)])

    def fits(user_id: int, group: list[dict[str, Any]]) -> bool:
        return all(
            g["user_id"] != user_id and frozenset((g["user_id"], user_id)) not in shut
            for g in group
        )

    group: list[dict[str, Any]] = [new]
    open_to = [r for r in rows if fits(r.user_id, group)]
    if not open_to:
        return None
    oldest, rest = open_to[0], open_to[1:]
    group.append(dict(oldest._mapping))
    rest.sort(key=lambda r: (abs(r.rating - new["rating"]), r.created_at))
    for r in rest:
        if len(group) == new["seats"]:
            break
        if fits(r.user_id, group):
            group.append(dict(r._mapping))
    if len(group) < new["seats"]:
        return None
    return group


async def pair(
    conn: AsyncConnection,
    variant: Variant,
    deadline_seconds: int,
    group: list[dict[str, Any]],
    now: datetime,
    cap: MatchCap,
    spares: int = 0,
) -> str:
    """Make the group's match and mark its seeks paired; each seeker hears it.
    ``cap``: checked for every seeker where the match is made (new_match)."""
    ids = [g["id"] for g in group]
    names = {
        r.id: str(r.name)
        for r in await conn.execute(
            select(t.users.c.id, t.users.c.name).where(
                t.users.c.id.in_([g["user_id"] for g in group])
            )
        )
    }
    # Each seeker's client seed and part, in the group's order (its joining order);
    # a seek made before seeks kept them gets both made now, as the server's.
    people = [
        Person(
            Actor(g["user_id"], names[g["user_id"]], False),
            g["client_seed"] or secrets.token_hex(8),
            g["client_seed"] is None or g["seed_by"] == SERVER,
        )
        for g in group
    ]
    parts = [g["part"] or secrets.token_hex(32) for g in group]
    # Public: strangers paired by the site play in the open, on /watch.
    newest = max(group, key=lambda g: (g["created_at"], g["id"]))
    spec = MatchSpec(
        variant,
        people,
        deadline_seconds,
        private=False,
        origin=Origin("play_now", newest["id"]),
        rules=BETWEEN_PEOPLE,
        cap=cap,
        parts=parts,
        spares=spares,
    )
    out = await new_match(conn, spec, now)
    done = await conn.execute(
        update(seeks)
        .where(seeks.c.id.in_(ids), seeks.c.status == "waiting")
        .values(status="paired", match_id=out.match_id)
    )
    if done.rowcount != len(ids):
        raise conflict("another seek was paired meanwhile; try again", "retry")
    for g in group:
        event = {"type": "paired", "seek": g["id"], "match": out.match_id}
        tell(conn, g["user_id"], event)
        publish_on_commit(conn, seek_channel(g["id"]), [event])
    return out.match_id


async def own_seek(
    conn: AsyncConnection, user_id: int, seek_id: str, now: datetime
) -> dict[str, Any]:
    """The seek as its owner sees it (404 for anyone else's), expired once its time
    is over even before the background step marks it."""
    row = (
        await conn.execute(
            select(seeks).where(seeks.c.id == check_seek_id(seek_id), seeks.c.user_id == user_id)
        )
    ).first()
    if row is None:
        raise not_found("there is no such seek")
    return shown(row._mapping, now)


def shown(row: Any, now: datetime) -> dict[str, Any]:
    status = row["status"]
    if status == "waiting" and row["expires_at"] <= now:
        status = "expired"
    return {
        "id": row["id"],
        "status": status,
        "match": row["match_id"],
        "variant": row["variant"],
        "deadline_seconds": row["deadline_seconds"],
        "seats": row["seats"],
        "spares": row["spares"],
        "expires_at": iso(row["expires_at"]),
    }


async def cancel(
    conn: AsyncConnection, user_id: int, seek_id: str, now: datetime
) -> dict[str, Any]:
    """The owner calls a waiting seek off (409 once it is paired, cancelled or expired)."""
    await own_seek(conn, user_id, seek_id, now)
    done = await conn.execute(
        update(seeks)
        .where(seeks.c.id == seek_id, seeks.c.status == "waiting")
        .values(status="cancelled")
    )
    if done.rowcount != 1:
        raise conflict("this seek is no longer waiting", "seek_closed")
    publish_on_commit(conn, seek_channel(seek_id), [{"type": "cancelled", "seek": seek_id}])
    ping_seeks(conn)
    return await own_seek(conn, user_id, seek_id, now)


async def open_seeks(
    conn: AsyncConnection, now: datetime, viewer: int | None = None
) -> list[dict[str, Any]]:
    """The waiting seeks by kind, without who: how many wait, and their ratings. For
    ``viewer`` the seeks of those they blocked or who blocked them are left out: they
    would never be paired, so "Play this" on them paired nobody."""
    query = select(
        seeks.c.variant,
        seeks.c.deadline_seconds,
        seeks.c.seats,
        seeks.c.spares,
        seeks.c.rating,
        seeks.c.provisional,
    ).where(seeks.c.status == "waiting", seeks.c.expires_at > now)
    if viewer is not None:
        query = query.where(seeks.c.user_id.not_in(blocked_either_way(viewer)))
    rows = await conn.execute(
        query
        .order_by(
            seeks.c.variant, seeks.c.deadline_seconds, seeks.c.seats, seeks.c.spares, seeks.c.rating
        )
        .limit(LISTED)
    )
    kinds: dict[tuple[str, int, int, int], dict[str, Any]] = {}
    for r in rows:
        kind = kinds.setdefault(
            (r.variant, r.deadline_seconds, r.seats, r.spares),
            {
                "variant": r.variant,
                "deadline_seconds": r.deadline_seconds,
                "seats": r.seats,
                "spares": r.spares,
                "waiting": 0,
                "ratings": [],
            },
        )
        kind["waiting"] += 1
        kind["ratings"].append({"rating": r.rating, "provisional": r.provisional})
    return list(kinds.values())


async def my_open_seeks(conn: AsyncConnection, user_id: int, now: datetime) -> list[dict[str, Any]]:
    rows = await conn.execute(
        select(seeks)
        .where(seeks.c.user_id == user_id, seeks.c.status == "waiting", seeks.c.expires_at > now)
        .order_by(seeks.c.created_at)
    )
    return [shown(r._mapping, now) for r in rows]
