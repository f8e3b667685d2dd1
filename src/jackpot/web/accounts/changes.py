"""A player's own account: what they see of it, and one function per change.

The API (``PATCH /api/account``) and the account page's forms call the same ones.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.accounts.credentials import check_name, check_name_free, revoke_all
from jackpot.web.base.edge.theme import DEFAULT_THEME
from jackpot.web.base.identity import KEEPS_ACTOR
from jackpot.web.base.names import name_key, name_look
from jackpot.web.base.tables import core as t
from jackpot.web.players.ratings import set_listed


async def read_account(conn: AsyncConnection, user_id: int) -> Any:
    """The account's email and leaderboard choice (a row with those two fields)."""
    return (
        await conn.execute(
            select(t.users.c.email, t.users.c.leaderboard, t.users.c.locale).where(
                t.users.c.id == user_id
            )
        )
    ).one()


async def rename(conn: AsyncConnection, user_id: int, name: str) -> str:
    """A new display name (409 if another account has it or one that looks like it);
    returns it as stored. Seats keep the name they were taken with: records do not
    change."""
    name = check_name(name)
    await check_name_free(conn, name, user_id)
    await conn.execute(
        update(t.users)
        .where(t.users.c.id == user_id)
        .values(name=name, name_key=name_key(name), name_look=name_look(name))
    )
    return name


async def change_password(
    conn: AsyncConnection, user_id: int, password_hash: str, keep: str | None
) -> None:
    """A new password (checked, with the current one, and hashed before the
    transaction: signin.py); every other session and every API token goes, the
    session ``keep`` (the browser that changed it) stays."""
    await conn.execute(
        update(t.users).where(t.users.c.id == user_id).values(password_hash=password_hash)
    )
    await revoke_all(conn, user_id, keep=keep)


async def set_leaderboard(conn: AsyncConnection, user_id: int, on: bool) -> None:
    """Appear on the leaderboard (and open the profile to everybody), or not."""
    await conn.execute(
        update(t.users).where(t.users.c.id == user_id).values(leaderboard=on)
        .execution_options(**KEEPS_ACTOR)
    )
    await set_listed(conn, user_id, on)


async def set_locale(conn: AsyncConnection, user_id: int, locale: str) -> None:
    """The language of the account's pages after it logs in, and of its mails."""
    await conn.execute(
        update(t.users).where(t.users.c.id == user_id).values(locale=locale)
        .execution_options(**KEEPS_ACTOR)
    )


async def read_autoplay(conn: AsyncConnection, user_id: int) -> dict[str, bool]:
    """The account's autoplay default for matches between people with an hour or more
    a throw (on unless switched off)."""
    row = (
        await conn.execute(
            select(t.users.c.autoplay_throws, t.users.c.autoplay_covers).where(
                t.users.c.id == user_id
            )
        )
    ).one()
    return {
        "throws": row.autoplay_throws is not False,
        "single_covers": row.autoplay_covers is not False,
    }


async def set_autoplay(
    conn: AsyncConnection, user_id: int, throws: bool, single_covers: bool
) -> dict[str, bool]:
    """The autoplay default for the account's next matches (those under way keep theirs:
    the match page switches them)."""
    await conn.execute(
        update(t.users)
        .where(t.users.c.id == user_id)
        .values(autoplay_throws=throws, autoplay_covers=single_covers)
        .execution_options(**KEEPS_ACTOR)
    )
    return {"throws": throws, "single_covers": single_covers}


async def read_locale(conn: AsyncConnection, user_id: int) -> str | None:
    locale = (
        await conn.execute(select(t.users.c.locale).where(t.users.c.id == user_id))
    ).scalar_one_or_none()
    return str(locale) if locale else None


async def set_theme(conn: AsyncConnection, user_id: int, theme: str) -> None:
    """The colour theme the account's pages take on a device it signs in on."""
    await conn.execute(
        update(t.users)
        .where(t.users.c.id == user_id)
        .values(theme=None if theme == DEFAULT_THEME else theme)
        .execution_options(**KEEPS_ACTOR)
    )


async def read_theme(conn: AsyncConnection, user_id: int) -> str | None:
    """The account's chosen theme, or None if it never chose one."""
    theme = (
        await conn.execute(select(t.users.c.theme).where(t.users.c.id == user_id))
    ).scalar_one_or_none()
    return str(theme) if theme else None
