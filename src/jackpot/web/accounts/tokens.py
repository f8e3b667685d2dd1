"""API tokens for programs: made, listed and revoked by their owner, each with an expiry.

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

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field
from sqlalchemy import and_, delete, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.accounts import credentials, signin
from jackpot.web.base import models as t
from jackpot.web.base.clock import iso, utcnow
from jackpot.web.base.errors import forbidden, not_found
from jackpot.web.base.http import db_of, require_actor
from jackpot.web.base.identity import Actor, token_hash

router = APIRouter(prefix="/api")

DEFAULT_DAYS = 90
MAX_DAYS = 365
LABEL_LENGTH = 80
ID_LENGTH = 16
_ID = re.compile(rf"^[0-9a-f]{{{ID_LENGTH}}}$")


class NewToken(BaseModel):
    label: str | None = Field(None, max_length=LABEL_LENGTH)
    days: int = Field(
        DEFAULT_DAYS, ge=1, le=MAX_DAYS, description="days until it expires", strict=True
    )
    password: str = Field(description="your current password", max_length=200)


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


@router.post("/tokens", status_code=201)
async def new_token(body: NewToken, request: Request) -> dict[str, Any]:
    """A bearer token for a program: ``Authorization: Bearer <token>``. Needs a
    signed-in session and your current password; shown this once only."""
    actor = await require_session(request)
    return await make_token(request, actor, body.label, body.days, body.password)


@router.get("/tokens")
async def list_tokens(request: Request) -> dict[str, Any]:
    """Your API tokens that have not expired (never their secrets)."""
    actor = await require_actor(request, account=True, same_site=False)
    async with db_of(request).read() as conn:
        found = await tokens_of(conn, actor.user_id)
    return {
        "tokens": [
            {**row, **{k: iso(row[k]) for k in ("created", "last_used", "expires")}}
            for row in found
        ]
    }


@router.delete("/tokens/{token_id}")
async def revoke_token(token_id: str, request: Request) -> dict[str, Any]:
    """Revoke one of your tokens at once (in every process: identity.share_changes)."""
    actor = await require_actor(request, account=True)
    async with db_of(request).write() as conn:
        await revoke(conn, actor.user_id, token_id)
    return {"revoked": token_id}
