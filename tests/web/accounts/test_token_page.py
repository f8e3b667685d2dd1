"""API tokens on the account page: made with a label, an expiry and the current
password, listed (label, created, last used, expires), revoked, through the same
functions as /api/tokens; the secret is shown once and never cached."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import httpx
from web_helpers import PASSWORD, sign_up


def csrf_of(html: str) -> str:
    m = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert m is not None
    return m.group(1)


def secret_of(html: str) -> str | None:
    m = re.search(r'<input id="new-token" type="text" readonly value="([^"]+)"', html)
    return m.group(1) if m else None


def text_of(cell: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", cell).split())


def rows_of(html: str) -> list[list[str]]:
    """The token list's rows as a reader sees their cells."""
    table = re.search(r'id="token-list">.*?<tbody>(.*?)</tbody>', html, re.S)
    if table is None:
        return []
    rows = re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S)
    return [[text_of(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)] for row in rows]


async def form(client: httpx.AsyncClient, what: str, **fields: str) -> httpx.Response:
    token = csrf_of((await client.get("/account")).text)
    return await client.post("/account", data={"csrf_token": token, "what": what, **fields})


def days_between(start: str, end: str) -> int:
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).days


async def test_a_token_made_on_the_page_works_is_listed_and_revoked(make_client: Any) -> None:
    ana = await make_client()
    await sign_up(ana, "Ana")
    page = await ana.get("/account")
    assert "You have no API tokens." in page.text
    assert secret_of(page.text) is None

    r = await form(ana, "token", label="  my   bot ", days="30", current=PASSWORD)
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    secret = secret_of(r.text)
    assert secret is not None
    assert "Your new token “my bot”. Copy it now: it is not shown again." in r.text
    [row] = rows_of(r.text)
    assert row[0] == "my bot" and row[2] == "never" and row[4] == "Revoke"

    # The secret is a working bearer token, with the expiry chosen.
    program = await make_client()
    bearer = {"Authorization": f"Bearer {secret}"}
    assert (await program.get("/api/account", headers=bearer)).json()["name"] == "Ana"
    [listed] = (await ana.get("/api/tokens")).json()["tokens"]
    assert listed["label"] == "my bot" and listed["last_used"] is not None
    assert days_between(listed["created"], listed["expires"]) == 30

    # Shown once: the next visit lists it as used, with no secret anywhere.
    page = await ana.get("/account")
    assert secret_of(page.text) is None and secret not in page.text
    [row] = rows_of(page.text)
    assert row[0] == "my bot" and row[2] not in ("", "never")

    r = await form(ana, "revoke_token", token_id=listed["id"])
    assert r.status_code == 200
    assert "Token revoked: a program using it is refused from now on." in r.text
    assert rows_of(r.text) == [] and "You have no API tokens." in r.text
    assert (await program.get("/api/account", headers=bearer)).status_code == 401


async def test_a_token_without_a_label_and_the_default_expiry(make_client: Any) -> None:
    ana = await make_client()
    await sign_up(ana, "Ana")
    page = (await ana.get("/account")).text
    assert '<option value="90" selected>90 days</option>' in page
    r = await form(ana, "token", label="   ", days="90", current=PASSWORD)
    assert r.status_code == 200
    assert "Your new token. Copy it now: it is not shown again." in r.text
    [row] = rows_of(r.text)
    assert row[0] == "(no label)"
    [listed] = (await ana.get("/api/tokens")).json()["tokens"]
    assert listed["label"] is None and days_between(listed["created"], listed["expires"]) == 90


async def test_refusals_are_said_and_make_nothing(make_client: Any) -> None:
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    r = await form(ana, "token", label="bot", days="30", current="not my password")
    assert r.status_code == 403 and "the current password is not right" in r.text
    # Said in the token form, whose label stays as typed.
    said = r.text.index('id="token-error"')
    assert r.text.index('id="token-form"') < said < r.text.index("the current password is not")
    assert 'aria-describedby="token-label-hint" value="bot"' in r.text
    # The validity chosen stays chosen too, not back to the 90 days offered first.
    assert re.findall(r'<option value="(\d+)" selected>', r.text) == ["30"]
    r = await form(ana, "token", label="bot", days="3650", current=PASSWORD)
    assert r.status_code == 422
    assert re.findall(r'<option value="(\d+)" selected>', r.text) == ["90"]
    assert "choose when the token expires: after 7, 30, 90, 180, 365 days" in r.text
    r = await form(ana, "token", label="x" * 81, days="30", current=PASSWORD)
    assert r.status_code == 422 and "a token&#39;s label is at most 80 characters" in r.text
    assert (await ana.get("/api/tokens")).json()["tokens"] == []
    r = await form(ana, "token", label="b", days="30", current=PASSWORD)
    assert secret_of(r.text) is not None
    # Another account's token, or no token at all: not found, nothing revoked.
    [mine] = (await ana.get("/api/tokens")).json()["tokens"]
    r = await form(ben, "revoke_token", token_id=mine["id"])
    assert r.status_code == 404 and "no token of yours has that id" in r.text
    r = await form(ana, "revoke_token", token_id="../../etc")
    assert r.status_code == 404
    assert len((await ana.get("/api/tokens")).json()["tokens"]) == 1


async def test_a_token_cannot_make_or_revoke_tokens_through_the_page(make_client: Any) -> None:
    ana = await make_client()
    await sign_up(ana, "Ana")
    made = await ana.post("/api/tokens", json={"label": "bot", "password": PASSWORD})
    bearer = {"Authorization": f"Bearer {made.json()['token']}"}
    token = csrf_of((await ana.get("/account")).text)
    for fields in (
        {"what": "token", "days": "30", "current": PASSWORD},
        {"what": "revoke_token", "token_id": made.json()["id"]},
    ):
        r = await ana.post("/account", data={"csrf_token": token, **fields}, headers=bearer)
        assert r.status_code == 403, r.text
    assert len((await ana.get("/api/tokens")).json()["tokens"]) == 1
