"""The account page's ways of being told (mail, push on this device, and the header's
alerts while the site is open) are named and described apart in every language: a
player must not have to guess which switch does what."""

from __future__ import annotations

import html
import json
import re
from difflib import SequenceMatcher
from itertools import combinations
from pathlib import Path

import pytest
from web_helpers import sign_up

STATIC = Path(__file__).resolve().parents[3] / "src" / "jackpot" / "static"
#: The scripts' names and description (static/notify.js, static/push.js).
ALERT = "Alert me while the site is open"
ALERT_TITLE = (
    "While a page of this site is open, show a notification when it becomes your throw. "
    "For news when it is closed, turn on push notifications on your account page."
)
PUSH_ON = "Turn on push notifications on this device"
PUSH_OFF = "Turn off push notifications on this device"


def one(pattern: str, text: str) -> str:
    m = re.search(pattern, text, re.S)
    assert m is not None, pattern
    return html.unescape(m.group(1)).strip()


def described_by(page: str, element: str) -> str:
    """The text of the hint an element names in its aria-describedby."""
    ids = one(rf'{element}[^>]*aria-describedby="([^"]+)"', page)
    return one(rf'<p class="hint" id="{ids}">(.*?)</p>', page)


def apart(a: str, b: str) -> bool:
    """Not near-identical: another first word, and less than half the text in common."""
    first = [re.findall(r"\w+", s.lower())[0] for s in (a, b)]
    return first[0] != first[1] and SequenceMatcher(None, a.lower(), b.lower()).ratio() < 0.5


def test_the_scripts_use_these_words() -> None:
    notify, push = (STATIC / "notify.js").read_text(), (STATIC / "push.js").read_text()
    assert f't("{ALERT}")' in notify and f't("{ALERT_TITLE}")' in notify
    assert f't("{PUSH_ON}")' in push and f't("{PUSH_OFF}")' in push


@pytest.mark.parametrize("lang", ["en", "pt", "ms", "et", "sk"])
async def test_each_switch_says_what_it_is_for(make_client, lang) -> None:  # type: ignore[no-untyped-def]
    c = await make_client()
    await sign_up(c, f"Names{lang}")
    page = (await c.get("/account", headers={"Accept-Language": lang})).text
    assert f'<html lang="{lang}">' in page
    catalog = one(r'<script id="i18n-catalog" type="application/json">(.*?)</script>', page)
    js = json.loads(catalog)["messages"]
    names = {
        "mail": one(r'<form[^>]*id="mail".*?<legend>(.*?)</legend>', page),
        "push": one(r'<button type="button" id="push-toggle"[^>]*>(.*?)</button>', page),
        "alert": js.get(ALERT, ALERT),
    }
    assert names["push"] == js.get(PUSH_ON, PUSH_ON)  # the script's word for the same state
    heading = one(r'<h2 id="push-title">(.*?)</h2>', page)
    hints = {
        "mail": described_by(page, '<fieldset'),
        "push": described_by(page, 'id="push-toggle"'),
        "alert": js.get(ALERT_TITLE, ALERT_TITLE),
    }
    for a, b in combinations(names, 2):
        assert apart(names[a], names[b]), (lang, names[a], names[b])
        assert apart(hints[a], hints[b]), (lang, hints[a], hints[b])
    assert apart(heading, names["mail"]) and apart(heading, names["alert"]), heading
    if lang != "en":  # in the reader's language, not English left over
        assert not names["mail"].startswith("Mail about my matches")
        assert names["alert"] != ALERT and names["push"] != PUSH_ON
