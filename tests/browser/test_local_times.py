"""The lobby's and a waiting match's "open until" times, in the reader's own time zone
and language: the server writes UTC, the browser rewrites it (Kuala Lumpur is UTC+8,
with no summer time)."""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from browser_helpers import account
from playwright.sync_api import Browser, Locator, expect


def shows_local(time: Locator) -> None:
    expect(time).to_have_attribute("data-local", "1")
    at = datetime.strptime(time.get_attribute("datetime") or "", "%Y-%m-%dT%H:%M:%SZ")
    local = at.replace(tzinfo=UTC) + timedelta(hours=8)
    text = time.inner_text()
    assert f"{local.hour}:{local.minute:02d}" in text, text
    assert f"{local.year}" in text, text
    assert "UTC" in (time.get_attribute("title") or "")  # the server's text, kept


def test_open_until_in_the_readers_zone(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    context = browser.new_context(locale="sk-SK", timezone_id="Asia/Kuala_Lumpur")
    try:
        page = account(context, url, "Zone" + secrets.token_hex(3))
        r = page.request.post(url + "/api/matches", data={"seats": 2, "bots": 0})
        assert r.status == 201, r.text()
        mid = r.json()["id"]
        page.goto(url + "/lobby")
        expect(page.locator("#lobby-matches th").nth(4)).to_have_text("Otvorená do")
        shows_local(page.locator(f'#lobby-matches tr[data-match="{mid}"] time'))
        page.goto(f"{url}/matches/{mid}")
        shows_local(page.locator("#expiry time"))
        expect(page.locator("#expiry")).not_to_contain_text(re.compile(r"\bUTC\b"))
    finally:
        context.close()
