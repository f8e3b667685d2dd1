"""A player's own account: what they see of it, and one function per change.

The API (``PATCH /api/account``) and the account page's forms call the same ones.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.accounts.credentials import (
    check_name,
    check_password_strength,
    hash_password,
    verify_password,
)
from jackpot.web.base import models as t
from jackpot.web.base.errors import ApiError, conflict
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
    """A new display name (409 if another account has it); returns it as stored.
    Seats keep the name they were taken with: records do not change."""
    name = check_name(name)
    taken = (
        await conn.execute(
            select(t.users.c.id).where(t.users.c.name_key == name.lower(), t.users.c.id != user_id)
        )
    ).first()
    if taken:
        raise conflict("that display name is taken", "name_taken")
    await conn.execute(
        update(t.users).where(t.users.c.id == user_id).values(name=name, name_key=name.lower())
    )
    return name


async def change_password(
    conn: AsyncConnection, user_id: int, current: str, new: str
) -> None:
    """A new password, for whoever knows the current one (403 otherwise)."""
    if not await verify_password(conn, user_id, current):
        raise ApiError(403, "bad_password", "the current password is not right")
    check_password_strength(new)
    await conn.execute(
        update(t.users).where(t.users.c.id == user_id).values(password_hash=hash_password(new))
    )


async def set_leaderboard(conn: AsyncConnection, user_id: int, on: bool) -> None:
    """Appear on the leaderboard (and open the profile to everybody), or not."""
    await conn.execute(update(t.users).where(t.users.c.id == user_id).values(leaderboard=on))
    await set_listed(conn, user_id, on)


async def set_locale(conn: AsyncConnection, user_id: int, locale: str) -> None:
    """The language of the account's pages after it logs in, and of its mails."""
    await conn.execute(update(t.users).where(t.users.c.id == user_id).values(locale=locale))


async def read_locale(conn: AsyncConnection, user_id: int) -> str | None:
    locale = (
        await conn.execute(select(t.users.c.locale).where(t.users.c.id == user_id))
    ).scalar_one_or_none()
    return str(locale) if locale else None
