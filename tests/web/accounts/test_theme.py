"""The colour theme switch: a cookie for everyone, the account's column for people
(restored at log-in on another device, kept from a guest's choice at sign-up), and
the page's <html data-theme> written by the server, so the first paint has it."""

from __future__ import annotations

import re
from typing import Any

import httpx
from sqlalchemy import select
from web_helpers import PASSWORD, sign_up

from jackpot.web.base.tables import core as t


def csrf_of(html: str) -> str:
    m = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert m is not None
    return m.group(1)


def theme_in(html: str) -> str | None:
    """The theme the page is drawn in (None: the device's), and its colour-scheme meta."""
    root = re.search(r"<html [^>]*>", html)
    assert root is not None
    m = re.search(r'data-theme="(\w+)"', root.group(0))
    scheme = re.search(r'<meta name="color-scheme" content="([^"]+)">', html)
    assert scheme is not None
    assert scheme.group(1) == (m.group(1) if m else "light dark")
    return m.group(1) if m else None


HTML = {"Accept": "text/html"}


async def choose(client: httpx.AsyncClient, theme: str, back: str = "/rules") -> httpx.Response:
    token = csrf_of((await client.get("/")).text)
    return await client.post("/theme", data={"csrf_token": token, "theme": theme, "next": back})


async def stored_theme(app: Any, name: str) -> str | None:
    async with app.state.db.read() as conn:
        return (
            await conn.execute(select(t.users.c.theme).where(t.users.c.name == name))
        ).scalar_one()


async def test_a_guest_s_choice_is_a_cookie_the_pages_are_drawn_with(make_client: Any) -> None:
    c = await make_client()
    assert theme_in((await c.get("/")).text) is None
    r = await choose(c, "dark")
    assert r.status_code == 303 and r.headers["location"] == "/rules"
    assert "theme=dark" in r.headers["set-cookie"] and "httponly" in r.headers["set-cookie"].lower()
    for path in ("/", "/rules", "/lobby", "/no-such-page"):
        assert theme_in((await c.get(path, headers=HTML)).text) == "dark", path
    await choose(c, "light")
    assert theme_in((await c.get("/")).text) == "light"
    await choose(c, "system")
    assert theme_in((await c.get("/")).text) is None


async def test_a_cookie_with_other_text_draws_the_device_s_theme(make_client: Any) -> None:
    c = await make_client()
    page = (await c.get("/", headers={"Cookie": 'theme="><script>'})).text
    assert theme_in(page) is None and "<script>\"" not in page


async def test_bad_choices_are_refused(make_client: Any) -> None:
    c = await make_client()
    r = await choose(c, "purple")
    assert r.status_code == 422 and "the theme must be one of system, light, dark" in r.text
    r = await c.post("/theme", data={"theme": "dark"})
    assert r.status_code == 403
    assert theme_in((await c.get("/")).text) is None


async def test_an_account_keeps_its_choice_for_its_other_devices(
    make_client: Any, app: Any
) -> None:
    phone, laptop = await make_client(), await make_client()
    await sign_up(phone, "Ana")
    await choose(phone, "dark")
    assert await stored_theme(app, "Ana") == "dark"
    assert theme_in((await laptop.get("/")).text) is None
    r = await laptop.post("/api/session", json={"email": "ana@example.org", "password": PASSWORD})
    assert r.status_code == 200
    assert theme_in((await laptop.get("/")).text) == "dark"
    # The form's log-in restores it too; the device's own setting clears the account's.
    tablet = await make_client()
    token = csrf_of((await tablet.get("/login")).text)
    await tablet.post(
        "/login", data={"csrf_token": token, "email": "ana@example.org", "password": PASSWORD}
    )
    assert theme_in((await tablet.get("/")).text) == "dark"
    await choose(tablet, "system")
    assert await stored_theme(app, "Ana") is None


async def test_a_guest_s_choice_goes_with_the_account_it_signs_up_for(
    make_client: Any, app: Any
) -> None:
    c = await make_client()
    await choose(c, "light")
    await sign_up(c, "Ben")
    assert await stored_theme(app, "Ben") == "light"
    plain = await make_client()
    await sign_up(plain, "Cai")
    assert await stored_theme(app, "Cai") is None
