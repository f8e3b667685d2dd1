"""Request helpers of every route: app state, who asks, require_actor, cookies, CSRF.

``require_actor`` is the one "same site and signed in" check of the site.
"""

from __future__ import annotations

import secrets
from typing import Any
from urllib.parse import urlsplit

from fastapi import Request, Response
from starlette.requests import HTTPConnection

from jackpot.web.base.clock import utcnow
from jackpot.web.base.edge.client import client_https
from jackpot.web.base.errors import forbidden, unauthorized
from jackpot.web.base.identity import (
    CSRF_COOKIE,
    LAST_USED_STEP,
    MAX_TOKEN,
    SESSION_COOKIE,
    Actor,
    lookup_token,
    note_token_use,
    token_hash,
)
from jackpot.web.base.live.bus import EventBus
from jackpot.web.base.settings import Settings
from jackpot.web.base.storage.db import Database

#: Where a request keeps its actor once looked up (False: not looked up yet).
ACTOR_KEY = "jackpot.actor"


def db_of(request: HTTPConnection) -> Database:
    db: Database = request.app.state.db
    return db


def bus_of(request: HTTPConnection) -> EventBus:
    bus: EventBus = request.app.state.bus
    return bus


def settings_of(request: HTTPConnection) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def current_actor(request: HTTPConnection) -> Actor | None:
    """A bearer token (scripts) or the session cookie (browsers), else nobody."""
    cached = request.scope.get(ACTOR_KEY, False)
    if cached is not False:
        return cached  # type: ignore[no-any-return]
    actor: Actor | None = None
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        token, kinds = header[7:].strip(), ("token",)
    else:
        token, kinds = request.cookies.get(SESSION_COOKIE) or "", ("session",)
    if token and len(token) <= MAX_TOKEN:
        db = db_of(request)
        key = (kinds, token_hash(token))
        actor = db.actors.get(key)
        if actor is None:
            generation = db.actors.generation
            async with db.read() as conn:
                found = await lookup_token(conn, token, kinds)
            if found is not None:
                actor = found.actor
                now = utcnow()
                if kinds == ("token",) and (
                    found.last_used_at is None or found.last_used_at < now - LAST_USED_STEP
                ):
                    async with db.write() as conn:
                        await note_token_use(conn, token, now)
                    generation = db.actors.generation
                db.actors.put(key, actor, found.expires_at, generation)
    request.scope[ACTOR_KEY] = actor
    return actor


def forget_actor(request: Request) -> None:
    """Look the actor up again on the next ask (after the account changed)."""
    request.scope[ACTOR_KEY] = False


def remember_actor(request: Request, actor: Actor) -> None:
    """The actor of this request from now on (a guest just made for it)."""
    request.scope[ACTOR_KEY] = actor


async def require_actor(
    request: Request, *, account: bool = False, same_site: bool = True
) -> Actor:
    """The caller, who must be signed in (401), and with ``account`` not a guest
    (403). With ``same_site`` (every request that changes something) it must also
    come from this site (403), checked first."""
    if same_site:
        check_same_site(request)
    actor = await current_actor(request)
    if actor is None:
        raise unauthorized(
            "sign in first: the browser that started the match keeps a session cookie; "
            "programs send a bearer token"
        )
    if account and actor.is_guest:
        raise forbidden(
            "this needs an account: sign up, it keeps your guest matches", "account_required"
        )
    return actor


def check_same_site(request: Request) -> None:
    """403 for a request that a browser says comes from another site."""
    if not same_origin(request):
        raise forbidden("this request was sent from another site", "cross_site")


def set_session_cookie(response: Response, settings: Settings, token: str, days: int) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=days * 86400,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies,
        path="/",
    )


def clear_session_cookie(response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/")


def same_origin(request: HTTPConnection) -> bool:
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
    parts = urlsplit(origin)
    # A page served over plain http (which anyone on the path can write) may not
    # act on a site reached over https; and nothing but a web page may act at all.
    schemes = ("https",) if client_https(request) else ("http", "https")
    if parts.scheme not in schemes:
        return False
    host = request.headers.get("host", "")
    return parts.netloc.lower() == host.lower()


def csrf_token(request: Request) -> str:
    """The double-submit token for this browser's forms (set as a cookie on render)."""
    token = request.cookies.get(CSRF_COOKIE) or request.scope.get("jackpot.csrf")
    if not token:
        token = secrets.token_urlsafe(24)
        request.scope["jackpot.csrf"] = token
        request.scope["jackpot.csrf_new"] = True
    return str(token)


def check_form_csrf(request: Request, form: Any) -> None:
    """Forms must carry the token from their cookie, and come from this site."""
    if not same_origin(request):
        raise forbidden("this form was sent from another site", "cross_site")
    cookie = request.cookies.get(CSRF_COOKIE)
    sent = form.get("csrf_token")
    # Ours are ASCII; any other text was never a token we set. (compare_digest
    # takes ASCII text only: other text made it raise, a 500.)
    if (
        not cookie
        or not isinstance(sent, str)
        or not (cookie.isascii() and sent.isascii())
        or not secrets.compare_digest(cookie, sent)
    ):
        raise forbidden("the form has expired; reload the page and send it again", "csrf")
