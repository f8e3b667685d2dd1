"""Which colour theme a page is drawn in (the device's, light or dark), and its cookie.

The choice is read on the server, from the ``theme`` cookie, so the page's first paint
has it: ``<html data-theme>`` and the colour-scheme meta come with the HTML, and no
script has to correct the colours after a flash of the wrong ones. An account keeps
its choice too (``users.theme``): signing in on another device sets the cookie there.
"""

from __future__ import annotations

from fastapi import Request, Response

from jackpot.web.base.settings import Settings

THEME_COOKIE = "theme"
THEME_COOKIE_DAYS = 365
#: "system" follows the device's setting (prefers-color-scheme); it is the default.
THEMES = ("system", "light", "dark")
DEFAULT_THEME = "system"


def theme_of(request: Request) -> str:
    """The theme the reader chose on this device; anything else in the cookie is none."""
    chosen = request.cookies.get(THEME_COOKIE)
    return chosen if chosen in THEMES else DEFAULT_THEME


def set_theme_cookie(response: Response, settings: Settings, theme: str) -> None:
    response.set_cookie(
        THEME_COOKIE,
        theme,
        max_age=THEME_COOKIE_DAYS * 86400,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies,
        path="/",
    )
