"""Credentials: names, emails, guests, sign-up, sessions, tokens (signin.py checks passwords).

A guest is a user row without email or password, remembered by the same kind of
session cookie as an account; signing up turns that row into an account, so the
guest's matches are kept without copying anything. Who a cookie or token belongs to
is read in base/identity.py; this module makes and ends them.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from datetime import datetime, timedelta
from typing import Any

from fastapi import Request
from sqlalchemy import Select, delete, exists, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.i18n import current_locale
from jackpot.i18n.names import new_guest_name
from jackpot.web.accounts.hooks import ACCOUNT_HOOKS
from jackpot.web.base.clock import utcnow
from jackpot.web.base.edge.client import client_bucket
from jackpot.web.base.edge.http import require_actor, settings_of
from jackpot.web.base.edge.theme import DEFAULT_THEME
from jackpot.web.base.errors import conflict, forbidden, invalid
from jackpot.web.base.identity import Actor, token_hash
from jackpot.web.base.limits import counters_of
from jackpot.web.base.names import name_key, name_look, normal_name, reserved_lookalike, well_formed
from jackpot.web.base.quotas import too_many_guests
from jackpot.web.base.tables import core as t

SESSION_DAYS = 30
GUEST_DAYS = 7

_EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]+\.[^@\s]+$")


def check_name(name: str) -> str:
    """The name as it will be kept (normal form), or 422 if it is not one: letters of
    any script, and nothing that reads as the site's own "Bot" or "Guest"."""
    name = normal_name(name)
    if not well_formed(name):
        raise invalid(
            "a display name is 2 to 24 letters, digits, spaces, '.', '_' or '-', "
            "starting with a letter or digit",
            "bad_name",
        )
    if reserved_lookalike(name) is not None:
        raise invalid(
            "names that start with or look like 'Bot' or 'Guest' are kept for the site",
            "bad_name",
        )
    return name


async def check_name_free(conn: AsyncConnection, name: str, user_id: int | None = None) -> None:
    """409 if another account (not ``user_id``) has this name in any case, or one a
    reader could take for it (the same look: base/names.py)."""
    other = (
        await conn.execute(
            select(t.users.c.name, t.users.c.name_key)
            .where(
                (t.users.c.name_key == name_key(name)) | (t.users.c.name_look == name_look(name)),
                t.users.c.id != (user_id or 0),
            )
            .limit(1)
        )
    ).first()
    if other is None:
        return
    if other.name_key == name_key(name):
        raise conflict("that display name is taken", "name_taken")
    raise conflict(
        "that display name looks like %(name)s, which is taken: choose one that reads differently",
        "name_lookalike",
        name=other.name,
    )


def check_email(email: str) -> str:
    email = email.strip().lower()
    # Control and invisible characters (a zero-width space, a bidi mark) make a
    # second account for what reads as the same address, and a mail header no
    # server delivers.
    if (
        len(email) > 254
        or not _EMAIL.match(email)
        or any(unicodedata.category(c)[0] in "CZ" for c in email)
    ):
        raise invalid("that does not look like an email address", "bad_email")
    return email


async def new_credential(
    conn: AsyncConnection, user_id: int, kind: str, days: int | None, label: str | None = None,
    now: datetime | None = None,
) -> str:
    """``now``: when the caller says it was made, so an expiry it reports is the one
    stored (computed from a second clock reading, it could fall a second later)."""
    token = secrets.token_urlsafe(32)
    now = now or utcnow()
    await conn.execute(
        insert(t.credentials).values(
            token_hash=token_hash(token),
            user_id=user_id,
            kind=kind,
            label=label,
            created_at=now,
            expires_at=None if days is None else now + timedelta(days=days),
        )
    )
    return token


async def create_guest(conn: AsyncConnection) -> tuple[Actor, str]:
    now = utcnow()
    name = new_guest_name()
    res = await conn.execute(
        insert(t.users).values(
            name=name, is_guest=True, leaderboard=False, created_at=now, last_seen=now
        )
    )
    user_id = int(res.inserted_primary_key[0])  # type: ignore[index]
    token = await new_credential(conn, user_id, "session", GUEST_DAYS)
    return Actor(user_id, name, True), token


async def new_guest(request: Request, conn: AsyncConnection) -> tuple[Actor, str]:
    """A guest for a caller without a session, at most so many per address an hour
    (``JACKPOT_GUESTS_PER_ADDRESS_HOUR``), in the caller's transaction: a match
    that cannot be made leaves no guest behind."""
    limit = settings_of(request).guests_per_address_hour
    made, _ = await counters_of(request).hit("guest:" + client_bucket(request), 3600, limit)
    if made > limit:
        raise too_many_guests(limit)
    return await create_guest(conn)


async def check_free(conn: AsyncConnection, email: str, name: str, guest: Actor | None) -> None:
    """409 ``email_taken`` if an account has this address, else the name's 409s
    (``check_name_free``): asked before a sign-up is counted, and again in its
    transaction."""
    taken = (await conn.execute(select(t.users.c.id).where(t.users.c.email == email))).first()
    if taken is not None:
        raise conflict("an account with that email already exists", "email_taken")
    await check_name_free(conn, name, guest.user_id if guest is not None else None)


async def sign_up(
    conn: AsyncConnection,
    email: str,
    password_hash: str,
    name: str,
    guest: Actor | None,
    theme: str = DEFAULT_THEME,
) -> tuple[Actor, str]:
    """Create the account; a guest's row becomes the account, keeping its matches.

    ``email`` and ``name`` are checked already and the password hashed (signin.py),
    so this transaction does no slow work. ``theme``: the one chosen on this device
    before, which the account keeps for its other devices."""
    await check_free(conn, email, name, guest)
    now = utcnow()
    values: dict[str, Any] = {
        "email": email,
        "name": name,
        "name_key": name_key(name),
        "name_look": name_look(name),
        "password_hash": password_hash,
        "is_guest": False,
        # The language the account was made in: its mails' until it chooses another.
        "locale": current_locale(),
        "theme": None if theme == DEFAULT_THEME else theme,
        "last_seen": now,
    }
    if guest is not None and guest.is_guest:
        await conn.execute(update(t.users).where(t.users.c.id == guest.user_id).values(**values))
        for listener in ACCOUNT_HOOKS.guest_named:
            await listener(conn, guest.user_id, name)
        await conn.execute(delete(t.credentials).where(t.credentials.c.user_id == guest.user_id))
        user_id = guest.user_id
    else:
        res = await conn.execute(
            insert(t.users).values(created_at=now, leaderboard=False, **values)
        )
        user_id = int(res.inserted_primary_key[0])  # type: ignore[index]
    token = await new_credential(conn, user_id, "session", SESSION_DAYS)
    return Actor(user_id, name, False), token


async def revoke(conn: AsyncConnection, token: str) -> None:
    await conn.execute(delete(t.credentials).where(t.credentials.c.token_hash == token_hash(token)))


async def revoke_all(conn: AsyncConnection, user_id: int, keep: str | None = None) -> None:
    """Every session and token of the account, but the session ``keep`` (a cookie)."""
    query = delete(t.credentials).where(t.credentials.c.user_id == user_id)
    if keep:
        query = query.where(t.credentials.c.token_hash != token_hash(keep))
    await conn.execute(query)


def uses_token(request: Request) -> bool:
    return request.headers.get("authorization", "").lower().startswith("bearer ")


async def require_session(request: Request) -> Actor:
    """The account of a signed-in browser session: a bearer token is refused (403)."""
    actor = await require_actor(request, account=True)
    if uses_token(request):
        raise forbidden(
            "an API token cannot do this: sign in with your password in a browser",
            "session_required",
        )
    return actor


def old_guests(cutoff: datetime, unused_cutoff: datetime) -> Select[tuple[int]]:
    """The guests not seen since ``cutoff``, and those never seated not seen since
    ``unused_cutoff`` (play/sweeper.py deletes their matches first)."""
    never_seated = ~exists().where(t.seats.c.user_id == t.users.c.id)
    return select(t.users.c.id).where(
        t.users.c.is_guest.is_(True),
        (t.users.c.last_seen < cutoff) | ((t.users.c.last_seen < unused_cutoff) & never_seated),
    )


async def forget_guests(conn: AsyncConnection, guests: Select[tuple[int]]) -> None:
    """Delete ``guests`` and their sessions, but never one still seated in a match kept."""
    await conn.execute(delete(t.credentials).where(t.credentials.c.user_id.in_(guests)))
    await conn.execute(
        delete(t.users).where(
            t.users.c.id.in_(guests), ~exists().where(t.seats.c.user_id == t.users.c.id)
        )
    )
