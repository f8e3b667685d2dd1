"""Routes of the notification feature: the signed unsubscribe link, the mail
setting (account page and API) and the list the browser polls for "(Your throw)".

The unsubscribe link needs no login: whoever holds the mail holds the link, and
the link is signed with the site's secret key, so it can neither be guessed nor
turned into one for another account. Opening it shows one button; the click (or a
mail client's own unsubscribe button, RFC 8058 "One-Click", which POSTs) turns the
mails off. A plain GET changes nothing, because mail scanners open links by
themselves and would otherwise unsubscribe people who never asked.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy import select

from jackpot.web import models as t
from jackpot.web import notify
from jackpot.web.deps import (
    check_form_csrf,
    current_actor,
    db_of,
    require_account,
    same_origin,
    settings_of,
)
from jackpot.web.errors import ApiError, forbidden, invalid, unauthorized

router = APIRouter()

CHOICE_TEXT = {
    "long": "for matches with a deadline over an hour (the default)",
    "all": "for every match between people",
    "off": "never",
}


class MailSetting(BaseModel):
    turn_mail: str = Field(description="long (deadlines over an hour), all, or off")


async def _page(request: Request, ctx: dict[str, Any], status: int = 200) -> Response:
    from jackpot.web.pages import render

    return await render(request, "unsubscribe.html", ctx, status=status)


async def _who(request: Request, token: str) -> tuple[int, str] | None:
    user_id = notify.read_unsubscribe_token(settings_of(request), token)
    if user_id is None:
        return None
    async with db_of(request).read() as conn:
        row = (
            await conn.execute(
                select(t.users.c.email).where(
                    t.users.c.id == user_id, t.users.c.is_guest.is_(False)
                )
            )
        ).first()
    if row is None or not row.email:
        return None
    return user_id, str(row.email)


_BAD_LINK = (
    "This unsubscribe link is not valid. Copy the whole link from the mail, or log in "
    "and change the setting on your account page."
)


@router.get("/unsubscribe/{token}", include_in_schema=False)
async def unsubscribe_form(token: str, request: Request) -> Response:
    who = await _who(request, token)
    if who is None:
        return await _page(request, {"error": _BAD_LINK}, status=400)
    async with db_of(request).read() as conn:
        pref = await notify.get_pref(conn, who[0])
    return await _page(request, {"token": token, "email": who[1], "pref": pref})


@router.post("/unsubscribe/{token}", include_in_schema=False)
async def unsubscribe(token: str, request: Request) -> Response:
    who = await _who(request, token)
    if who is None:
        return await _page(request, {"error": _BAD_LINK}, status=400)
    async with db_of(request).write() as conn:
        await notify.set_pref(conn, who[0], "off")
    return await _page(request, {"done": True, "email": who[1]})


@router.get("/api/account/notifications")
async def get_mail_setting(request: Request) -> dict[str, Any]:
    actor = await require_account(request)
    async with db_of(request).read() as conn:
        return {"turn_mail": await notify.get_pref(conn, actor.user_id)}


@router.put("/api/account/notifications")
async def put_mail_setting(body: MailSetting, request: Request) -> dict[str, Any]:
    if not same_origin(request):
        raise forbidden("this request was sent from another site", "cross_site")
    actor = await require_account(request)
    if body.turn_mail not in notify.CHOICES:
        raise invalid(f"turn_mail must be one of {', '.join(notify.CHOICES)}")
    async with db_of(request).write() as conn:
        await notify.set_pref(conn, actor.user_id, body.turn_mail)
    return {"turn_mail": body.turn_mail}


@router.post("/account/mail", include_in_schema=False)
async def mail_setting_form(request: Request) -> Response:
    form = await request.form()
    check_form_csrf(request, form)
    actor = await current_actor(request)
    if actor is None or actor.is_guest:
        return RedirectResponse("/login?next=/account", status_code=303)
    value = form.get("turn_mail")
    if not isinstance(value, str) or value not in notify.CHOICES:
        raise ApiError(422, "invalid", "choose one of the offered settings")
    async with db_of(request).write() as conn:
        await notify.set_pref(conn, actor.user_id, value)
    return RedirectResponse("/account?saved=mail#mail", status_code=303)


@router.get("/api/my/turns")
async def my_turns(request: Request) -> dict[str, Any]:
    """Matches between people waiting for the caller's throw (polled by notify.js)."""
    actor = await current_actor(request)
    if actor is None:
        raise unauthorized("sign in first")
    async with db_of(request).read() as conn:
        return {"matches": await notify.waiting_turns(conn, actor.user_id)}
