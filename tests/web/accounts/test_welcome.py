"""After a sign-up or a password reset, the page the player lands on says once, in
their language and in a status region, that it worked; nothing of the request is
written into it."""

from __future__ import annotations

import re

from test_accounts import outbox_link
from test_signup_form import csrf_of

from jackpot.web.base.edge.templates import FLASH_COOKIE
from jackpot.web.notify.resets import send_reset_mails

WELCOME = "Welcome to Jackpot! Your account is ready and you are signed in."
RESET = "Your new password is set, and you are signed in."


def flash_of(html: str) -> str | None:
    m = re.search(r'<p class="notice flash" id="flash" role="status">([^<]*)</p>', html)
    return m.group(1) if m else None


async def sign_up_by_form(c, nxt: str = "/", lang: str = "en"):  # type: ignore[no-untyped-def]
    headers = {"Accept-Language": lang}
    token = csrf_of((await c.get("/signup", headers=headers)).text)
    return await c.post(
        "/signup",
        data={
            "csrf_token": token,
            "email": "zuzana@example.org",
            "name": "Zuzana",
            "password": "a long passphrase of mine",
            "next": nxt,
        },
        headers=headers,
    )


async def test_the_page_after_sign_up_says_welcome_once(make_client) -> None:  # type: ignore[no-untyped-def]
    c = await make_client()
    r = await sign_up_by_form(c, nxt="/lobby")
    assert r.status_code == 303 and r.headers["location"] == "/lobby"
    page = await c.get("/lobby")
    assert flash_of(page.text) == WELCOME
    assert '<script type="module" src="/static/flash.js">' in page.text
    # Once: the next page says nothing more.
    again = await c.get("/lobby")
    assert flash_of(again.text) is None and WELCOME not in again.text
    assert "/static/flash.js" not in again.text


async def test_the_welcome_is_in_the_players_language(make_client) -> None:  # type: ignore[no-untyped-def]
    c = await make_client()
    await sign_up_by_form(c, lang="pt")
    page = await c.get("/", headers={"Accept-Language": "pt"})
    said = flash_of(page.text)
    assert said and said != WELCOME and "Jackpot" in said


async def test_only_a_known_key_picks_a_message(make_client) -> None:  # type: ignore[no-untyped-def]
    c = await make_client()
    for value in ("hello", "<b>hi</b>", "welcome2"):
        c.cookies.set(FLASH_COOKIE, value)
        page = await c.get("/rules")
        assert page.status_code == 200 and flash_of(page.text) is None
        assert value not in page.text
        c.cookies.delete(FLASH_COOKIE)
    # A welcome asked for by a query string is not a welcome either.
    page = await c.get("/", params={"flash": "welcome", "message": "You won 1000 EUR"})
    assert flash_of(page.text) is None and "1000 EUR" not in page.text


async def test_the_page_after_a_reset_says_the_password_is_set(  # type: ignore[no-untyped-def]
    make_client, settings, app
) -> None:
    await sign_up_by_form(await make_client())
    c = await make_client()
    r = await c.post("/api/password-reset", json={"email": "zuzana@example.org"})
    assert r.status_code == 202
    assert await send_reset_mails(app.state.db, settings) == 1
    token = outbox_link(settings.outbox_dir)
    form = await c.get(f"/reset/{token}", headers={"accept": "text/html"})
    r = await c.post(
        f"/reset/{token}",
        data={"csrf_token": csrf_of(form.text), "password": "another long passphrase"},
    )
    assert r.status_code == 303 and r.headers["location"] == "/my"
    assert flash_of((await c.get("/my")).text) == RESET
    assert flash_of((await c.get("/my")).text) is None
