"""The JSON API of accounts: sign-up, sessions, the account, API tokens, resets."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from jackpot.i18n import LANGUAGES, gettext, pick
from jackpot.web.accounts import changes, credentials
from jackpot.web.accounts.language import restore_language
from jackpot.web.accounts.resets import confirm_reset, request_reset
from jackpot.web.base.errors import invalid
from jackpot.web.base.http import (
    check_same_site,
    clear_session_cookie,
    client_address,
    current_actor,
    db_of,
    forget_actor,
    require_actor,
    set_session_cookie,
    settings_of,
)
from jackpot.web.base.identity import SESSION_COOKIE, Actor

router = APIRouter(prefix="/api")


class SignUp(BaseModel):
    email: str
    password: str
    name: str


class LogIn(BaseModel):
    email: str
    password: str


class NewToken(BaseModel):
    label: str | None = Field(None, max_length=80)


class AccountChange(BaseModel):
    name: str | None = None
    password: str | None = None
    current_password: str | None = None
    leaderboard: bool | None = None
    #: The account's language for its pages and mails: "en", "pt", "ms", "et" or "sk".
    locale: str | None = None


class ResetRequest(BaseModel):
    email: str


class ResetConfirm(BaseModel):
    token: str
    password: str


def _me(actor: Actor, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"id": actor.user_id, "name": actor.name, "guest": actor.is_guest, **(extra or {})}


@router.post("/account", status_code=201)
async def sign_up(body: SignUp, request: Request, response: Response) -> dict[str, Any]:
    check_same_site(request)
    guest = await current_actor(request)
    async with db_of(request).write() as conn:
        actor, token = await credentials.sign_up(conn, body.email, body.password, body.name, guest)
    set_session_cookie(response, settings_of(request), token, credentials.SESSION_DAYS)
    return _me(actor)


@router.get("/account")
async def get_account(request: Request) -> dict[str, Any]:
    actor = await require_actor(request, same_site=False)
    async with db_of(request).read() as conn:
        row = await changes.read_account(conn, actor.user_id)
    extra = {"email": row.email, "leaderboard": bool(row.leaderboard), "locale": row.locale}
    return _me(actor, extra)


@router.patch("/account")
async def change_account(body: AccountChange, request: Request) -> dict[str, Any]:
    """Any of name, password (with the current one) and leaderboard, all or nothing."""
    actor = await require_actor(request, account=True)
    async with db_of(request).write() as conn:
        if body.password is not None:
            await changes.change_password(
                conn, actor.user_id, body.current_password or "", body.password
            )
        if body.name is not None:
            await changes.rename(conn, actor.user_id, body.name)
        if body.leaderboard is not None:
            await changes.set_leaderboard(conn, actor.user_id, body.leaderboard)
        if body.locale is not None:
            if pick(body.locale) != body.locale:
                raise invalid("locale must be one of %(choices)s", choices=", ".join(LANGUAGES))
            await changes.set_locale(conn, actor.user_id, body.locale)
    forget_actor(request)
    return await get_account(request)


@router.post("/session")
async def log_in(body: LogIn, request: Request, response: Response) -> dict[str, Any]:
    check_same_site(request)
    actor, token = await credentials.log_in(
        db_of(request), body.email, body.password, client_address(request)
    )
    set_session_cookie(response, settings_of(request), token, credentials.SESSION_DAYS)
    await restore_language(request, response, actor.user_id)
    return _me(actor)


@router.delete("/session")
async def log_out(request: Request, response: Response) -> dict[str, Any]:
    check_same_site(request)
    cookie = request.cookies.get(SESSION_COOKIE)
    if cookie:
        async with db_of(request).write() as conn:
            await credentials.revoke(conn, cookie)
    clear_session_cookie(response)
    return {"signed_out": True}


@router.post("/tokens", status_code=201)
async def new_token(request: Request, body: NewToken | None = None) -> dict[str, Any]:
    """A bearer token for a program: ``Authorization: Bearer <token>``."""
    actor = await require_actor(request, account=True)
    async with db_of(request).write() as conn:
        token = await credentials.new_credential(
            conn, actor.user_id, "token", None, body.label if body else None
        )
    return {"token": token, "type": "bearer"}


@router.post("/password-reset", status_code=202)
async def password_reset(body: ResetRequest, request: Request) -> dict[str, Any]:
    check_same_site(request)
    await request_reset(request, body.email)
    return {"sent": gettext("if an account has that address, a link is on its way")}


@router.post("/password-reset/confirm")
async def password_reset_confirm(
    body: ResetConfirm, request: Request, response: Response
) -> dict[str, Any]:
    check_same_site(request)
    actor, token = await confirm_reset(request, body.token, body.password)
    set_session_cookie(response, settings_of(request), token, credentials.SESSION_DAYS)
    return _me(actor)
