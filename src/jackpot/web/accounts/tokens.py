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

from jackpot.web.accounts import credentials, signin
from jackpot.web.base import models as t
from jackpot.web.base.clock import iso, utcnow
from jackpot.web.base.errors import not_found
from jackpot.web.base.http import db_of, require_actor
from jackpot.web.base.identity import token_hash

router = APIRouter(prefix="/api")

DEFAULT_DAYS = 90
MAX_DAYS = 365
ID_LENGTH = 16
_ID = re.compile(rf"^[0-9a-f]{{{ID_LENGTH}}}$")


class NewToken(BaseModel):
    label: str | None = Field(None, max_length=80)
    days: int = Field(
        DEFAULT_DAYS, ge=1, le=MAX_DAYS, description="days until it expires", strict=True
    )
    password: str = Field(description="your current password", max_length=200)


def _id(digest: str) -> str:
    return digest[:ID_LENGTH]


def _of(user_id: int) -> Any:
    return and_(
        t.credentials.c.user_id == user_id,
        t.credentials.c.kind == "token",
    )


@router.post("/tokens", status_code=201)
async def new_token(body: NewToken, request: Request) -> dict[str, Any]:
    """A bearer token for a program: ``Authorization: Bearer <token>``. Needs a
    signed-in session and your current password; shown this once only."""
    actor = await credentials.require_session(request)
    await signin.check_current_password(request, actor, body.password)
    now = utcnow()
    async with db_of(request).write() as conn:
        token = await credentials.new_credential(
            conn, actor.user_id, "token", body.days, body.label, now
        )
    return {
        "token": token,
        "type": "bearer",
        "id": _id(token_hash(token)),
        "expires": iso(now + timedelta(days=body.days)),
    }


@router.get("/tokens")
async def list_tokens(request: Request) -> dict[str, Any]:
    """Your API tokens that have not expired (never their secrets)."""
    actor = await require_actor(request, account=True, same_site=False)
    async with db_of(request).read() as conn:
        rows = (
            await conn.execute(
                select(t.credentials)
                .where(_of(actor.user_id))
                .order_by(t.credentials.c.created_at)
            )
        ).all()
    now = utcnow()
    return {
        "tokens": [
            {
                "id": _id(r.token_hash),
                "label": r.label,
                "created": iso(r.created_at),
                "last_used": iso(r.last_used_at),
                "expires": iso(r.expires_at),
            }
            for r in rows
            if r.expires_at is None or r.expires_at > now
        ]
    }


@router.delete("/tokens/{token_id}")
async def revoke_token(token_id: str, request: Request) -> dict[str, Any]:
    """Revoke one of your tokens at once (in every process: identity.share_changes)."""
    actor = await require_actor(request, account=True)
    if not _ID.match(token_id):
        raise not_found("no token of yours has that id")
    async with db_of(request).write() as conn:
        res = await conn.execute(
            delete(t.credentials).where(
                _of(actor.user_id),
                func.substr(t.credentials.c.token_hash, 1, ID_LENGTH) == token_id,
            )
        )
    if res.rowcount == 0:
        raise not_found("no token of yours has that id")
    return {"revoked": token_id}
