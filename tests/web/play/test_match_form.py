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


def home_error_of(page: str) -> str:
    found = re.search(r'<p class="error">([^<]*)</p>', page)
    assert found, page[:500]
    return html.unescape(found.group(1))


@pytest.mark.parametrize(
    ("field", "value", "words", "slovak"),
    [
        ("mode", "crowd", "play the bot or to practise alone", "hrať proti botovi"),
        ("mode", "", "play the bot or to practise alone", "hrať proti botovi"),
        ("variant", "poker", "choose a variant", "vyberte variant"),
    ],
)
async def test_a_tampered_home_button_is_named_in_words(  # type: ignore[no-untyped-def]
    make_client, field: str, value: str, words: str, slovak: str
) -> None:
    """The home page's one-click buttons post hidden fields; an edited one is refused
    in words and in the reader's language, not with the API's field names."""
    guest = await make_client()
    token = re.search(r'name="csrf_token" value="([^"]+)"', (await guest.get("/")).text)
    assert token
    form = {"csrf_token": token.group(1), "variant": "jackpot", "mode": "bot", field: value}
    r = await guest.post("/play", data=form, headers={"Accept": "text/html"})
    assert r.status_code == 422, r.text[:300]
    message = home_error_of(r.text)
    assert words in message and not re.search(r"mode must|variant must|'", message), message
    sk = await guest.post(
        "/play", data=form, headers={"Accept": "text/html", "Accept-Language": "sk"}
    )
    assert sk.status_code == 422 and slovak in home_error_of(sk.text), home_error_of(sk.text)
