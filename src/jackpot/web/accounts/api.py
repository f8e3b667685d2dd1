"""The JSON API of accounts: sign-up, sessions, the account, resets (tokens: tokens.py)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from jackpot.i18n import LANGUAGES, gettext, pick
from jackpot.web.accounts import blocks, changes, credentials, devices, signin
from jackpot.web.accounts.resets import confirm_reset, request_reset
from jackpot.web.base.edge import field_rules as rules
from jackpot.web.base.edge.http import (
    check_same_site,
    clear_session_cookie,
    db_of,
    forget_actor,
    require_actor,
    set_session_cookie,
    settings_of,
)
from jackpot.web.base.errors import invalid
from jackpot.web.base.identity import SESSION_COOKIE, Actor
from jackpot.web.notify.confirmations import is_confirmed, resend

router = APIRouter(prefix="/api")


class SignUp(BaseModel):
    email: str = Field(json_schema_extra=rules.EMAIL)
    password: str = Field(json_schema_extra=rules.NEW_PASSWORD)
    name: str = Field(description="your display name", json_schema_extra=rules.NAME)


class LogIn(BaseModel):
    email: str
    password: str


class AccountChange(BaseModel):
    name: str | None = Field(None, json_schema_extra=rules.NAME)
    password: str | None = Field(None, json_schema_extra=rules.NEW_PASSWORD)
    current_password: str | None = None
    leaderboard: bool | None = Field(None, strict=True)
    #: The account's language for its pages and mails: "en", "pt", "ms", "et" or "sk".
    locale: str | None = Field(None, json_schema_extra=rules.LOCALE)
    #: Who may challenge this account: "anyone" or "nobody".
    challenges: str | None = Field(
        None, json_schema_extra=rules.one_of("anyone", "nobody", nullable=True)
    )


class Autoplay(BaseModel):
    """The autoplay default for matches between people, an hour or more a throw."""

    model_config = ConfigDict(extra="forbid")

    throws: bool = Field(description="throw for me when the throw is no choice", strict=True)
    single_covers: bool = Field(
        description="cover for me when only one cover is possible", strict=True
    )


class ResetRequest(BaseModel):
    email: str


class ResetConfirm(BaseModel):
    token: str
    password: str = Field(json_schema_extra=rules.NEW_PASSWORD)


def _me(actor: Actor, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"id": actor.user_id, "name": actor.name, "guest": actor.is_guest, **(extra or {})}


@router.post("/account", status_code=201)
async def sign_up(body: SignUp, request: Request, response: Response) -> dict[str, Any]:
    check_same_site(request)
    signed = await signin.sign_up(request, body.email, body.password, body.name)
    _signed_in(response, request, signed)
    return _me(signed.actor)


@router.get("/account")
async def get_account(request: Request) -> dict[str, Any]:
    actor = await require_actor(request, same_site=False)
    async with db_of(request).read() as conn:
        row = await changes.read_account(conn, actor.user_id)
        confirmed = await is_confirmed(conn, actor.user_id)
        challengeable = await blocks.accepts_challenges(conn, actor.user_id)
    extra = {
        "email": row.email,
        # Until it is, the address gets only its confirmation link and reset mails.
        "email_confirmed": confirmed,
        "leaderboard": bool(row.leaderboard),
        "locale": row.locale,
        "challenges": "anyone" if challengeable else "nobody",
    }
    return _me(actor, extra)


@router.post("/account/email-confirmation", status_code=202)
async def send_confirmation(request: Request) -> dict[str, Any]:
    """The link that confirms the account's address, sent again (409 if it is
    confirmed already; 429 past ``JACKPOT_CONFIRM_MAIL_LIMIT`` a day)."""
    actor = await require_actor(request, account=True)
    async with db_of(request).read() as conn:
        email = (await changes.read_account(conn, actor.user_id)).email
    return {"sent": await resend(request, actor.user_id, email)}


def _signed_in(response: Response, request: Request, signed: signin.SignedIn) -> None:
    settings = settings_of(request)
    set_session_cookie(response, settings, signed.session, credentials.SESSION_DAYS)
    devices.set_device_cookie(response, settings, signed.device)


@router.patch("/account")
async def change_account(
    body: AccountChange, request: Request, response: Response
) -> dict[str, Any]:
    """Any of name, password (with the current one), leaderboard, language and who may
    challenge the account, all or nothing."""
    actor = await require_actor(request, account=True)
    password_hash = ""
    if body.password is not None:
        await credentials.require_session(request)
        # Checked and hashed before the transaction: argon2 must not hold the writer.
        email = await signin.check_current_password(request, actor, body.current_password or "")
        password_hash = await signin.new_password_hash(
            request, body.password, *signin.user_words(email, actor.name)
        )
    if body.name is not None:
        await blocks.count_rename(request, actor.user_id)
    async with db_of(request).write() as conn:
        if body.password is not None:
            await changes.change_password(
                conn, actor.user_id, password_hash, request.cookies.get(SESSION_COOKIE)
            )
            # Every device cookie went with the other sessions; this browser's is new.
            device = await devices.new_device(conn, settings_of(request), actor.user_id)
            devices.set_device_cookie(response, settings_of(request), device)
        if body.name is not None:
            await changes.rename(conn, actor.user_id, body.name)
        if body.leaderboard is not None:
            await changes.set_leaderboard(conn, actor.user_id, body.leaderboard)
        if body.locale is not None:
            if pick(body.locale) != body.locale:
                raise invalid("locale must be one of %(choices)s", choices=", ".join(LANGUAGES))
            await changes.set_locale(conn, actor.user_id, body.locale)
        if body.challenges is not None:
            if body.challenges not in ("anyone", "nobody"):
                raise invalid("challenges must be 'anyone' or 'nobody'")
            await blocks.set_challenges(conn, actor.user_id, body.challenges == "anyone")
    forget_actor(request)
    return await get_account(request)


@router.get("/account/autoplay")
async def get_autoplay(request: Request) -> dict[str, bool]:
    actor = await require_actor(request, same_site=False)
    async with db_of(request).read() as conn:
        return await changes.read_autoplay(conn, actor.user_id)


@router.put("/account/autoplay")
async def put_autoplay(body: Autoplay, request: Request) -> dict[str, bool]:
    """The default for the account's next matches; a match under way keeps its own
    (``PUT /api/matches/{id}/autoplay`` switches it)."""
    actor = await require_actor(request, account=True)
    async with db_of(request).write() as conn:
        return await changes.set_autoplay(conn, actor.user_id, body.throws, body.single_covers)


@router.post("/session")
async def log_in(body: LogIn, request: Request, response: Response) -> dict[str, Any]:
    check_same_site(request)
    signed = await signin.log_in(request, body.email, body.password)
    _signed_in(response, request, signed)
    await signin.restore_language(request, response, signed.actor.user_id)
    await signin.restore_theme(request, response, signed.actor.user_id)
    return _me(signed.actor)


@router.delete("/session")
async def log_out(request: Request, response: Response) -> dict[str, Any]:
    check_same_site(request)
    cookie = request.cookies.get(SESSION_COOKIE)
    if cookie:
        async with db_of(request).write() as conn:
            await credentials.revoke(conn, cookie)
    clear_session_cookie(response)
    return {"signed_out": True}


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
    signed = await confirm_reset(request, body.token, body.password)
    _signed_in(response, request, signed)
    return _me(signed.actor)
