"""The colour theme switch on every page (the device's, light, dark), and where it is kept.

As with the language: a cookie, read by the server so the first paint has the theme,
and for an account also ``users.theme``, which a log-in on another device restores.
Choosing the device's own setting clears the account's choice.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from jackpot.web.accounts.changes import set_theme
from jackpot.web.base.edge.forms import safe_next, see_other
from jackpot.web.base.edge.http import check_form_csrf, current_actor, db_of, settings_of
from jackpot.web.base.edge.theme import THEMES, set_theme_cookie
from jackpot.web.base.errors import invalid

router = APIRouter(include_in_schema=False)


@router.post("/theme")
async def switch_theme(request: Request) -> Response:
    form = await request.form()
    check_form_csrf(request, form)
    theme = form.get("theme")
    if not isinstance(theme, str) or theme not in THEMES:
        raise invalid("the theme must be one of %(choices)s", choices=", ".join(THEMES))
    actor = await current_actor(request)
    if actor is not None and not actor.is_guest:
        async with db_of(request).write() as conn:
            await set_theme(conn, actor.user_id, theme)
    response = see_other(safe_next(form.get("next")))
    set_theme_cookie(response, settings_of(request), theme)
    return response
