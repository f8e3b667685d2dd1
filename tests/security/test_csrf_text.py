"""Issue 40 item 2: a CSRF token that is not ASCII is refused with 403, never a 500.

The attack: ``Cookie: jackpot_csrf=a`` with the form field ``csrf_token=%C3%A9``, or
the reverse, or a surrogate written in UTF-8, made ``secrets.compare_digest`` raise
(it takes ASCII text only) on every one of the site's eleven form routes.
"""

from __future__ import annotations

import pytest

#: Every route a form posts to (the join route on a match that need not exist: the
#: token is checked before anything else is read).
FORM_ROUTES = (
    "/login",
    "/signup",
    "/logout",
    "/account",
    "/account/mail",
    "/reset",
    "/reset/some-token",
    "/language",
    "/play",
    "/matches/new",
    "/matches/m_doesnotexist/join",
    "/confirm-email/some-token",  # the form added since, confirming an address
)

#: (cookie bytes, form field as sent, percent-encoded UTF-8)
CASES = {
    "accented field": (b"a", "%C3%A9"),
    "accented cookie": ("é".encode("latin-1"), "a"),
    "both accented": ("é".encode("latin-1"), "%C3%A9"),
    "utf-8 cookie": ("é".encode(), "%C3%A9"),
    "surrogate in utf-8": (b"a", "%ED%A0%80"),
    "emoji": (b"a", "%F0%9F%8E%B2"),
}


@pytest.mark.parametrize("case", sorted(CASES))
async def test_a_non_ascii_token_is_refused_on_every_form(client, case: str) -> None:  # type: ignore[no-untyped-def]
    cookie, field = CASES[case]
    for path in FORM_ROUTES:
        r = await client.post(
            path,
            content=f"csrf_token={field}&email=a%40example.org&password=x".encode(),
            headers={
                "content-type": "application/x-www-form-urlencoded",
                "cookie": b"jackpot_csrf=" + cookie,  # type: ignore[dict-item]
            },
        )
        assert r.status_code == 403, (path, r.status_code, r.text[:300])
        assert "expired" in r.text or "csrf" in r.text, (path, r.text[:300])


async def test_the_right_token_still_passes(client) -> None:  # type: ignore[no-untyped-def]
    page = await client.get("/login")
    token = client.cookies["jackpot_csrf"]
    assert token.isascii() and token in page.text
    r = await client.post("/logout", data={"csrf_token": token})
    assert r.status_code == 303
    r = await client.post("/logout", data={"csrf_token": token + "x"})
    assert r.status_code == 403
