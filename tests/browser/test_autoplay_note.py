"""The first match that plays forced moves for a player says so beside the autoplay
switches, until the player closes the note (then it stays closed in that browser)."""

from __future__ import annotations

import secrets
from typing import Any

from playwright.sync_api import Browser, expect
from test_two_people import sign_up


def test_the_autoplay_note_until_closed(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    tag = secrets.token_hex(2)
    ana_ctx, ben_ctx = browser.new_context(), browser.new_context()
    try:
        ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
        sign_up(ana, url, f"Ana{tag}", autoplay=True)
        sign_up(ben, url, f"Ben{tag}", autoplay=False)
        r = ana.request.post(
            url + "/api/matches",
            data={"variant": "jackpot", "seats": 2, "bots": 0, "deadline_seconds": 86400},
        )
        assert r.ok, r.text()
        mid = r.json()["id"]
        ben.goto(f"{url}/matches/{mid}")
        ben.click("#join")
        ana.goto(f"{url}/matches/{mid}")
        note = ana.locator("#autoplay-note")
        expect(note).to_be_visible()
        expect(note).to_contain_text("Autoplay is on")
        # Inside the switches' group, so it is read with them.
        assert note.evaluate("el => el.closest('fieldset').id") == "autoplay-box"
        # Ben plays every move himself: nothing to explain.
        expect(ben.locator("#autoplay-box")).to_be_visible()
        expect(ben.locator("#autoplay-note")).to_be_hidden()

        ana.locator("#autoplay-note-close").focus()
        ana.keyboard.press("Enter")
        expect(note).to_be_hidden()
        expect(ana.locator("#autoplay-throws")).to_be_focused()
        ana.reload()
        expect(ana.locator("#autoplay-box")).to_be_visible()
        expect(ana.locator("#autoplay-note")).to_be_hidden()
    finally:
        ana_ctx.close()
        ben_ctx.close()
