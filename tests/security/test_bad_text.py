"""Issue 11 item 4: a NUL or a lone surrogate anywhere in a request is a 422, never a 500.

Sent as an attacker would: raw JSON bodies with ``\\ud800`` and ``\\u0000`` escapes,
forms with ``%00``, paths with ``%00``; on SQLite, and on PostgreSQL when
JACKPOT_TEST_DATABASE_URL is set (the NUL cases were 500s there only).
"""

from __future__ import annotations

import re

import httpx
import pytest

from web.web_helpers import PASSWORD, sign_up

#: Repeated on PostgreSQL (make test): text PostgreSQL refuses.
pytestmark = pytest.mark.pg

JSON = {"content-type": "application/json"}


def csrf_of(html: str) -> str:
    m = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert m is not None
    return m.group(1)


def assert_bad_text(r: httpx.Response) -> None:
    assert r.status_code == 422, (r.status_code, r.text)
    body = r.json()["error"]
    assert body["code"] == "bad_text"
    assert "NUL" in body["message"] or "surrogate" in body["message"]


ESCAPES = [r"\ud800", r"\udfff", r"\u0000"]


@pytest.mark.parametrize("bad", ESCAPES)
async def test_sign_up_login_and_reset_refuse_bad_text(
    make_client,  # type: ignore[no-untyped-def]
    bad: str,
) -> None:
    c = await make_client()
    for path, text in [
        ("/api/account", f'{{"email":"a{bad}@example.org","password":"{PASSWORD}","name":"Ana"}}'),
        ("/api/account", f'{{"email":"a@example.org","password":"pw{bad}pw-long","name":"Ana"}}'),
        ("/api/session", f'{{"email":"a{bad}@example.org","password":"x"}}'),
        ("/api/session", f'{{"email":"a@example.org","password":"x{bad}"}}'),
        ("/api/password-reset", f'{{"email":"a{bad}@example.org"}}'),
        ("/api/password-reset/confirm", f'{{"token":"t{bad}","password":"{PASSWORD}"}}'),
        ("/api/password-reset/confirm", f'{{"token":"tok","password":"p{bad}assword-long"}}'),
    ]:
        assert_bad_text(await c.post(path, content=text.encode(), headers=JSON))
    # Nothing was created by any of them.
    r = await c.post("/api/session", json={"email": "a@example.org", "password": PASSWORD})
    assert r.status_code == 401


@pytest.mark.parametrize("bad", ESCAPES)
async def test_signed_in_fields_refuse_bad_text(make_client, bad: str) -> None:  # type: ignore[no-untyped-def]
    c = await make_client()
    await sign_up(c, "Ana")
    for method, path, text in [
        ("PATCH", "/api/account", f'{{"current_password":"x{bad}","password":"{PASSWORD}2"}}'),
        ("PATCH", "/api/account", f'{{"name":"Ana{bad}"}}'),
        ("POST", "/api/tokens", f'{{"label":"my{bad}script","password":"{PASSWORD}"}}'),
        ("POST", "/api/matches", f'{{"variant":"jackpot","client_seed":"s{bad}"}}'),
        ("POST", "/api/matches", f'{{"variant{bad}":"jackpot"}}'),
    ]:
        r = await c.request(method, path, content=text.encode(), headers=JSON)
        assert_bad_text(r)
    assert (await c.get("/api/account")).json()["name"] == "Ana"


async def test_a_surrogate_pair_is_ordinary_text(client: httpx.AsyncClient) -> None:
    """An emoji written as JSON's escaped pair is text like any other."""
    await sign_up(client, "Ana")
    body = rb'{"label":"bot \ud83c\udfb2","password":"' + PASSWORD.encode() + b'"}'
    r = await client.post("/api/tokens", content=body, headers=JSON)
    assert r.status_code == 201, r.text


async def test_nul_in_forms_is_refused(client: httpx.AsyncClient) -> None:
    page = await client.get("/login")
    token = csrf_of(page.text)
    for path in ("/login", "/signup", "/reset"):
        r = await client.post(
            path,
            content=f"csrf_token={token}&email=a%00b%40example.org&password=x&name=Ana".encode(),
            headers={"content-type": "application/x-www-form-urlencoded"},
        )
        assert_bad_text(r)


async def test_nul_in_forms_gets_an_error_page_in_a_browser(client: httpx.AsyncClient) -> None:
    token = csrf_of((await client.get("/login")).text)
    r = await client.post(
        "/login",
        content=f"csrf_token={token}&email=a%00b&password=x".encode(),
        headers={"content-type": "application/x-www-form-urlencoded", "accept": "text/html"},
    )
    assert r.status_code == 422
    assert "NUL" in r.text and "<html" in r.text.lower()


@pytest.mark.parametrize(
    "path",
    [
        "/players/a%00b",
        "/api/players/a%00b",
        "/api/players/a%00b/matches",
        "/api/players/a%00b/records",
        "/players/a%00b/history",
        "/api/matches/m_%00/record",
        "/matches/m%00/replay",
        "/api/leaderboard?variant=jackpot%00",
        "/reset/abc%00def",
        "/unsubscribe/abc%00def",
    ],
)
async def test_nul_in_paths_and_queries_is_refused(client: httpx.AsyncClient, path: str) -> None:
    assert_bad_text(await client.get(path))


async def test_moves_with_bad_text_are_refused(client: httpx.AsyncClient) -> None:
    """The fast lane for moves sits behind the same check."""
    await sign_up(client, "Ana")
    r = await client.post("/api/matches", json={"seats": 2, "bots": 1, "deadline_seconds": 60})
    mid = r.json()["id"]
    r = await client.post(
        f"/api/matches/{mid}/throw", content=rb'{"dice":2,"x":"\u0000"}', headers=JSON
    )
    assert_bad_text(r)
    r = await client.post(f"/api/matches/{mid}/throw", json={})
    assert r.status_code == 200, r.text
