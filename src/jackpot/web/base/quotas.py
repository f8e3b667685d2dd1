"""Caps on what a stranger can make the site keep: matches in play, guests per address.

Each new guest is a user row and each match in progress a row the sweeper visits,
so neither may grow without bound from one browser or one address. The caps'
settings and defaults are in settings.py and docs/security.md.
"""

from __future__ import annotations

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
