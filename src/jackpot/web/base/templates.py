"""The pages' templates, wired to the catalogs, and render (visitor and CSRF token).

The forms' CSRF token is set as a cookie the first time a page carries one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from fastapi.templating import Jinja2Templates

from jackpot.i18n import jinja as i18n_jinja
from jackpot.web.base.http import csrf_token, current_actor, settings_of
from jackpot.web.base.identity import CSRF_COOKIE

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"


def make_templates() -> Jinja2Templates:
    templates = Jinja2Templates(directory=str(TEMPLATES_DIR))
    i18n_jinja.install(templates.env)
    return templates


async def render(
    request: Request, name: str, ctx: dict[str, Any] | None = None, status: int = 200
) -> Response:
    actor = await current_actor(request)
    context = {"actor": actor, "csrf_token": csrf_token(request), **(ctx or {})}
    templates: Jinja2Templates = request.app.state.templates
    response = templates.TemplateResponse(request, name, context, status_code=status)
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
