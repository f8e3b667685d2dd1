"""The rematch API: see where an offer stands, offer or accept, decline (play/rematch.py acts)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from jackpot.web.base.edge.field_rules import CLIENT_SEED
from jackpot.web.base.edge.http import current_actor, db_of, require_actor
from jackpot.web.play.rematch import decline_rematch, rematch_state, want_rematch

router = APIRouter(prefix="/api")


class RematchBody(BaseModel):
    model_config = ConfigDict(extra="forbid")  # as the other play bodies (api.STRICT)
    client_seed: str | None = Field(
        None, description="your seed for the new match (1-64 chars)", json_schema_extra=CLIENT_SEED
    )
    commitment: str | None = Field(
        None,
        description="offering: a commitment from POST /api/commitments, the new match's "
        "server seed; accepting: the offer's commitment you were shown (409 "
        "commitment_unknown if the offer now has another)",
    )


@router.get("/matches/{match_id}/rematch")
async def get_rematch(match_id: str, request: Request) -> dict[str, Any]:
    actor = await current_actor(request)
    async with db_of(request).read() as conn:
        return await rematch_state(conn, match_id, actor.user_id if actor else None)


@router.post("/matches/{match_id}/rematch")
async def post_rematch(
    match_id: str, request: Request, body: RematchBody | None = None
) -> dict[str, Any]:
    """Offer a rematch, or accept the one on offer (the last acceptance starts it)."""
    actor = await require_actor(request)
    async with db_of(request).write() as conn:
        view, _outcomes = await want_rematch(
            conn,
            actor,
            match_id,
            body.client_seed if body else None,
            body.commitment if body else None,
        )
    return view


@router.post("/matches/{match_id}/rematch/decline")
async def post_decline(match_id: str, request: Request) -> dict[str, Any]:
    actor = await require_actor(request)
    async with db_of(request).write() as conn:
        view = await decline_rematch(conn, actor, match_id)
    return view
