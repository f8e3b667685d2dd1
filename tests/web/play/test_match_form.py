"""A new-match form posted with values it never offers is refused with a 422 that
names the choice in words, in the reader's language, never an API field name."""

from __future__ import annotations

import html
import re

import pytest
from web_helpers import sign_up

GOOD = {"variant": "jackpot", "seats": "2", "bots": "0", "deadline_seconds": "86400",
        "expiry_seconds": "604800", "client_seed": "abc"}
API_WORDS = re.compile(r"deadline_seconds|expiry_seconds|bots must|variant must|whole number")


def error_of(page: str) -> str:
    found = re.search(r'<p class="error" role="alert">([^<]*)</p>', page)
    assert found, page[:500]
    return html.unescape(found.group(1))


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("variant", "poker", "choose a variant"),
        ("variant", "", "choose a variant"),
        ("seats", "9", "number of seats"),
        ("seats", "two", "number of seats"),
        ("seats", "-1", "number of seats"),
        ("bots", "2", "fewer bots than seats"),
        ("bots", "1e3", "fewer bots than seats"),
        ("deadline_seconds", "0", "deadline for each throw"),
        ("deadline_seconds", "700000", "deadline for each throw"),
        ("deadline_seconds", "99999999999999999999", "deadline for each throw"),
        ("deadline_seconds", "٣٦٠٠", "deadline for each throw"),
        ("expiry_seconds", "5", "wait for players"),
        ("expiry_seconds", "3600.5", "wait for players"),
    ],
)
async def test_a_tampered_choice_is_named_in_words(  # type: ignore[no-untyped-def]
    make_client, field: str, value: str, words: str
) -> None:
    ana = await make_client()
    await sign_up(ana, "Ana")
    token = re.search(r'name="csrf_token" value="([^"]+)"', (await ana.get("/matches/new")).text)
    assert token
    r = await ana.post("/matches/new", data={**GOOD, "csrf_token": token.group(1), field: value})
    assert r.status_code == 422, r.text[:300]
    message = error_of(r.text)
    assert words in message and not API_WORDS.search(message), message
    sk = await ana.post(
        "/matches/new",
        data={**GOOD, "csrf_token": token.group(1), field: value},
        headers={"Accept-Language": "sk"},
    )
    assert sk.status_code == 422 and words not in error_of(sk.text)
