"""The pages' templates, wired to the catalogs, and render (visitor, CSRF token, flash).

The forms' CSRF token is set as a cookie the first time a page carries one. A
one-time message for the page a form redirects to (``set_flash``) travels as a
short-lived cookie holding only a fixed key: the words come from the catalogs
(``_flash.html``), never from the request.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from fastapi.templating import Jinja2Templates

from jackpot.i18n import jinja as i18n_jinja
from jackpot.web.base.edge.http import csrf_token, current_actor, settings_of
from jackpot.web.base.edge.theme import theme_of
from jackpot.web.base.identity import CSRF_COOKIE

TEMPLATES_DIR = Path(__file__).resolve().parents[3] / "templates"

FLASH_COOKIE = "jackpot_flash"
#: The one-time messages there are: each key picks a sentence in ``_flash.html``.
FLASH_KEYS = frozenset({"welcome", "password_reset"})
#: Long enough for the redirect, short enough not to greet a later visit.
FLASH_SECONDS = 120


def set_flash(response: Response, request: Request, key: str) -> None:
    """Say ``key``'s message once, on the next page rendered for this browser."""
    if key not in FLASH_KEYS:
        raise ValueError(f"no flash message {key!r}")
    response.set_cookie(
        FLASH_COOKIE,
        key,
        max_age=FLASH_SECONDS,
        httponly=True,
        samesite="lax",
        secure=settings_of(request).secure_cookies,
        path="/",
    )


def make_templates() -> Jinja2Templates:
    templates = Jinja2Templates(directory=str(TEMPLATES_DIR))
    i18n_jinja.install(templates.env)
    # Every page's <html data-theme>, error pages too: from the request's cookie.
    templates.env.globals["page_theme"] = theme_of
    return templates


async def render(
    request: Request, name: str, ctx: dict[str, Any] | None = None, status: int = 200
) -> Response:
    actor = await current_actor(request)
    flash = request.cookies.get(FLASH_COOKIE)
    context = {
        "actor": actor,
        "csrf_token": csrf_token(request),
        # Only a known key: a cookie's other text never reaches the page.
        "flash": flash if flash in FLASH_KEYS else None,
        **(ctx or {}),
    }
    templates: Jinja2Templates = request.app.state.templates
    response = templates.TemplateResponse(request, name, context, status_code=status)
    if flash is not None:
        response.delete_cookie(FLASH_COOKIE, path="/")  # said once
    if request.scope.get("jackpot.csrf_new"):
        response.set_cookie(
            CSRF_COOKIE,
            context["csrf_token"],
            httponly=True,
            samesite="lax",
            secure=settings_of(request).secure_cookies,
            path="/",
        )
    return response
