"""Accounts, guests, sessions, API tokens, the login rate limit and CSRF checks.

A guest is a user row without email or password, remembered by the same kind of
session cookie as an account; signing up turns that row into an account, so the
guest's matches are kept without copying anything. Cookies and tokens are random
secrets of which only a SHA-256 is stored.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from datetime import datetime, timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import (
    Delete,
    Select,
    Update,
    bindparam,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from jackpot.web import models as t
from jackpot.web.actions import Actor, utcnow
from jackpot.web.errors import ApiError, conflict, invalid

SESSION_COOKIE = "jackpot_session"
CSRF_COOKIE = "jackpot_csrf"
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


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


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


#: The credential lookup of every request, built once per kind of credential (a
#: prebuilt statement skips building the expression and its cache key each time).
_ACTOR_QUERIES: dict[tuple[str, ...], Select[Any]] = {}


class ActorCache:
    """Who a credential belongs to, remembered for at most ``TTL`` seconds.

    The lookup is a read transaction on every request; this saves it for a client
    that sends several requests a second. Within the process it is never stale:
    ``watch`` clears it whenever a statement changes the users or credentials
    tables (log-out, sign-up, password change or reset, renaming, the guest sweep)
    and again when that transaction ends, and an answer read while such a change
    was under way is not kept (``generation``). Another process's change (a log-out
    served by another worker) is seen here at most ``TTL`` seconds later.
    """

    TTL = 1.0
    MAX_ENTRIES = 10_000

    def __init__(self) -> None:
        self.generation = 0
        self._entries: dict[tuple[tuple[str, ...], str], tuple[float, Actor, datetime | None]] = {}

    def get(self, key: tuple[tuple[str, ...], str]) -> Actor | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        stored, actor, expires_at = entry
        if time.monotonic() - stored > self.TTL or (
            expires_at is not None and expires_at < utcnow()
        ):
            self._entries.pop(key, None)
            return None
        return actor

    def put(
        self,
        key: tuple[tuple[str, ...], str],
        actor: Actor,
        expires_at: datetime | None,
        generation: int,
    ) -> None:
        if generation != self.generation:
            return  # a change to credentials or users began meanwhile
        if len(self._entries) >= self.MAX_ENTRIES:
            self._entries.clear()
        self._entries[key] = (time.monotonic(), actor, expires_at)

    def invalidate(self) -> None:
        self.generation += 1
        self._entries.clear()

    def watch(self, engine: AsyncEngine) -> None:
        """Clear on every UPDATE or DELETE of users or credentials run on ``engine``,
        and mark the connection so that ``Database.write`` clears again once the
        transaction has ended (readers may have seen the old rows until then)."""

        @event.listens_for(engine.sync_engine, "before_execute")
        def _before_execute(conn: Any, clause: Any, *_args: Any) -> None:
            if isinstance(clause, Update | Delete) and (
                clause.table is t.users or clause.table is t.credentials
            ):
                conn.info[DIRTY] = True
                self.invalidate()


#: Set in a connection's ``info`` by ``ActorCache.watch``.
DIRTY = "jackpot.actors_changed"


async def lookup_token(
    conn: AsyncConnection, token: str, kinds: tuple[str, ...]
) -> tuple[Actor, datetime | None] | None:
    """The actor a live credential belongs to, and when the credential expires."""
    if not token or len(token) > 200:
        return None
    query = _ACTOR_QUERIES.get(kinds)
    if query is None:
        query = _ACTOR_QUERIES[kinds] = (
            select(t.users.c.id, t.users.c.name, t.users.c.is_guest, t.credentials.c.expires_at)
            .join(t.credentials, t.credentials.c.user_id == t.users.c.id)
            .where(
                t.credentials.c.token_hash == bindparam("token_hash"),
                t.credentials.c.kind.in_(kinds),
            )
        )
    row = (await conn.execute(query, {"token_hash": token_hash(token)})).first()
    if row is None or (row.expires_at is not None and row.expires_at < utcnow()):
        return None
    return Actor(user_id=row.id, name=row.name, is_guest=bool(row.is_guest)), row.expires_at


async def actor_for_token(
    conn: AsyncConnection, token: str, kinds: tuple[str, ...]
) -> Actor | None:
    found = await lookup_token(conn, token, kinds)
    return None if found is None else found[0]


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


async def record_login_failure(conn: AsyncConnection, email: str, address: str) -> None:
    """Count a failed login (in its own transaction: the failed attempt rolls back)."""
    now = utcnow()
    email = email.strip().lower()[:254]
    await conn.execute(
        insert(t.login_failures),
        [{"key": "acct:" + email, "at": now}, {"key": "addr:" + address, "at": now}],
    )
    # Old counters are of no use to anybody; keep the table small.
    await conn.execute(delete(t.login_failures).where(t.login_failures.c.at < now - LOGIN_WINDOW))


async def log_in(
    conn: AsyncConnection, email: str, password: str, address: str
) -> tuple[Actor, str] | None:
    """Check the password, rate-limited per account and per address (429).

    None for a wrong email or password: the caller records the failure.
    """
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
