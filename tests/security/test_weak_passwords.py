"""Issue 11 item 12: weak passwords are refused, with a reason.

The attack: ``password``, ``12345678`` and eight spaces were accepted on sign-up (and
as new passwords), making a guess with the top ten passwords enough.
"""

from __future__ import annotations

import pytest

PASSWORD = "correct horse battery"
WEAK = ["password", "12345678", "        ", "qwertyuiop", "jackpot2026", "ana@example.org"]


@pytest.mark.parametrize("weak", WEAK)
async def test_sign_up_refuses_a_guessable_password(make_client, weak: str) -> None:  # type: ignore[no-untyped-def]
    c = await make_client()
    r = await c.post("/api/account", json={"email": "ana@example.org", "password": weak,
                                           "name": "Ana"})
    assert r.status_code == 422, weak
    error = r.json()["error"]
    assert error["code"] == "weak_password"
    assert "add another word" in error["message"] or "spaces" in error["message"]
    assert (await c.get("/api/account")).json().get("email") is None


async def test_all_whitespace_is_refused_with_its_own_reason(make_client) -> None:  # type: ignore[no-untyped-def]
    c = await make_client()
    r = await c.post("/api/account", json={"email": "ana@example.org", "password": " \t" * 10,
                                           "name": "Ana"})
    assert r.status_code == 422
    assert r.json()["error"]["message"] == "the password cannot be only spaces"


async def test_new_passwords_are_held_to_the_same_rule(make_client) -> None:  # type: ignore[no-untyped-def]
    c = await make_client()
    r = await c.post("/api/account", json={"email": "ana@example.org", "password": PASSWORD,
                                           "name": "Ana"})
    assert r.status_code == 201
    r = await c.patch("/api/account", json={"password": "password1",
                                            "current_password": PASSWORD})
    assert r.status_code == 422 and r.json()["error"]["code"] == "weak_password"
    r = await c.patch("/api/account", json={"password": "a brand new secret phrase",
                                            "current_password": PASSWORD})
    assert r.status_code == 200
