"""The API tokens' routes: ``/api/tokens`` to make, list and revoke (token_store.py)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from jackpot.web.accounts import credentials
from jackpot.web.accounts.token_store import (
    DEFAULT_DAYS,
    LABEL_LENGTH,
    MAX_DAYS,
    make_token,
    revoke,
    tokens_of,
)
from jackpot.web.base.clock import iso
from jackpot.web.base.edge.http import db_of, require_actor

router = APIRouter(prefix="/api")


class NewToken(BaseModel):
    label: str | None = Field(None, max_length=LABEL_LENGTH)
    days: int = Field(
        DEFAULT_DAYS, ge=1, le=MAX_DAYS, description="days until it expires", strict=True
    )
    password: str = Field(description="your current password", max_length=200)


@router.post("/tokens", status_code=201)
async def new_token(body: NewToken, request: Request) -> dict[str, Any]:
    """A bearer token for a program: ``Authorization: Bearer <token>``. Needs a
    signed-in session and your current password; shown this once only."""
    actor = await credentials.require_session(request)
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
