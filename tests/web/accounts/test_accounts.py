"""Accounts, guests, sessions, tokens, resets, the login limit and cross-site checks."""

from __future__ import annotations

import asyncio
import re
from email import message_from_bytes
from pathlib import Path
from typing import Any

import httpx
from web_helpers import PASSWORD, sign_up

from jackpot.web.notify.resets import send_reset_mails


def csrf_of(html: str) -> str:
    m = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert m is not None
    return m.group(1)


async def test_sign_up_log_out_log_in(make_client) -> None:  # type: ignore[no-untyped-def]
    c = await make_client()
    me = await sign_up(c, "Ana")
    assert me["name"] == "Ana" and me["guest"] is False
    cookie = c.cookies.jar
    set_cookie = next(ck for ck in cookie if ck.name == "jackpot_session")
    assert set_cookie.has_nonstandard_attr("HttpOnly")
    assert (await c.get("/api/account")).json()["email"] == "ana@example.org"
    r = await c.post(
        "/api/account", json={"email": "ana@example.org", "password": PASSWORD, "name": "Other"}
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "email_taken"
    r = await c.post(
        "/api/account", json={"email": "x@example.org", "password": "short", "name": "Xavier"}
    )
    assert r.status_code == 422
    assert (await c.delete("/api/session")).status_code == 200
    assert (await c.get("/api/account")).status_code == 401
    r = await c.post("/api/session", json={"email": "ANA@example.org", "password": PASSWORD})
    assert r.status_code == 200 and r.json()["name"] == "Ana"
    assert (await c.get("/api/account")).status_code == 200


async def test_session_cookie_attributes(client: httpx.AsyncClient) -> None:
    r = await client.post(
        "/api/account", json={"email": "a@example.org", "password": PASSWORD, "name": "Ana"}
    )
    header = r.headers["set-cookie"].lower()
    assert "httponly" in header and "samesite=lax" in header


async def test_login_is_rate_limited_per_account(make_client) -> None:  # type: ignore[no-untyped-def]
    c = await make_client()
    await sign_up(c, "Ana")
    other = await make_client()
    for _ in range(5):
        r = await other.post("/api/session", json={"email": "ana@example.org", "password": "nope"})
        assert r.status_code == 401
    r = await other.post("/api/session", json={"email": "ana@example.org", "password": PASSWORD})
    assert r.status_code == 429
    assert r.json()["error"]["code"] == "too_many_attempts"


async def test_login_is_rate_limited_per_address(make_client) -> None:  # type: ignore[no-untyped-def]
    c = await make_client()
    for i in range(20):
        r = await c.post("/api/session", json={"email": f"u{i}@example.org", "password": "x"})
        assert r.status_code == 401
    r = await c.post("/api/session", json={"email": "new@example.org", "password": "x"})
    assert r.status_code == 429


async def test_bearer_token_lets_a_program_play(make_client) -> None:  # type: ignore[no-untyped-def]
    browser = await make_client()
    await sign_up(browser, "Ana")
    r = await browser.post("/api/tokens", json={"label": "my bot", "password": PASSWORD})
    token = r.json()["token"]
    program = await make_client()
    headers = {"Authorization": f"Bearer {token}"}
    r = await program.post("/api/matches", json={"seats": 2, "bots": 1}, headers=headers)
    assert r.status_code == 201 and "Ana" in [s["name"] for s in r.json()["seats"]]
    r = await program.post(f"/api/matches/{r.json()['id']}/throw", json={}, headers=headers)
    assert r.status_code == 200
    bad = {"Authorization": "Bearer not-a-token"}
    assert (await program.get("/api/account", headers=bad)).status_code == 401
    # A guest cannot mint tokens.
    guest = await make_client()
    await guest.post("/api/matches", json={"seats": 1, "bots": 0})
    r = await guest.post("/api/tokens", json={"password": PASSWORD})
    assert r.status_code == 403


async def test_signing_up_keeps_the_guest_matches(client: httpx.AsyncClient) -> None:
    mid = (await client.post("/api/matches", json={"seats": 2, "bots": 1})).json()["id"]
    assert (await client.get("/api/account")).json()["guest"] is True
    await sign_up(client, "Ana")
    state = (await client.get(f"/api/matches/{mid}")).json()
    assert [s["name"] for s in state["seats"] if s["you"]] == ["Ana"]
    mine = (await client.get("/api/my/matches")).json()["matches"]
    assert [m["id"] for m in mine] == [mid]


async def test_change_name_password_and_leaderboard(client: httpx.AsyncClient) -> None:
    await sign_up(client, "Ana")
    assert (await client.get("/api/account")).json()["leaderboard"] is False
    r = await client.patch("/api/account", json={"name": "Anabel", "leaderboard": True})
    assert r.status_code == 200
    assert r.json()["name"] == "Anabel" and r.json()["leaderboard"] is True
    r = await client.patch(
        "/api/account", json={"password": "new password 1", "current_password": "wrong"}
    )
    assert r.status_code == 403
    r = await client.patch(
        "/api/account", json={"password": "new password 1", "current_password": PASSWORD}
    )
    assert r.status_code == 200
    await client.delete("/api/session")
    r = await client.post(
        "/api/session", json={"email": "ana@example.org", "password": "new password 1"}
    )
    assert r.status_code == 200


def outbox_link(outbox: Path) -> str:
    files = sorted(outbox.glob("*.eml"))
    assert len(files) == 1
    msg = message_from_bytes(files[0].read_bytes())
    body: Any = msg.get_payload(decode=True)
    m = re.search(r"/reset/([A-Za-z0-9_\-]+)", body.decode())
    assert m is not None
    return m.group(1)


async def test_the_account_forms_make_the_same_changes(make_client: Any) -> None:
    """The account page's forms call the API's own change functions: the same
    changes, and the same refusals, shown on the page."""
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")

    async def form(what: str, **fields: str) -> httpx.Response:
        token = csrf_of((await ana.get("/account")).text)
        return await ana.post("/account", data={"csrf_token": token, "what": what, **fields})

    r = await form("name", name="Anabel")
    assert r.status_code == 200 and "Your name is now Anabel." in r.text
    assert (await ana.get("/api/account")).json()["name"] == "Anabel"
    r = await form("name", name="ben")
    assert r.status_code == 409 and "that display name is taken" in r.text
    r = await form("password", current="wrong", password="new password 1")
    assert r.status_code == 403 and "the current password is not right" in r.text
    r = await form("password", current=PASSWORD, password="short")
    assert r.status_code == 422
    r = await form("password", current=PASSWORD, password="new password 1")
    assert r.status_code == 200 and "Your password is changed." in r.text
    r = await form("leaderboard", leaderboard="on")
    assert r.status_code == 200 and (await ana.get("/api/account")).json()["leaderboard"]
    await ana.delete("/api/session")
    r = await ana.post(
        "/api/session", json={"email": "ana@example.org", "password": "new password 1"}
    )
    assert r.status_code == 200 and r.json()["name"] == "Anabel"


async def test_password_reset_by_mail(make_client, settings, app) -> None:  # type: ignore[no-untyped-def]
    c = await make_client()
    await sign_up(c, "Ana")
    stranger = await make_client()
    r = await stranger.post("/api/password-reset", json={"email": "nobody@example.org"})
    assert r.status_code == 202
    assert not settings.outbox_dir.exists() or not list(settings.outbox_dir.glob("*.eml"))
    r = await stranger.post("/api/password-reset", json={"email": "ana@example.org"})
    assert r.status_code == 202
    # The mail worker sends it (jackpot serve runs one), not the request.
    assert await send_reset_mails(app.state.db, settings) == 1
    token = outbox_link(settings.outbox_dir)
    # The link's page offers the form while the link can be used...
    page = await stranger.get(f"/reset/{token}", headers={"accept": "text/html"})
    assert page.status_code == 200 and 'name="password"' in page.text
    # The new password is judged with the account's words, as at sign-up.
    r = await stranger.post(
        "/api/password-reset/confirm", json={"token": token, "password": "ana@example.org"}
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "weak_password"
    # Two requests racing with one link: it is used once.
    first, second = await asyncio.gather(
        stranger.post(
            "/api/password-reset/confirm", json={"token": token, "password": "brand new pass"}
        ),
        stranger.post(
            "/api/password-reset/confirm", json={"token": token, "password": "brand new pass 2"}
        ),
    )
    assert sorted((first.status_code, second.status_code)) == [200, 422]
    won, lost = (first, second) if first.status_code == 200 else (second, first)
    assert won.json()["name"] == "Ana"
    assert lost.json()["error"]["code"] == "bad_reset_token"
    # ...and once used (or for a link that never was) says so on arrival, with no form
    # to fill in for nothing and a way to ask again.
    for link in (token, "made-up-token"):
        page = await stranger.get(f"/reset/{link}", headers={"accept": "text/html"})
        assert page.status_code == 404
        assert 'id="reset-dead"' in page.text and 'name="password"' not in page.text
        assert 'href="/reset"' in page.text
    # The old browser session was signed out by the reset.
    assert (await c.get("/api/account")).status_code == 401


async def test_forms_need_the_csrf_token_and_the_same_origin(client: httpx.AsyncClient) -> None:
    page = await client.get("/")
    token = csrf_of(page.text)
    assert "jackpot_csrf" in client.cookies
    r = await client.post("/play", data={"variant": "jackpot", "mode": "bot"})
    assert r.status_code == 403
    r = await client.post(
        "/play",
        data={"variant": "jackpot", "mode": "bot", "csrf_token": token},
        headers={"origin": "https://evil.example"},
    )
    assert r.status_code == 403
    r = await client.post(
        "/play",
        data={"variant": "jackpot", "mode": "bot", "csrf_token": token},
        headers={"origin": "http://testserver"},
    )
    assert r.status_code == 303 and r.headers["location"].startswith("/matches/m_")
    match_page = await client.get(r.headers["location"])
    assert match_page.status_code == 200 and 'id="tiles"' in match_page.text


async def test_json_from_another_site_is_refused_but_scripts_work(
    client: httpx.AsyncClient,
) -> None:
    r = await client.post(
        "/api/matches", json={"seats": 1, "bots": 0}, headers={"origin": "https://evil.example"}
    )
    assert r.status_code == 403 and r.json()["error"]["code"] == "cross_site"
    r = await client.post(
        "/api/matches", json={"seats": 1, "bots": 0}, headers={"sec-fetch-site": "cross-site"}
    )
    assert r.status_code == 403
    r = await client.post("/api/matches", json={"seats": 1, "bots": 0})  # no Origin: a script
    assert r.status_code == 201
    mid = r.json()["id"]
    r = await client.post(f"/api/matches/{mid}/throw", json={})
    assert r.status_code == 200


async def test_page_forms_sign_up_and_log_in(make_client) -> None:  # type: ignore[no-untyped-def]
    c = await make_client()
    token = csrf_of((await c.get("/signup")).text)
    r = await c.post(
        "/signup",
        data={
            "csrf_token": token,
            "email": "ben@example.org",
            "name": "<script>x</script>",
            "password": PASSWORD,
        },
    )
    assert r.status_code == 422 and "<script>x" not in r.text and "&lt;script&gt;" in r.text
    r = await c.post(
        "/signup",
        data={
            "csrf_token": token,
            "email": "ben@example.org",
            "name": "Ben",
            "password": PASSWORD,
            "next": "//evil.example",
        },
    )
    assert r.status_code == 303 and r.headers["location"] == "/"
    assert "Ben" in (await c.get("/account")).text
    r = await c.post("/logout", data={"csrf_token": token})
    assert r.status_code == 303
    r = await c.post(
        "/login",
        data={"csrf_token": token, "email": "ben@example.org", "password": "wrong", "next": "/my"},
    )
    assert r.status_code == 401 and "do not match" in r.text
    r = await c.post(
        "/login",
        data={"csrf_token": token, "email": "ben@example.org", "password": PASSWORD, "next": "/my"},
    )
    assert r.status_code == 303 and r.headers["location"] == "/my"


async def test_account_errors(make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    r = await ben.patch("/api/account", json={"name": "ana"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken"
    r = await ben.patch("/api/account", json={"name": "x"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_name"
    r = await ben.patch("/api/account", json={"name": "Bot Master"})
    assert r.status_code == 422
    r = await ben.patch("/api/account", json={"password": "short", "current_password": PASSWORD})
    assert r.status_code == 422 and r.json()["error"]["code"] == "weak_password"
    r = await ben.post(
        "/api/account", json={"email": "not-an-email", "password": PASSWORD, "name": "Carl"}
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_email"
    for hidden in ("carl@example.org\u200b", "car\u200dl@example.org", "carl@exam\u202eple.org"):
        r = await ben.post(
            "/api/account", json={"email": hidden, "password": PASSWORD, "name": "Carl"}
        )
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_email", hidden
    r = await ben.post(
        "/api/password-reset/confirm", json={"token": "forged", "password": PASSWORD}
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_reset_token"
    # A dead link is refused before the password is even judged.
    r = await ben.post("/api/password-reset/confirm", json={"token": "forged", "password": "x"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_reset_token"
    # A new password is judged with the account's address and name, as at sign-up.
    r = await ben.patch(
        "/api/account", json={"password": "ben@example.org", "current_password": PASSWORD}
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "weak_password"
    nobody = await make_client()
    assert (await nobody.patch("/api/account", json={"name": "Zed"})).status_code == 401
    assert (await nobody.post("/api/tokens", json={"password": PASSWORD})).status_code == 401
    assert (await nobody.get("/api/my/matches")).status_code == 401
    assert (await nobody.delete("/api/session")).status_code == 200


async def test_a_password_of_the_name_run_together_is_refused(make_client) -> None:  # type: ignore[no-untyped-def]
    """The hint says one's own name is refused: "Mara Lind" with "maralind2026" (or
    the parts the other way round) too, with a message that says why."""
    mara = await make_client()
    for password in ("maralind2026", "LindMara1990"):
        r = await mara.post(
            "/api/account",
            json={"email": "ml@example.org", "password": password, "name": "Mara Lind"},
            headers={"accept-language": "en"},
        )
        assert r.status_code == 422, password
        error = r.json()["error"]
        assert error["code"] == "weak_password"
        assert error["message"].startswith("that password leans on your own name"), error
    r = await mara.post(
        "/api/account",
        json={"email": "ml@example.org", "password": "maralind2026", "name": "Ana Sol"},
    )
    assert r.status_code == 201, r.text
