"""The browsers an account registered for pushes: add (checked), list, remove.

A browser has one endpoint, so the endpoint is unique: a browser registered again
(new keys, or another account signed in on it) replaces its old row rather than
adding one, and the per-account cap (``JACKPOT_PUSH_MAX_SUBSCRIPTIONS``) counts
browsers, not registrations: a browser taken over from another account is a new one
for the account that takes it.
"""

from __future__ import annotations

import base64
import binascii
from datetime import datetime
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import delete, func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.clock import iso
from jackpot.web.base.errors import CountedError, invalid, not_found
from jackpot.web.base.quotas import one_at_a_time
from jackpot.web.base.tables.push import push_subscriptions as subs


def _b64url(value: str, what: str, size: int) -> None:
    if not isinstance(value, str) or len(value) > 200:
        raise invalid("%(field)s must be a base64url string", field=f"keys.{what}")
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise invalid("%(field)s is not valid base64url", field=f"keys.{what}") from None
    if len(raw) != size or (what == "p256dh" and raw[0] != 4):
        if what == "p256dh":
            raise invalid("keys.p256dh must be an uncompressed P-256 point (65 bytes)")
        raise invalid("keys.auth must be 16 bytes")


def check_keys(p256dh: str, auth: str) -> None:
    """The browser's public key (65 bytes, a point on P-256) and auth secret (16)."""
    _b64url(p256dh, "p256dh", 65)
    _b64url(auth, "auth", 16)
    try:
        from_point(p256dh)
    except ValueError:
        raise invalid("keys.p256dh is not a point on the P-256 curve") from None


def from_point(p256dh: str) -> ec.EllipticCurvePublicKey:
    raw = base64.urlsafe_b64decode(p256dh + "=" * (-len(p256dh) % 4))
    return ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)


async def add(
    conn: AsyncConnection,
    user_id: int,
    endpoint: str,
    p256dh: str,
    auth: str,
    lang: str,
    cap: int,
    now: datetime,
) -> int:
    """Store a browser for ``user_id``; returns its id. The endpoint is checked by
    the caller (``endpoints.check``) before this transaction, which must not wait.
    One account's registrations take turns (its cap counts rows), and a browser
    registered by another account at the same moment is one row all the same: the
    insert takes the endpoint's row over when it is there."""
    await one_at_a_time(conn, user_id)
    owner = (
        await conn.execute(select(subs.c.user_id).where(subs.c.endpoint == endpoint))
    ).scalar_one_or_none()
    if owner != user_id:
        # A browser new to this account (or another account's until now).
        count = (
            await conn.execute(select(func.count()).where(subs.c.user_id == user_id))
        ).scalar_one()
        if count >= cap:
            raise CountedError(
                409,
                "too_many_browsers",
                "this account has %(num)s browser registered for notifications, the most "
                "allowed; remove it first",
                "this account has %(num)s browsers registered for notifications, the most "
                "allowed; remove one first",
                count,
            )
    insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
    values = {"user_id": user_id, "p256dh": p256dh, "auth": auth, "lang": lang, "created_at": now}
    stmt = insert(subs).values(endpoint=endpoint, **values)
    stored = await conn.execute(
        stmt.on_conflict_do_update(
            index_elements=[subs.c.endpoint], set_={k: stmt.excluded[k] for k in values}
        ).returning(subs.c.id)
    )
    return int(stored.scalar_one())


async def listing(conn: AsyncConnection, user_id: int) -> list[dict[str, Any]]:
    rows = await conn.execute(
        select(subs.c.id, subs.c.endpoint, subs.c.created_at, subs.c.last_ok_at)
        .where(subs.c.user_id == user_id)
        .order_by(subs.c.id)
    )
    return [
        {
            "id": r.id,
            "endpoint": r.endpoint,
            "created_at": iso(r.created_at),
            "last_ok_at": iso(r.last_ok_at),
        }
        for r in rows
    ]


async def remove(conn: AsyncConnection, user_id: int, sub_id: int) -> None:
    res = await conn.execute(delete(subs).where(subs.c.id == sub_id, subs.c.user_id == user_id))
    if res.rowcount != 1:
        raise not_found("this account has no registered browser with that id")
