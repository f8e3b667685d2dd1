"""Credentials: passwords, names, emails, guests, sign-up, log-in, sessions, tokens.

A guest is a user row without email or password, remembered by the same kind of
session cookie as an account; signing up turns that row into an account, so the
guest's matches are kept without copying anything. Who a cookie or token belongs to
is read in base/identity.py; this module makes and ends them.
"""

from __future__ import annotations

import re
import secrets
from datetime import datetime, timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.i18n import current_locale
from jackpot.web.base import models as t
from jackpot.web.base.clock import utcnow
from jackpot.web.base.db import Database
from jackpot.web.base.errors import ApiError, conflict, invalid
from jackpot.web.base.identity import Actor, token_hash

SESSION_DAYS = 30
GUEST_DAYS = 7
#: Failed logins allowed per window, per account and per address.
LOGIN_LIMIT_ACCOUNT = 5
LOGIN_LIMIT_ADDRESS = 20
LOGIN_WINDOW = timedelta(minutes=15)

_hasher = PasswordHasher()
_EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]+\.[^@\s]+$")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.\-]{1,23}$")
#: A hash to verify against when the account does not exist, so a wrong email
#: costs the same time as a wrong password and does not reveal who has an account.
_DUMMY_HASH = _hasher.hash("not a real password")


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def check_password_strength(password: str) -> None:
    if len(password) < 8:
        raise invalid("the password must be at least 8 characters long", "weak_password")
    if len(password) > 200:
        raise invalid("the password must be at most 200 characters long", "weak_password")


def check_name(name: str) -> str:
    name = " ".join(name.split())
    if not _NAME.match(name):
        raise invalid(
            "a display name is 2 to 24 letters, digits, spaces, '.', '_' or '-', "
            "starting with a letter or digit",
            "bad_name",
        )
    if name.lower().startswith(("bot", "guest")):
        raise invalid("names starting with 'Bot' or 'Guest' are kept for the site", "bad_name")
    return name


def check_email(email: str) -> str:
    email = email.strip().lower()
    if len(email) > 254 or not _EMAIL.match(email):
        raise invalid("that does not look like an email address", "bad_email")
    return email


async def new_credential(
    conn: AsyncConnection, user_id: int, kind: str, days: int | None, label: str | None = None
) -> str:
    token = secrets.token_urlsafe(32)
    now = utcnow()
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
    name = "Guest " + secrets.token_hex(2)
    res = await conn.execute(
        insert(t.users).values(
            name=name, is_guest=True, leaderboard=False, created_at=now, last_seen=now
        )
    )
    user_id = int(res.inserted_primary_key[0])  # type: ignore[index]
    token = await new_credential(conn, user_id, "session", GUEST_DAYS)
    return Actor(user_id, name, True), token


async def sign_up(
    conn: AsyncConnection, email: str, password: str, name: str, guest: Actor | None
) -> tuple[Actor, str]:
    """Create the account; a guest's row becomes the account, keeping its matches."""
    email = check_email(email)
    name = check_name(name)
    check_password_strength(password)
    taken = (
        await conn.execute(
            select(t.users.c.email, t.users.c.name_key).where(
                (t.users.c.email == email) | (t.users.c.name_key == name.lower())
            )
        )
    ).first()
    if taken is not None:
        if taken.email == email:
            raise conflict("an account with that email already exists", "email_taken")
        raise conflict("that display name is taken", "name_taken")
    now = utcnow()
    values: dict[str, Any] = {
        "email": email,
        "name": name,
        "name_key": name.lower(),
        "password_hash": hash_password(password),
        "is_guest": False,
        # The language the account was made in: its mails' until it chooses another.
        "locale": current_locale(),
        "last_seen": now,
    }
    if guest is not None and guest.is_guest:
        await conn.execute(update(t.users).where(t.users.c.id == guest.user_id).values(**values))
        await conn.execute(
            update(t.seats).where(t.seats.c.user_id == guest.user_id).values(name=name)
        )
        await conn.execute(delete(t.credentials).where(t.credentials.c.user_id == guest.user_id))
        user_id = guest.user_id
    else:
        res = await conn.execute(
            insert(t.users).values(created_at=now, leaderboard=False, **values)
        )
        user_id = int(res.inserted_primary_key[0])  # type: ignore[index]
    token = await new_credential(conn, user_id, "session", SESSION_DAYS)
    return Actor(user_id, name, False), token


async def _failures(conn: AsyncConnection, key: str, since: datetime) -> int:
    return int(
        (
            await conn.execute(
                select(func.count())
                .select_from(t.login_failures)
                .where(t.login_failures.c.key == key, t.login_failures.c.at >= since)
            )
        ).scalar_one()
    )


async def _record_login_failure(conn: AsyncConnection, email: str, address: str) -> None:
    """Count a failed login (in its own transaction: the failed attempt rolls back)."""
    now = utcnow()
    email = email.strip().lower()[:254]
    await conn.execute(
        insert(t.login_failures),
        [{"key": "acct:" + email, "at": now}, {"key": "addr:" + address, "at": now}],
    )
    # Old counters are of no use to anybody; keep the table small.
    await conn.execute(delete(t.login_failures).where(t.login_failures.c.at < now - LOGIN_WINDOW))


async def log_in(db: Database, email: str, password: str, address: str) -> tuple[Actor, str]:
    """A new session for the account, for the API and the login form alike: 401 for a
    wrong email or password (counted in a transaction of its own, since the attempt
    rolls back), 429 once too many failed, per account and per address."""
    async with db.write() as conn:
        done = await _check_login(conn, email, password, address)
    if done is None:
        async with db.write() as conn:
            await _record_login_failure(conn, email, address)
        raise ApiError(401, "bad_login", "that email and password do not match an account")
    return done


async def _check_login(
    conn: AsyncConnection, email: str, password: str, address: str
) -> tuple[Actor, str] | None:
    """Check the password, rate-limited (429); None for a wrong email or password."""
    email = email.strip().lower()[:254]
    now = utcnow()
    since = now - LOGIN_WINDOW
    acct_key, addr_key = "acct:" + email, "addr:" + address
    if (
        await _failures(conn, acct_key, since) >= LOGIN_LIMIT_ACCOUNT
        or await _failures(conn, addr_key, since) >= LOGIN_LIMIT_ADDRESS
    ):
        raise ApiError(
            429,
            "too_many_attempts",
            "too many failed logins; wait a quarter of an hour and try again",
        )
    row = (
        await conn.execute(
            select(t.users.c.id, t.users.c.name, t.users.c.password_hash).where(
                t.users.c.email == email, t.users.c.is_guest.is_(False)
            )
        )
    ).first()
    ok = False
    try:
        ok = _hasher.verify(row.password_hash if row else _DUMMY_HASH, password[:200])
    except (VerificationError, InvalidHashError):
        ok = False
    if row is None or not ok:
        return None
    await conn.execute(delete(t.login_failures).where(t.login_failures.c.key == acct_key))
    await conn.execute(update(t.users).where(t.users.c.id == row.id).values(last_seen=now))
    token = await new_credential(conn, row.id, "session", SESSION_DAYS)
    return Actor(row.id, row.name, False), token


async def verify_password(conn: AsyncConnection, user_id: int, password: str) -> bool:
    h = (
        await conn.execute(select(t.users.c.password_hash).where(t.users.c.id == user_id))
    ).scalar_one_or_none()
    if not h:
        return False
    try:
        return _hasher.verify(h, password[:200])
    except (VerificationError, InvalidHashError):
        return False


async def revoke(conn: AsyncConnection, token: str) -> None:
    await conn.execute(delete(t.credentials).where(t.credentials.c.token_hash == token_hash(token)))
