"""Routes of notifications: the unsubscribe link, the mail setting, the turn list.

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
from fastapi.responses import Response
from pydantic import BaseModel, Field
from sqlalchemy import select

from jackpot.i18n import N_, gettext
from jackpot.web.base.edge.field_rules import one_of
from jackpot.web.base.edge.forms import form_text, read_form, see_other
from jackpot.web.base.edge.http import current_actor, db_of, require_actor, settings_of
from jackpot.web.base.edge.templates import render
from jackpot.web.base.errors import invalid
from jackpot.web.base.tables import core as t
from jackpot.web.notify.notices import waiting_turns
from jackpot.web.notify.prefs import CHOICES, get_pref, read_unsubscribe_token, set_pref

router = APIRouter()


class MailSetting(BaseModel):
    turn_mail: str = Field(
        description="long (deadlines of an hour or more), all, or off",
        json_schema_extra=one_of(*CHOICES),
    )


async def _page(request: Request, ctx: dict[str, Any], status: int = 200) -> Response:
    return await render(request, "unsubscribe.html", ctx, status=status)


async def _who(request: Request, token: str) -> tuple[int, str] | None:
    user_id = read_unsubscribe_token(settings_of(request), token)
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


_BAD_LINK = N_(
    "This unsubscribe link is not valid. Copy the whole link from the mail, or log in "
    "and change the setting on your account page."
)


@router.get("/unsubscribe/{token}", include_in_schema=False)
async def unsubscribe_form(token: str, request: Request) -> Response:
    who = await _who(request, token)
    if who is None:
        return await _page(request, {"error": gettext(_BAD_LINK)}, status=400)
    async with db_of(request).read() as conn:
        pref = await get_pref(conn, who[0])
    return await _page(request, {"token": token, "email": who[1], "pref": pref})


@router.post("/unsubscribe/{token}", include_in_schema=False)
async def unsubscribe(token: str, request: Request) -> Response:
    who = await _who(request, token)
    if who is None:
        return await _page(request, {"error": gettext(_BAD_LINK)}, status=400)
    async with db_of(request).write() as conn:
        await set_pref(conn, who[0], "off")
    return await _page(request, {"done": True, "email": who[1]})


@router.get("/api/account/notifications")
async def get_mail_setting(request: Request) -> dict[str, Any]:
    actor = await require_actor(request, account=True, same_site=False)
    async with db_of(request).read() as conn:
        return {"turn_mail": await get_pref(conn, actor.user_id)}


@router.put("/api/account/notifications")
async def put_mail_setting(body: MailSetting, request: Request) -> dict[str, Any]:
    actor = await require_actor(request, account=True)
    if body.turn_mail not in CHOICES:
        raise invalid("turn_mail must be one of %(choices)s", choices=", ".join(CHOICES))
    async with db_of(request).write() as conn:
        await set_pref(conn, actor.user_id, body.turn_mail)
    return {"turn_mail": body.turn_mail}


@router.post("/account/mail", include_in_schema=False)
async def mail_setting_form(request: Request) -> Response:
    form = await read_form(request)
    actor = await current_actor(request)
    if actor is None or actor.is_guest:
        return see_other("/login?next=/account")
    value = form_text(form, "turn_mail")
    if value not in CHOICES:
        raise invalid("choose one of the offered settings")
    async with db_of(request).write() as conn:
        await set_pref(conn, actor.user_id, value)
    return see_other("/account?saved=mail#mail")


@router.get("/api/my/turns")
async def my_turns(request: Request) -> dict[str, Any]:
    """Matches between people waiting for the caller's throw (for programs; the
    pages hear the same from the player's live stream, /api/my/events)."""
    actor = await require_actor(request, same_site=False)
    async with db_of(request).read() as conn:
        return {"matches": await waiting_turns(conn, actor.user_id)}
