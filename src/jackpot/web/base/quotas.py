"""Caps on what a stranger can make the site keep: matches in play, guests per address.

Each new guest is a user row and each match in progress a row the sweeper visits,
so neither may grow without bound from one browser or one address. The caps'
settings and defaults are in settings.py and docs/security.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import bindparam, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.errors import ApiError, CountedError
from jackpot.web.base.settings import Settings
from jackpot.web.base.tables import core as t

_ACTIVE = (
    select(func.count())
    .select_from(t.seats.join(t.matches, t.matches.c.id == t.seats.c.match_id))
    .where(
        t.seats.c.user_id == bindparam("user_id"),
        t.seats.c.is_bot.is_(False),
        t.matches.c.status.in_(("waiting", "playing")),
    )
)


#: PostgreSQL advisory lock class ("acct") taken per account: see ``one_at_a_time``.
ACCOUNT_LOCK = 0x61636374


async def one_at_a_time(conn: AsyncConnection, user_id: int) -> None:
    """On PostgreSQL, one account's changes that count its rows before adding one
    (a cap, or "only one of these") take turns: two requests at once would each
    count the rows as they were before the other, and both pass. SQLite's single
    writer has them in turn already. Taken before any other lock of the transaction."""
    if conn.dialect.name == "postgresql":
        await conn.exec_driver_sql(
            f"SELECT pg_advisory_xact_lock({ACCOUNT_LOCK}, {int(user_id)})"
        )


def active_cap(settings: Settings, is_guest: bool) -> int:
    """How many matches a guest, or an account, may have waiting or in play."""
    return settings.guest_active_matches if is_guest else settings.account_active_matches


async def check_active_matches(
    conn: AsyncConnection, user_id: int, is_guest: bool, cap: int
) -> None:
    """429 when the user already has ``cap`` matches waiting or in play. The count is
    taken in turn with the account's other such changes (``one_at_a_time``): two new
    matches at once must not both see one place left."""
    await one_at_a_time(conn, user_id)
    active = int((await conn.execute(_ACTIVE, {"user_id": user_id})).scalar_one())
    if active >= cap:
        if is_guest:
            raise CountedError(
                429,
                "too_many_matches",
                "a guest may have %(num)s match waiting or in play at once; "
                "finish or resign it first",
                "a guest may have %(num)s matches waiting or in play at once; "
                "finish or resign one first",
                cap,
            )
        raise CountedError(
            429,
            "too_many_matches",
            "an account may have %(num)s match waiting or in play at once; "
            "finish or resign it first",
            "an account may have %(num)s matches waiting or in play at once; "
            "finish or resign one first",
            cap,
        )


@dataclass(frozen=True)
class MatchCap:
    """The cap a new match is made under (``new_match`` checks it for every person
    seated in it, whatever made it: the form, a challenge accepted, people paired by
    play now): ``most`` matches waiting or in play each, and who asked for it, who is
    told of their own count; another person's full count is told by name."""

    most: int
    asked_by: int


async def check_seated(
    conn: AsyncConnection, people: Sequence[tuple[int, str, bool]], cap: MatchCap
) -> None:
    """``check_active_matches`` for each of ``people`` ((user id, name, guest?)) about
    to be seated in one new match. Their counts are taken in turn with each one's
    other such changes (the locks in the order of the ids, so two new matches of the
    same people take them alike)."""
    for user_id, _name, _guest in sorted(people):
        await one_at_a_time(conn, user_id)
    for user_id, name, guest in people:
        if user_id == cap.asked_by:
            await check_active_matches(conn, user_id, guest, cap.most)
            continue
        active = int((await conn.execute(_ACTIVE, {"user_id": user_id})).scalar_one())
        if active >= cap.most:
            raise ApiError(
                409,
                "their_matches_full",
                "%(name)s has as many matches waiting or in play as a player may have; "
                "try again once one of them is over",
                name=name,
            )


async def at_cap(conn: AsyncConnection, user_ids: Sequence[int], most: int) -> set[int]:
    """Those of ``user_ids`` who have ``most`` matches or more waiting or in play (one
    query, for play now's candidates: a seek of someone who is full is passed over)."""
    if not user_ids:
        return set()
    rows = await conn.execute(
        select(t.seats.c.user_id, func.count())
        .select_from(t.seats.join(t.matches, t.matches.c.id == t.seats.c.match_id))
        .where(
            t.seats.c.user_id.in_(sorted(set(user_ids))),
            t.seats.c.is_bot.is_(False),
            t.matches.c.status.in_(("waiting", "playing")),
        )
        .group_by(t.seats.c.user_id)
    )
    return {int(r[0]) for r in rows if int(r[1]) >= most}


def too_many_guests(limit: int) -> ApiError:
    return CountedError(
        429,
        "too_many_guests",
        "this address has started %(num)s guest game in the last hour; "
        "sign up or log in, or wait a while",
        "this address has started %(num)s guest games in the last hour; "
        "sign up or log in, or wait a while",
        limit,
    )
