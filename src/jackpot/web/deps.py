"""Request helpers shared by the API and the pages: who is asking, and the
cross-site checks."""

from __future__ import annotations

import secrets
from typing import Any
from urllib.parse import urlsplit

from fastapi import Request, Response

from jackpot.web import auth
from jackpot.web.actions import Actor
from jackpot.web.bus import EventBus
from jackpot.web.db import Database
from jackpot.web.errors import forbidden, unauthorized
from jackpot.web.settings import Settings


def db_of(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


def bus_of(request: Request) -> EventBus:
    bus: EventBus = request.app.state.bus
    return bus


def settings_of(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def current_actor(request: Request) -> Actor | None:
    """A bearer token (scripts) or the session cookie (browsers), else nobody."""
    cached = request.scope.get("jackpot.actor", False)
    if cached is not False:
        return cached  # type: ignore[no-any-return]
    actor: Actor | None = None
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        token, kinds = header[7:].strip(), ("token",)
    else:
        token, kinds = request.cookies.get(auth.SESSION_COOKIE) or "", ("session",)
    if token and len(token) <= 200:
        db = db_of(request)
        key = (kinds, auth.token_hash(token))
        actor = db.actors.get(key)
        if actor is None:
            generation = db.actors.generation
            async with db.read() as conn:
                found = await auth.lookup_token(conn, token, kinds)
            if found is not None:
                actor = found[0]
                db.actors.put(key, actor, found[1], generation)
    request.scope["jackpot.actor"] = actor
    return actor


async def require_account(request: Request) -> Actor:
    actor = await current_actor(request)
    if actor is None:
        raise unauthorized("sign in first (a session cookie or a bearer token)")
    if actor.is_guest:
        raise forbidden(
            "this needs an account: sign up, it keeps your guest matches", "account_required"
        )
    return actor


def set_session_cookie(response: Response, settings: Settings, token: str, days: int) -> None:
    response.set_cookie(
        auth.SESSION_COOKIE,
        token,
        max_age=days * 86400,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies,
        path="/",
    )


def clear_session_cookie(response: Response) -> None:
    response.delete_cookie(auth.SESSION_COOKIE, path="/")


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def same_origin(request: Request) -> bool:
    """False when a browser says the request comes from another site.

    Programs send no Origin and no Sec-Fetch-Site, and are let through: without a
    browser there is no cross-site request to forge. Browsers send Origin on every
    POST, so a forged one is caught here (and SameSite=Lax already withholds the
    session cookie from cross-site posts).
    """
    if request.headers.get("sec-fetch-site") == "cross-site":
        return False
    origin = request.headers.get("origin")
    if origin is None:
        return True
    if origin == "null":
        return False
    host = request.headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.lower()


def csrf_token(request: Request) -> str:
    """The double-submit token for this browser's forms (set as a cookie on render)."""
    token = request.cookies.get(auth.CSRF_COOKIE) or request.scope.get("jackpot.csrf")
    if not token:
        token = secrets.token_urlsafe(24)
        request.scope["jackpot.csrf"] = token
        request.scope["jackpot.csrf_new"] = True
    return str(token)


def check_form_csrf(request: Request, form: Any) -> None:
    """Forms must carry the token from their cookie, and come from this site."""
    if not same_origin(request):
        raise forbidden("this form was sent from another site", "cross_site")
    cookie = request.cookies.get(auth.CSRF_COOKIE)
    sent = form.get("csrf_token")
    if not cookie or not isinstance(sent, str) or not secrets.compare_digest(cookie, sent):
        raise forbidden("the form has expired; reload the page and send it again", "csrf")
