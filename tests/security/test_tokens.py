"""Issue 11 item 3: API tokens expire, can be listed and revoked, die with a password
change or a reset, and cannot take the account over.

The attack: a leaked token worked for ever, survived the owner's password change and
a reset, changed the password itself and minted more tokens. Now each of those
requests is refused, and the owner sees and revokes every token.
"""

from __future__ import annotations

from datetime import timedelta

import httpx
from sqlalchemy import update

from jackpot.web.base.clock import utcnow
from jackpot.web.base.tables import core as t

PASSWORD = "correct horse battery"
NEW_PASSWORD = "a brand new secret phrase"


async def _owner(make_client) -> httpx.AsyncClient:  # type: ignore[no-untyped-def]
    c = await make_client()
    r = await c.post("/api/account", json={"email": "ana@example.org", "password": PASSWORD,
                                           "name": "Ana"})
    assert r.status_code == 201
    return c


async def _token(browser: httpx.AsyncClient, **extra: object) -> dict[str, str]:
    r = await browser.post("/api/tokens", json={"label": "my bot", "password": PASSWORD, **extra})
    assert r.status_code == 201, r.text
    return dict(r.json())


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_a_stolen_token_cannot_change_the_password_or_mint_tokens(make_client) -> None:  # type: ignore[no-untyped-def]
    browser = await _owner(make_client)
    token = (await _token(browser))["token"]
    thief = await make_client()
    r = await thief.patch("/api/account", headers=_bearer(token),
                          json={"password": NEW_PASSWORD, "current_password": PASSWORD})
    assert r.status_code == 403 and r.json()["error"]["code"] == "session_required"
    r = await thief.post("/api/tokens", headers=_bearer(token),
                         json={"label": "mine now", "password": PASSWORD})
    assert r.status_code == 403 and r.json()["error"]["code"] == "session_required"
    # What a program is for still works.
    assert (await thief.get("/api/account", headers=_bearer(token))).status_code == 200


async def test_making_a_token_needs_the_current_password(make_client) -> None:  # type: ignore[no-untyped-def]
    browser = await _owner(make_client)
    r = await browser.post("/api/tokens", json={"label": "x"})
    assert r.status_code == 422
    r = await browser.post("/api/tokens", json={"label": "x", "password": "wrong guess"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_password"


async def test_a_password_change_revokes_every_other_session_and_token(make_client) -> None:  # type: ignore[no-untyped-def]
    browser = await _owner(make_client)
    token = (await _token(browser))["token"]
    laptop = await make_client()
    r = await laptop.post("/api/session", json={"email": "ana@example.org", "password": PASSWORD})
    assert r.status_code == 200
    r = await browser.patch("/api/account",
                            json={"password": NEW_PASSWORD, "current_password": PASSWORD})
    assert r.status_code == 200
    program = await make_client()
    assert (await program.get("/api/account", headers=_bearer(token))).status_code == 401
    assert (await laptop.get("/api/account")).status_code == 401
    assert (await browser.get("/api/account")).status_code == 200  # the one that changed it


async def test_list_and_revoke_tokens(make_client) -> None:  # type: ignore[no-untyped-def]
    browser = await _owner(make_client)
    first = await _token(browser)
    second = await _token(browser, label="phone", days=7)
    program = await make_client()
    r = await program.get("/api/my/matches", headers=_bearer(first["token"]))
    assert r.status_code == 200
    listed = (await browser.get("/api/tokens")).json()["tokens"]
    assert [x["id"] for x in listed] == [first["id"], second["id"]]
    assert set(listed[0]) == {"id", "label", "created", "last_used", "expires"}
    assert listed[0]["last_used"] is not None and listed[1]["last_used"] is None
    assert listed[1]["label"] == "phone" and listed[1]["expires"] == second["expires"]
    text = (await browser.get("/api/tokens")).text
    assert first["token"] not in text and second["token"] not in text
    # Somebody else cannot revoke (or learn about) Ana's tokens.
    ben = await make_client()
    r = await ben.post("/api/account", json={"email": "ben@example.org", "password": PASSWORD,
                                             "name": "Ben"})
    assert r.status_code == 201
    assert (await ben.get("/api/tokens")).json()["tokens"] == []
    assert (await ben.delete(f"/api/tokens/{first['id']}")).status_code == 404
    assert (await browser.delete("/api/tokens/not-an-id")).status_code == 404
    r = await browser.delete(f"/api/tokens/{first['id']}")
    assert r.status_code == 200
    r = await program.get("/api/my/matches", headers=_bearer(first["token"]))
    assert r.status_code == 401
    assert [x["id"] for x in (await browser.get("/api/tokens")).json()["tokens"]] == [second["id"]]


async def test_tokens_expire(make_client, app) -> None:  # type: ignore[no-untyped-def]
    browser = await _owner(make_client)
    r = await browser.post("/api/tokens", json={"password": PASSWORD, "days": 366})
    assert r.status_code == 422
    made = await _token(browser)
    created = utcnow()
    expires = made["expires"]
    assert expires is not None
    listed = (await browser.get("/api/tokens")).json()["tokens"][0]
    assert listed["expires"] == expires
    # 90 days by default.
    assert (created + timedelta(days=89)).isoformat() < expires.replace("Z", "+00:00")
    async with app.state.db.write() as conn:
        await conn.execute(
            update(t.credentials).where(t.credentials.c.kind == "token")
            .values(expires_at=utcnow() - timedelta(seconds=1))
        )
    program = await make_client()
    assert (await program.get("/api/account", headers=_bearer(made["token"]))).status_code == 401
    assert (await browser.get("/api/tokens")).json()["tokens"] == []
