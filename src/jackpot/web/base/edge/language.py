"""Which language a request is answered in, and the switcher's cookie.

The switcher's cookie wins, else the browser's Accept-Language, else English; it is
set once per request, before any route runs, so every page, error message and form
error below translates without being handed a request.
"""

from __future__ import annotations

from fastapi import Response
from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jackpot.i18n import DEFAULT, negotiate, pick
from jackpot.i18n.catalogs import set_locale
from jackpot.web.base.settings import Settings

LANG_COOKIE = "lang"
LANG_COOKIE_DAYS = 365


def choose(cookie_header: str | None, accept_language: str | None) -> str:
    chosen = pick(cookie_parser(cookie_header or "").get(LANG_COOKIE))
    return chosen or negotiate(accept_language) or DEFAULT


class Language:
    """ASGI middleware: picks the request's language and says responses vary by it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        locale = choose(headers.get("cookie"), headers.get("accept-language"))
        scope["jackpot.locale"] = locale
        set_locale(locale)
        if scope["type"] == "websocket":  # a socket's refusals are said in it too
            await self.app(scope, receive, send)
            return

        async def send_varying(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [
                    *message.get("headers", []),
                    (b"vary", b"Accept-Language, Cookie"),
                    (b"content-language", locale.encode()),
                ]
            await send(message)

        await self.app(scope, receive, send_varying)


def set_language_cookie(response: Response, settings: Settings, locale: str) -> None:
    response.set_cookie(
        LANG_COOKIE,
        locale,
        max_age=LANG_COOKIE_DAYS * 86400,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies,
        path="/",
    )
