"""API tokens kept for their owner: made, listed and revoked, for the API and the account page.

A token is a bearer secret a program keeps for months, so it is the credential most
likely to leak. Hence: it expires (default 90 days, at most a year, chosen when
made); its owner can see every token (never the secret: only a SHA-256 is stored)
and revoke any; and it cannot do what would let a thief keep the account: change
the password, or make more tokens. Those need a signed-in browser session and the
current password. A reset signs out every session and token; a password change
every one but the browser that made it.

A token's public id is the first 16 hex digits of its SHA-256, which is already
what the database stores: the id gives nothing towards the secret.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from fastapi import Request
from sqlalchemy import and_, delete, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.accounts import credentials, signin
from jackpot.web.base.clock import iso, utcnow
from jackpot.web.base.edge.http import db_of
from jackpot.web.base.errors import not_found
from jackpot.web.base.identity import Actor, token_hash
from jackpot.web.base.tables import core as t

DEFAULT_DAYS = 90
MAX_DAYS = 365
LABEL_LENGTH = 80
ID_LENGTH = 16
_ID = re.compile(rf"^[0-9a-f]{{{ID_LENGTH}}}$")


def _id(digest: str) -> str:
    return digest[:ID_LENGTH]


def _of(user_id: int) -> Any:
    return and_(
        t.credentials.c.user_id == user_id,
        t.credentials.c.kind == "token",
    )


async def make_token(
    request: Request, actor: Actor, label: str | None, days: int, password: str
) -> dict[str, Any]:
    """A new token of ``actor``'s, after their current password (403, 429): the secret,
    its id and its expiry, for the API and the account page alike."""
    await signin.check_current_password(request, actor, password)
    now = utcnow()
    async with db_of(request).write() as conn:
        token = await credentials.new_credential(conn, actor.user_id, "token", days, label, now)
    return {
        "token": token,
        "type": "bearer",
        "id": _id(token_hash(token)),
        "expires": iso(now + timedelta(days=days)),
    }


async def tokens_of(conn: AsyncConnection, user_id: int) -> list[dict[str, Any]]:
    """The account's tokens that have not expired, oldest first: id, label and the
    moments (datetimes; ``last_used`` None until first used)."""
    rows = (
        await conn.execute(
            select(t.credentials).where(_of(user_id)).order_by(t.credentials.c.created_at)
        )
    ).all()
    now = utcnow()
    return [
        {
            "id": _id(r.token_hash),
            "label": r.label,
            "created": r.created_at,
            "last_used": r.last_used_at,
            "expires": r.expires_at,
        }
        for r in rows
        if r.expires_at is None or r.expires_at > now
    ]


async def revoke(conn: AsyncConnection, user_id: int, token_id: str) -> None:
    """End one of the account's tokens at once (404 if it has none by that id)."""
    if not _ID.match(token_id):
        raise not_found("no token of yours has that id")
    res = await conn.execute(
        delete(t.credentials).where(
            _of(user_id), func.substr(t.credentials.c.token_hash, 1, ID_LENGTH) == token_id
        )
    )
    if res.rowcount == 0:
        raise not_found("no token of yours has that id")
