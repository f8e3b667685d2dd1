"""The account pages: sign-up, log-in and out, the account page, password resets.

The forms post here (CSRF-checked) and redirect, or show the page again with what
went wrong.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from jackpot.i18n import gettext, ngettext
from jackpot.web.accounts import blocks, changes, credentials, devices, signin, token_store
from jackpot.web.accounts.resets import confirm_reset, request_reset, reset_link_usable
from jackpot.web.base.clock import utcnow
from jackpot.web.base.edge.forms import form_text, read_form, safe_next, see_other
from jackpot.web.base.edge.http import (
    clear_session_cookie,
    current_actor,
    db_of,
    forget_actor,
    set_session_cookie,
    settings_of,
)
from jackpot.web.base.edge.templates import render, set_flash
from jackpot.web.base.errors import ApiError, CountedError, invalid
from jackpot.web.base.identity import SESSION_COOKIE, Actor
from jackpot.web.notify.confirmations import is_confirmed, resend
from jackpot.web.notify.prefs import get_pref
from jackpot.web.players.standing import matches_to_settle, standing

router = APIRouter(include_in_schema=False)

#: Where ``_change`` leaves the device cookie a password change made.
NEW_DEVICE = "jackpot.new_device"


@router.get("/signup")
async def signup_form(request: Request) -> Response:
    return await render(
        request, "signup.html", {"next": safe_next(request.query_params.get("next"))}
    )


@router.post("/signup")
async def signup(request: Request) -> Response:
    form = await read_form(request)
    nxt = safe_next(form_text(form, "next"))
    try:
        signed = await signin.sign_up(
            request, form_text(form, "email"), form_text(form, "password"), form_text(form, "name")
        )
    except ApiError as exc:
        return await render(
            request,
            "signup.html",
            {
                "error": exc.message,
                "next": nxt,
                "email": form_text(form, "email"),
                "name": form_text(form, "name"),
            },
            status=exc.status,
        )
    response = see_other(nxt)
    _signed_in(response, request, signed)
    set_flash(response, request, "welcome")  # the page they land on says it worked
    return response


def _signed_in(response: Response, request: Request, signed: signin.SignedIn) -> None:
    settings = settings_of(request)
    set_session_cookie(response, settings, signed.session, credentials.SESSION_DAYS)
    devices.set_device_cookie(response, settings, signed.device)


@router.get("/login")
async def login_form(request: Request) -> Response:
    return await render(
        request, "login.html", {"next": safe_next(request.query_params.get("next"))}
    )


@router.post("/login")
async def login(request: Request) -> Response:
    form = await read_form(request)
    nxt = safe_next(form_text(form, "next"))
    email, password = form_text(form, "email"), form_text(form, "password")
    try:
        signed = await signin.log_in(request, email, password)
    except ApiError as exc:
        return await render(
            request,
            "login.html",
            {"error": exc.message, "next": nxt, "email": email},
            status=exc.status,
        )
    response = see_other(nxt)
    _signed_in(response, request, signed)
    await signin.restore_language(request, response, signed.actor.user_id)
    await signin.restore_theme(request, response, signed.actor.user_id)
    return response


@router.post("/logout")
async def logout(request: Request) -> Response:
    await read_form(request)
    cookie = request.cookies.get(SESSION_COOKIE)
    if cookie:
        async with db_of(request).write() as conn:
            await credentials.revoke(conn, cookie)
    response = see_other("/")
    clear_session_cookie(response)
    return response


#: The expiries the account page offers for a new API token, in days (the API takes
#: any number from 1 to token_store.MAX_DAYS); the middle one is the API's default.
TOKEN_DAYS = (7, 30, token_store.DEFAULT_DAYS, 180, token_store.MAX_DAYS)


async def _account_ctx(request: Request, actor: Actor) -> dict[str, Any]:
    async with db_of(request).read() as conn:
        row = await changes.read_account(conn, actor.user_id)
        turn_mail = await get_pref(conn, actor.user_id)
        autoplay = await changes.read_autoplay(conn, actor.user_id)
        api_tokens = await token_store.tokens_of(conn, actor.user_id)
        email_confirmed = await is_confirmed(conn, actor.user_id)
        challengeable = await blocks.accepts_challenges(conn, actor.user_id)
        blocked = await blocks.blocked_names(conn, actor.user_id)
    return {
        "challengeable": challengeable,
        "blocked": blocked,
        "email": row.email,
        "email_confirmed": email_confirmed,
        "leaderboard": bool(row.leaderboard),
        "turn_mail": turn_mail,
        "autoplay": autoplay,
        "tokens": api_tokens,
        "token_days": TOKEN_DAYS,
        "default_days": token_store.DEFAULT_DAYS,
    }


async def _token_change(request: Request, actor: Actor, what: str, form: Any) -> dict[str, Any]:
    """Make or revoke an API token from the account page; what the page then shows (a
    new token's secret, this once). A token cannot do either (403 session_required)."""
    await credentials.require_session(request)
    if what == "revoke_token":
        async with db_of(request).write() as conn:
            await token_store.revoke(conn, actor.user_id, form_text(form, "token_id"))
        return {"message": gettext("Token revoked: a program using it is refused from now on.")}
    label = " ".join(form_text(form, "label").split()) or None
    if label is not None and len(label) > token_store.LABEL_LENGTH:
        raise CountedError(
            422,
            "bad_label",
            "a token's label is at most %(num)s character",
            "a token's label is at most %(num)s characters",
            token_store.LABEL_LENGTH,
        )
    days = form_text(form, "days")
    if days not in {str(d) for d in TOKEN_DAYS}:
        raise invalid(
            "choose when the token expires: after %(choices)s days",
            "bad_days",
            choices=", ".join(map(str, TOKEN_DAYS)),
        )
    password = form_text(form, "current")
    made = await token_store.make_token(request, actor, label, int(days), password)
    return {
        "message": gettext("API token made."),
        "new_token": {**made, "label": label},
    }


@router.get("/account")
async def account_page(request: Request) -> Response:
    actor = await current_actor(request)
    if actor is None or actor.is_guest:
        return see_other("/login?next=/account")
    return await render(request, "account.html", await _account_ctx(request, actor))


async def _change(request: Request, actor: Actor, what: str, form: Any) -> str:
    """Make the change one form of the account page asks for; what to say about it.
    A new device cookie for the browser, if the change made one, waits in
    ``request.scope[NEW_DEVICE]``."""
    password_hash = ""
    if what == "confirm_email":
        async with db_of(request).read() as conn:
            email = (await changes.read_account(conn, actor.user_id)).email
        return await resend(request, actor.user_id, email)
    if what == "password":
        await credentials.require_session(request)
        # Checked and hashed before the transaction: argon2 must not hold the writer.
        email = await signin.check_current_password(request, actor, form_text(form, "current"))
        password_hash = await signin.new_password_hash(
            request, form_text(form, "password"), *signin.user_words(email, actor.name)
        )
    if what in ("block", "unblock"):
        await blocks.count_name_lookup(request)
    if what == "name":
        await blocks.count_rename(request, actor.user_id)
    async with db_of(request).write() as conn:
        if what == "name":
            name = await changes.rename(conn, actor.user_id, form_text(form, "name"))
            return gettext("Your name is now %(name)s.", name=name)
        if what == "password":
            await changes.change_password(
                conn, actor.user_id, password_hash, request.cookies.get(SESSION_COOKIE)
            )
            # Every device cookie went with the other sessions; this browser's is new.
            request.scope[NEW_DEVICE] = await devices.new_device(
                conn, settings_of(request), actor.user_id
            )
            return gettext("Your password is changed.")
        if what == "leaderboard":
            on = form_text(form, "leaderboard") == "on"
            await changes.set_leaderboard(conn, actor.user_id, on)
            if not on:
                return gettext("You do not appear on the leaderboard.")
            settled, played = await standing(conn, actor.user_id)
            if settled:
                return gettext("You appear on the leaderboard.")
            # Listed only once the rating settles: saying "you appear" would be untrue.
            low, high = matches_to_settle()
            return ngettext(
                "You will appear on the leaderboard once your rating settles, after "
                "%(low)s to %(high)s rated matches; so far you have %(num)s rated match.",
                "You will appear on the leaderboard once your rating settles, after "
                "%(low)s to %(high)s rated matches; so far you have %(num)s rated matches.",
                played,
                low=low,
                high=high,
            )
        if what == "autoplay":
            await changes.set_autoplay(
                conn,
                actor.user_id,
                form_text(form, "throws") == "on",
                form_text(form, "single_covers") == "on",
            )
            return gettext("Forced-move setting saved for your next matches.")
        if what == "challenges":
            anyone = form_text(form, "challenges") == "anyone"
            await blocks.set_challenges(conn, actor.user_id, anyone)
            if anyone:
                return gettext("Anyone may challenge you now.")
            return gettext("Nobody can challenge you now.")
        if what == "block":
            name = await blocks.block(
                conn,
                actor.user_id,
                form_text(form, "name"),
                utcnow(),
                settings_of(request).blocks_per_account,
            )
            return gettext("You blocked %(name)s.", name=name)
        if what == "unblock":
            name = form_text(form, "name")
            await blocks.unblock(conn, actor.user_id, name)
            return gettext("You no longer block %(name)s.", name=name)
    return ""


@router.post("/account")
async def account_change(request: Request) -> Response:
    form = await read_form(request)
    actor = await current_actor(request)
    if actor is None or actor.is_guest:
        return see_other("/login?next=/account")
    what = form_text(form, "what")
    try:
        if what in ("token", "revoke_token"):
            shown = await _token_change(request, actor, what, form)
        else:
            shown = {"message": await _change(request, actor, what, form)}
    except ApiError as exc:
        forget_actor(request)
        ctx = await _account_ctx(request, actor)
        if what == "token":
            # Said beside the token form, which keeps what was typed but the password:
            # the label and, when it is one on offer, the validity chosen.
            shown = {"token_error": exc.message, "token_label": form_text(form, "label")}
            days = form_text(form, "days")
            if days in {str(d) for d in TOKEN_DAYS}:
                shown["default_days"] = int(days)
        else:
            shown = {"error": exc.message}
        return await render(request, "account.html", {**ctx, **shown}, status=exc.status)
    forget_actor(request)
    ctx = await _account_ctx(request, actor)
    response = await render(request, "account.html", {**ctx, **shown})
    if "new_token" in shown:
        response.headers["Cache-Control"] = "no-store"  # the secret stays out of caches
    devices.set_device_cookie(response, settings_of(request), request.scope.get(NEW_DEVICE))
    return response


@router.get("/reset")
async def reset_form(request: Request) -> Response:
    return await render(request, "reset_request.html")


@router.post("/reset")
async def reset_request(request: Request) -> Response:
    form = await read_form(request)
    await request_reset(request, form_text(form, "email"))
    return await render(request, "reset_request.html", {"sent": True})


@router.get("/reset/{token}")
async def reset_token_form(token: str, request: Request) -> Response:
    if not await reset_link_usable(request, token):
        return await render(
            request, "reset_confirm.html", {"token": token, "dead": True}, status=404
        )
    return await render(request, "reset_confirm.html", {"token": token})


@router.post("/reset/{token}")
async def reset_confirm(token: str, request: Request) -> Response:
    form = await read_form(request)
    try:
        signed = await confirm_reset(request, token, form_text(form, "password"))
    except ApiError as exc:
        # A link used up meanwhile (another tab) reads as on arrival: no form to retry.
        dead = exc.code == "bad_reset_token"
        return await render(
            request,
            "reset_confirm.html",
            {"token": token, "error": exc.message, "dead": dead},
            status=exc.status,
        )
    response = see_other("/my")
    _signed_in(response, request, signed)
    set_flash(response, request, "password_reset")
    return response
