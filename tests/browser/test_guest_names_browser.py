"""A guest's default name on the match page, in the page's language: its seat is
written by the scripts from the stored English name ("Guest 1a2b"), which the state
and the live events carry as it is."""

from __future__ import annotations

import re
from typing import Any

from browser_helpers import play_the_bot
from playwright.sync_api import Browser, expect


def test_a_guest_seat_in_slovak(browser: Browser, live_server: Any) -> None:
    context = browser.new_context(locale="sk-SK")
    page = context.new_page()
    try:
        play_the_bot(page, live_server.url, "#play-bot")
        expect(page.locator("html")).to_have_attribute("lang", "sk")
        seat = page.locator("#seats .seat.you .name")
        expect(seat).to_have_text(re.compile(r"^Hosť [0-9a-f]{4}$"))
        expect(page.locator("header .me")).to_have_text(re.compile(r"^Hosť [0-9a-f]{4}$"))
        assert "Guest" not in page.locator("main").inner_text()
    finally:
        context.close()
