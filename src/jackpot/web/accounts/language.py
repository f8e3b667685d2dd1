"""The language switcher on every page, and where its choice is kept.

The choice goes in a cookie, and in the account too when the visitor has one, so
its mails and its next logins follow it.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from jackpot.i18n import DEFAULT, pick
from jackpot.web.accounts.changes import set_locale
from jackpot.web.base.edge.forms import safe_next, see_other
from jackpot.web.base.edge.http import check_form_csrf, current_actor, db_of, settings_of
from jackpot.web.base.edge.language import set_language_cookie

router = APIRouter(include_in_schema=False)


@router.post("/language")
async def switch_language(request: Request) -> Response:
    form = await request.form()
    check_form_csrf(request, form)
    locale = pick(str(form.get("lang") or "")) or DEFAULT
    actor = await current_actor(request)
    if actor is not None and not actor.is_guest:
        async with db_of(request).write() as conn:
            await set_locale(conn, actor.user_id, locale)
    response = see_other(safe_next(form.get("next")))
    set_language_cookie(response, settings_of(request), locale)
    return response
