"""Confirming an account's address: the link's page and button, and sending the link again.

The mail's link opens a page with a button, as a reset link does: opening the link
changes nothing (mail scanners and link previews open links), pressing the button
confirms the address. Sending the link again is the account page's (notify/
confirmations.py's ``resend``).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from jackpot.web.base.clock import utcnow
from jackpot.web.base.edge.forms import read_form
from jackpot.web.base.edge.http import db_of
from jackpot.web.base.edge.templates import render
from jackpot.web.notify.confirmations import (
    link_target,
    use_link,
)

router = APIRouter(include_in_schema=False)


@router.get("/confirm-email/{token}")
async def confirm_page(token: str, request: Request) -> Response:
    async with db_of(request).read() as conn:
        target = await link_target(conn, token, utcnow())
    if target is None:
        return await render(request, "confirm_email.html", {"dead": True}, status=404)
    return await render(
        request, "confirm_email.html", {"token": token, "email": target.email, "name": target.name}
    )


@router.post("/confirm-email/{token}")
async def confirm(token: str, request: Request) -> Response:
    await read_form(request)
    async with db_of(request).write() as conn:
        done = await use_link(conn, token, utcnow())
    if done is None:
        return await render(request, "confirm_email.html", {"dead": True}, status=404)
    return await render(request, "confirm_email.html", {"done": True, "email": done.email})
