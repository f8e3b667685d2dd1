"""The sign-up form says the password rules before anyone is refused, and a refusal
keeps what was typed in the other fields, never the password itself."""

from __future__ import annotations

import re

WEAK = "password1"


def csrf_of(html: str) -> str:
    m = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert m is not None
    return m.group(1)


def described(html: str) -> list[str]:
    field = re.search(r'<input type="password" name="password"[^>]*>', html)
    assert field, html
    assert "value=" not in field.group(0)
    found = re.search(r'aria-describedby="([^"]+)"', field.group(0))
    assert found, field.group(0)
    ids = found.group(1).split()
    for i in ids:
        assert f'id="{i}"' in html
    return ids


async def test_the_rules_are_beside_the_field_before_submitting(make_client) -> None:  # type: ignore[no-untyped-def]
    c = await make_client()
    for path in ("/signup",):
        html = (await c.get(path)).text
        assert described(html) == ["password-rules"]
        assert "At least 8 characters, and hard to guess" in html
    sk = (await c.get("/signup", headers={"Accept-Language": "sk"})).text
    assert "At least 8 characters" not in sk and 'id="password-rules"' in sk


async def test_a_weak_password_keeps_the_other_fields(make_client) -> None:  # type: ignore[no-untyped-def]
    c = await make_client()
    token = csrf_of((await c.get("/signup")).text)
    r = await c.post(
        "/signup",
        data={"csrf_token": token, "email": "zuz@example.org", "name": "Zuzka", "password": WEAK},
    )
    assert r.status_code == 422
    assert 'value="zuz@example.org"' in r.text and 'value="Zuzka"' in r.text
    assert WEAK not in r.text
    assert described(r.text) == ["password-rules", "password-again"]
    assert "never sent back to the page" in r.text
