"""Which language a request is answered in, and the switcher that changes it.

An explicit choice (the switcher's cookie) wins, then the browser's Accept-Language,
then English. The choice is set once per request, before any route runs, so every
page, error message and form error below translates without being handed a request.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jackpot.i18n import DEFAULT, negotiate, pick
from jackpot.i18n.catalogs import set_locale
from jackpot.web.base.forms import read_form, safe_next, see_other
from jackpot.web.base.http import settings_of

LANG_COOKIE = "lang"
LANG_COOKIE_DAYS = 365

router = APIRouter(include_in_schema=False)


def choose(cookie_header: str | None, accept_language: str | None) -> str:
    chosen = pick(cookie_parser(cookie_header or "").get(LANG_COOKIE))
    return chosen or negotiate(accept_language) or DEFAULT


class Language:
    """ASGI middleware: picks the request's language and says responses vary by it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        locale = choose(headers.get("cookie"), headers.get("accept-language"))
        scope["jackpot.locale"] = locale
        set_locale(locale)

        async def send_varying(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [
                    *message["headers"],
                    (b"vary", b"Accept-Language, Cookie"),
                    (b"content-language", locale.encode()),
                ]
            await send(message)

        await self.app(scope, receive, send_varying)


def set_language_cookie(response: Response, request: Request, locale: str) -> None:
    response.set_cookie(
        LANG_COOKIE,
        locale,
        max_age=LANG_COOKIE_DAYS * 86400,
        httponly=True,
        samesite="lax",
        secure=settings_of(request).secure_cookies,
        path="/",
    )


@router.post("/language")
async def switch_language(request: Request) -> Response:
    """The switcher on every page: remember the choice and go back to the same page."""
    form = await read_form(request)
    locale = pick(str(form.get("lang") or "")) or DEFAULT
    response = see_other(safe_next(form.get("next")))
    set_language_cookie(response, request, locale)
    return response
