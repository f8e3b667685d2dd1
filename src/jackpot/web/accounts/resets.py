"""Password reset by an emailed link: asking for one, and using it.

The link's token is random, stored hashed, valid an hour and usable once. The
request answers the same whether or not the address has an account, so it does not
tell strangers who plays here; it only queues the mail, which the mail worker sends
(notify/resets.py).
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.i18n import N_
from jackpot.web.accounts.credentials import SESSION_DAYS, new_credential, revoke_all
from jackpot.web.accounts.devices import new_device
from jackpot.web.accounts.signin import SignedIn, new_password_hash, user_words
from jackpot.web.base.clock import utcnow
from jackpot.web.base.edge.client import client_bucket
from jackpot.web.base.edge.http import db_of, settings_of
from jackpot.web.base.errors import ApiError, invalid
from jackpot.web.base.identity import Actor, token_hash
from jackpot.web.base.limits import counters_of, take
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.notify import password_resets
from jackpot.web.notify.confirmations import mark_confirmed
from jackpot.web.notify.resets import queue_reset_mail, use_reset_token


async def request_reset(request: Request, email: str) -> None:
    """Queue a reset mail for the account with this address, if there is one and it
    has not had ``reset_mail_limit`` mails lately; limited per client address."""
    settings = settings_of(request)
    await take(
        counters_of(request),
        "reset:" + client_bucket(request),
        settings.reset_limit,
        N_("too many password resets asked from your address"),
    )
    email = email.strip().lower()[:254]
    async with db_of(request).write() as conn:
        user = (
            await conn.execute(
                select(t.users.c.id).where(t.users.c.email == email, t.users.c.is_guest.is_(False))
            )
        ).first()
        if user is not None:
            await queue_reset_mail(conn, user.id, settings.reset_mail_limit, utcnow())


async def _usable_reset(conn: AsyncConnection, token: str) -> Any | None:
    """The reset row of a link that may still be used (with the user's name and
    address), else None."""
    row = (
        await conn.execute(
            select(
                password_resets.c.user_id,
                password_resets.c.expires_at,
                password_resets.c.used,
                t.users.c.name,
                t.users.c.email,
            )
            .join(t.users, t.users.c.id == password_resets.c.user_id)
            .where(password_resets.c.token_hash == token_hash(token[:200]))
        )
    ).first()
    if row is None or row.used or row.expires_at < utcnow():
        return None
    return row


async def reset_link_usable(request: Request, token: str) -> bool:
    """Whether a reset link can still set a password: the page says so on arrival,
    rather than after a new password has been typed for nothing."""
    async with db_of(request).read() as conn:
        return await _usable_reset(conn, token) is not None


def _dead_link() -> ApiError:
    return invalid(
        "this reset link is unknown, used or expired: ask for a new one", "bad_reset_token"
    )


async def confirm_reset(request: Request, token: str, password: str) -> SignedIn:
    async with db_of(request).read() as conn:
        row = await _usable_reset(conn, token)
    if row is None:
        raise _dead_link()
    # Checked and hashed before the transaction: argon2 must not hold the writer.
    password_hash = await new_password_hash(request, password, *user_words(row.email, row.name))
    async with db_of(request).write() as conn:
        # Used once, even by two requests racing with the same link: only one of them
        # finds it unused (a row lock on PostgreSQL, the one writer on SQLite).
        if not await use_reset_token(conn, token_hash(token[:200]), utcnow()):
            raise _dead_link()
        await conn.execute(
            update(t.users).where(t.users.c.id == row.user_id).values(password_hash=password_hash)
        )
        # The link reached the address's inbox: it is confirmed (this is also how its
        # owner takes back an account somebody else signed up with it).
        await mark_confirmed(conn, row.user_id, row.email, utcnow())
        # The old password may have leaked: every browser, its device cookie and
        # every API token go; this browser, which had the link, is the known one now.
        await revoke_all(conn, row.user_id)
        session = await new_credential(conn, row.user_id, "session", SESSION_DAYS)
        device = await new_device(conn, settings_of(request), row.user_id)
    return SignedIn(Actor(row.user_id, row.name, False), session, device)
