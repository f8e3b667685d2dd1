"""Server-rendered pages. The forms post here (CSRF-checked) and redirect; the
match page itself talks to the JSON API and listens to the SSE stream."""

from __future__ import annotations

import json
import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2 import TemplateNotFound
from sqlalchemy import select, update
from starlette.datastructures import FormData

from jackpot.i18n import jinja as i18n_jinja
from jackpot.web import actions, auth
from jackpot.web import models as t
from jackpot.web.actions import Actor
from jackpot.web.app import PACKAGE_DIR
from jackpot.web.deps import (
    bus_of,
    check_form_csrf,
    clear_session_cookie,
    client_address,
    csrf_token,
    current_actor,
    db_of,
    set_session_cookie,
    settings_of,
)
from jackpot.web.errors import ApiError
from jackpot.web.listing import lobby_matches, my_matches
from jackpot.web.profiles import match_seats, seat_links
from jackpot.web.resets import confirm_reset, request_reset
from jackpot.web.settings import MAX_DEADLINE_SECONDS
from jackpot.web.views import load_state

router = APIRouter(include_in_schema=False)

#: Deadline of a match against the bot started with one click: a day per throw,
#: so a guest may leave a match and come back to it.
BOT_DEADLINE = 86400

DEADLINES = [
    (60, "1 minute"),
    (300, "5 minutes"),
    (3600, "1 hour"),
    (6 * 3600, "6 hours"),
    (86400, "1 day"),
    (3 * 86400, "3 days"),
    (7 * 86400, "1 week"),
]


def human_seconds(seconds: int) -> str:
    for limit, word in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= limit and seconds % limit == 0:
            n = seconds // limit
            return f"{n} {word}{'' if n == 1 else 's'}"
    return f"{seconds} second{'' if seconds == 1 else 's'}"


def make_templates() -> Jinja2Templates:
    templates = Jinja2Templates(directory=str(PACKAGE_DIR / "templates"))
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
            auth.CSRF_COOKIE,
            context["csrf_token"],
            httponly=True,
            samesite="lax",
            secure=settings_of(request).secure_cookies,
            path="/",
        )
    return response


def _safe_next(value: Any, default: str = "/") -> str:
    if (
        isinstance(value, str)
        and value.startswith("/")
        and not value.startswith("//")
        and "\\" not in value
    ):
        return value
    return default


def _redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


async def _form(request: Request) -> FormData:
    form = await request.form()
    check_form_csrf(request, form)
    return form


def _text(form: FormData, key: str, default: str = "") -> str:
    value = form.get(key, default)
    return value if isinstance(value, str) else default


def _int(form: FormData, key: str, default: int) -> int:
    try:
        return int(_text(form, key, str(default)))
    except ValueError:
        raise ApiError(422, "invalid", f"{key} must be a whole number") from None


# -- home, play, match -----------------------------------------------------------


@router.get("/")
async def home(request: Request) -> Response:
    return await render(request, "home.html", {"seed": secrets.token_hex(8)})


@router.post("/play")
async def play(request: Request) -> Response:
    """One click from the home page: a match against the bot (or alone), guest or not."""
    form = await _form(request)
    variant = _text(form, "variant", "jackpot")
    solo = _text(form, "mode", "bot") == "solo"
    actor = await current_actor(request)
    new_token = None
    async with db_of(request).write() as conn:
        if actor is None:
            actor, new_token = await auth.create_guest(conn)
        out = await actions.create_match(
            conn,
            actor,
            variant=variant,
            seats=1 if solo else 2,
            bots_count=0 if solo else 1,
            deadline_seconds=BOT_DEADLINE,
            client_seed=_text(form, "client_seed") or None,
            private=True,
            min_deadline=settings_of(request).min_deadline_seconds,
        )
    await bus_of(request).publish(out.match_id, out.events)
    response = _redirect(f"/matches/{out.match_id}")
    if new_token:
        set_session_cookie(response, settings_of(request), new_token, auth.GUEST_DAYS)
    return response


@router.get("/matches/new")
async def new_match_form(request: Request) -> Response:
    actor = await current_actor(request)
    if actor is None or actor.is_guest:
        return _redirect("/signup?next=/matches/new")
    return await render(
        request,
        "new_match.html",
        {
            "deadlines": DEADLINES,
            "seed": secrets.token_hex(8),
            "min_deadline": settings_of(request).min_deadline_seconds,
        },
    )


@router.post("/matches/new")
async def new_match(request: Request) -> Response:
    form = await _form(request)
    actor = await current_actor(request)
    if actor is None or actor.is_guest:
        return _redirect("/signup?next=/matches/new")
    try:
        async with db_of(request).write() as conn:
            out = await actions.create_match(
                conn,
                actor,
                variant=_text(form, "variant", "jackpot"),
                seats=_int(form, "seats", 2),
                bots_count=_int(form, "bots", 0),
                deadline_seconds=_int(form, "deadline_seconds", 86400),
                client_seed=_text(form, "client_seed") or None,
                private=_text(form, "private") == "on",
                min_deadline=settings_of(request).min_deadline_seconds,
            )
    except ApiError as exc:
        return await render(
            request,
            "new_match.html",
            {
                "deadlines": DEADLINES,
                "seed": secrets.token_hex(8),
                "error": exc.message,
                "min_deadline": settings_of(request).min_deadline_seconds,
            },
            status=exc.status,
        )
    await bus_of(request).publish(out.match_id, out.events)
    return _redirect(f"/matches/{out.match_id}")


@router.get("/matches/{match_id}")
async def match_page(match_id: str, request: Request) -> Response:
    actor = await current_actor(request)
    viewer = actor.user_id if actor else None
    async with db_of(request).read() as conn:
        state = await load_state(conn, match_id, viewer)
        seats = seat_links(await match_seats(conn, match_id, viewer))
    seated = any(s["you"] for s in state["seats"])
    can_join = (
        state["status"] == "waiting"
        and not seated
        and any(s["name"] is None and not s["bot"] for s in state["seats"])
    )
    return await render(
        request,
        "match.html",
        {
            "state": state,
            "state_json": json.dumps(state).replace("<", "\\u003c"),
            "seats_json": json.dumps({"seats": seats}).replace("<", "\\u003c"),
            "seated": seated,
            "can_join": can_join,
            "seed": secrets.token_hex(8),
            "max_deadline": MAX_DEADLINE_SECONDS,
        },
    )


@router.post("/matches/{match_id}/join")
async def join_form(match_id: str, request: Request) -> Response:
    form = await _form(request)
    actor = await current_actor(request)
    if actor is None or actor.is_guest:
        return _redirect(f"/signup?next=/matches/{match_id}")
    async with db_of(request).write() as conn:
        out = await actions.join_match(conn, actor, match_id, _text(form, "client_seed") or None)
    await bus_of(request).publish(out.match_id, out.events)
    return _redirect(f"/matches/{match_id}")


@router.get("/lobby")
async def lobby(request: Request) -> Response:
    async with db_of(request).read() as conn:
        matches = await lobby_matches(conn)
    return await render(request, "lobby.html", {"matches": matches})


@router.get("/my")
async def my_page(request: Request) -> Response:
    actor = await current_actor(request)
    matches: list[dict[str, Any]] = []
    if actor is not None:
        async with db_of(request).read() as conn:
            matches = await my_matches(conn, actor.user_id)
    return await render(request, "my_matches.html", {"matches": matches})


# -- accounts ----------------------------------------------------------------------


@router.get("/signup")
async def signup_form(request: Request) -> Response:
    return await render(
        request, "signup.html", {"next": _safe_next(request.query_params.get("next"))}
    )


@router.post("/signup")
async def signup(request: Request) -> Response:
    form = await _form(request)
    nxt = _safe_next(_text(form, "next"))
    guest = await current_actor(request)
    try:
        async with db_of(request).write() as conn:
            _actor, token = await auth.sign_up(
                conn, _text(form, "email"), _text(form, "password"), _text(form, "name"), guest
            )
    except ApiError as exc:
        return await render(
            request,
            "signup.html",
            {
                "error": exc.message,
                "next": nxt,
                "email": _text(form, "email"),
                "name": _text(form, "name"),
            },
            status=exc.status,
        )
    response = _redirect(nxt)
    set_session_cookie(response, settings_of(request), token, auth.SESSION_DAYS)
    return response


@router.get("/login")
async def login_form(request: Request) -> Response:
    return await render(
        request, "login.html", {"next": _safe_next(request.query_params.get("next"))}
    )


@router.post("/login")
async def login(request: Request) -> Response:
    form = await _form(request)
    nxt = _safe_next(_text(form, "next"))
    email, password = _text(form, "email"), _text(form, "password")
    address = client_address(request)
    try:
        async with db_of(request).write() as conn:
            done = await auth.log_in(conn, email, password, address)
        if done is None:
            async with db_of(request).write() as conn:
                await auth.record_login_failure(conn, email, address)
            raise ApiError(401, "bad_login", "that email and password do not match an account")
    except ApiError as exc:
        return await render(
            request,
            "login.html",
            {"error": exc.message, "next": nxt, "email": email},
            status=exc.status,
        )
    response = _redirect(nxt)
    set_session_cookie(response, settings_of(request), done[1], auth.SESSION_DAYS)
    return response


@router.post("/logout")
async def logout(request: Request) -> Response:
    await _form(request)
    cookie = request.cookies.get(auth.SESSION_COOKIE)
    if cookie:
        async with db_of(request).write() as conn:
            await auth.revoke(conn, cookie)
    response = _redirect("/")
    clear_session_cookie(response)
    return response


async def _account_ctx(request: Request, actor: Actor) -> dict[str, Any]:
    async with db_of(request).read() as conn:
        row = (
            await conn.execute(
                select(t.users.c.email, t.users.c.leaderboard).where(t.users.c.id == actor.user_id)
            )
        ).one()
        from jackpot.web.notify import get_pref

        turn_mail = await get_pref(conn, actor.user_id)
    return {"email": row.email, "leaderboard": bool(row.leaderboard), "turn_mail": turn_mail}


@router.get("/account")
async def account_page(request: Request) -> Response:
    actor = await current_actor(request)
    if actor is None or actor.is_guest:
        return _redirect("/login?next=/account")
    return await render(request, "account.html", await _account_ctx(request, actor))


@router.post("/account")
async def account_change(request: Request) -> Response:
    form = await _form(request)
    actor = await current_actor(request)
    if actor is None or actor.is_guest:
        return _redirect("/login?next=/account")
    what = _text(form, "what")
    message = ""
    try:
        async with db_of(request).write() as conn:
            if what == "name":
                name = auth.check_name(_text(form, "name"))
                taken = (
                    await conn.execute(
                        select(t.users.c.id).where(
                            t.users.c.name_key == name.lower(), t.users.c.id != actor.user_id
                        )
                    )
                ).first()
                if taken:
                    raise ApiError(409, "name_taken", "that display name is taken")
                await conn.execute(
                    update(t.users)
                    .where(t.users.c.id == actor.user_id)
                    .values(name=name, name_key=name.lower())
                )
                message = "Your name is now " + name + "."
            elif what == "password":
                if not await auth.verify_password(conn, actor.user_id, _text(form, "current")):
                    raise ApiError(403, "bad_password", "the current password is not right")
                auth.check_password_strength(_text(form, "password"))
                await conn.execute(
                    update(t.users)
                    .where(t.users.c.id == actor.user_id)
                    .values(password_hash=auth.hash_password(_text(form, "password")))
                )
                message = "Your password is changed."
            elif what == "leaderboard":
                on = _text(form, "leaderboard") == "on"
                await conn.execute(
                    update(t.users).where(t.users.c.id == actor.user_id).values(leaderboard=on)
                )
                from jackpot.web.ratings import set_listed

                await set_listed(conn, actor.user_id, on)
                message = "You " + ("appear" if on else "do not appear") + " on the leaderboard."
    except ApiError as exc:
        request.scope["jackpot.actor"] = False
        ctx = await _account_ctx(request, actor)
        return await render(
            request, "account.html", {**ctx, "error": exc.message}, status=exc.status
        )
    request.scope["jackpot.actor"] = False
    ctx = await _account_ctx(request, actor)
    return await render(request, "account.html", {**ctx, "message": message})


@router.get("/reset")
async def reset_form(request: Request) -> Response:
    return await render(request, "reset_request.html")


@router.post("/reset")
async def reset_request(request: Request) -> Response:
    form = await _form(request)
    await request_reset(request, _text(form, "email"))
    return await render(request, "reset_request.html", {"sent": True})


@router.get("/reset/{token}")
async def reset_token_form(token: str, request: Request) -> Response:
    return await render(request, "reset_confirm.html", {"token": token})


@router.post("/reset/{token}")
async def reset_confirm(token: str, request: Request) -> Response:
    form = await _form(request)
    try:
        _actor, session = await confirm_reset(request, token, _text(form, "password"))
    except ApiError as exc:
        return await render(
            request, "reset_confirm.html", {"token": token, "error": exc.message}, status=exc.status
        )
    response = _redirect("/my")
    set_session_cookie(response, settings_of(request), session, auth.SESSION_DAYS)
    return response


# -- content pages --------------------------------------------------------------


async def _content(request: Request, name: str, title: str) -> Response:
    try:
        return await render(request, name)
    except TemplateNotFound:
        return await render(request, "placeholder.html", {"title": title})


@router.get("/rules")
async def rules(request: Request) -> Response:
    return await _content(request, "rules.html", "Rules")


@router.get("/fair-play")
async def fair_play(request: Request) -> Response:
    return await _content(request, "fair_play.html", "Fair play")


@router.get("/verify")
async def verify(request: Request) -> Response:
    return await _content(request, "verify.html", "Verify a match")


@router.get("/leaderboard")
async def leaderboard(request: Request) -> Response:
    return await _content(request, "leaderboard.html", "Leaderboard")
