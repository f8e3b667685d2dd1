"""Routes of Web Push: the server key, an account's browsers, the service worker.

The service worker script is served from the site's root, so that its scope
covers every page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from jackpot.i18n import current_locale
from jackpot.web.base.clock import utcnow
from jackpot.web.base.edge.http import db_of, require_actor, settings_of
from jackpot.web.base.errors import invalid
from jackpot.web.base.settings import Settings
from jackpot.web.base.tables.push import MAX_ENDPOINT
from jackpot.web.notify.push import endpoints, store
from jackpot.web.notify.push.keys import application_server_key

router = APIRouter()
STATIC = Path(__file__).resolve().parents[3] / "static"


class SubscriptionKeys(BaseModel):
    p256dh: str = Field(max_length=200, description="the browser's P-256 key, base64url")
    auth: str = Field(max_length=200, description="the browser's auth secret, base64url")


class Subscription(BaseModel):
    """What ``PushSubscription.toJSON()`` gives in the browser."""

    model_config = ConfigDict(extra="ignore")
    endpoint: str = Field(max_length=MAX_ENDPOINT, description="the push service's URL")
    keys: SubscriptionKeys


@router.get("/api/push/key")
async def push_key(request: Request) -> dict[str, str]:
    """The VAPID application server key for ``pushManager.subscribe``."""
    return {"public_key": application_server_key(settings_of(request))}


@router.post("/api/push/subscriptions", status_code=201)
async def add_subscription(body: Subscription, request: Request) -> dict[str, Any]:
    actor = await require_actor(request, account=True)
    settings: Settings = settings_of(request)
    store.check_keys(body.keys.p256dh, body.keys.auth)
    # Before the transaction: resolving may take a while, and a write must not wait.
    # A refused endpoint is a 422 ``bad_endpoint`` saying why (endpoints.EndpointRefused).
    await endpoints.check(body.endpoint, settings.push_allow_local)
    async with db_of(request).write() as conn:
        sub_id = await store.add(
            conn,
            actor.user_id,
            body.endpoint,
            body.keys.p256dh,
            body.keys.auth,
            current_locale(),
            settings.push_max_subscriptions,
            utcnow(),
        )
    return {"id": sub_id}


@router.get("/api/push/subscriptions")
async def list_subscriptions(request: Request) -> dict[str, Any]:
    actor = await require_actor(request, account=True, same_site=False)
    async with db_of(request).read() as conn:
        return {"subscriptions": await store.listing(conn, actor.user_id)}


@router.delete("/api/push/subscriptions/{sub_id}", status_code=204)
async def delete_subscription(sub_id: int, request: Request) -> Response:
    actor = await require_actor(request, account=True)
    if not 0 < sub_id < 2**31:
        raise invalid("the id must be a positive whole number")
    async with db_of(request).write() as conn:
        await store.remove(conn, actor.user_id, sub_id)
    return Response(status_code=204)


@router.get("/sw.js", include_in_schema=False)
async def service_worker(request: Request) -> Response:
    """The service worker, from the root so that its scope is the whole site."""
    path = STATIC / "sw.js"
    return FileResponse(
        path,
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )
