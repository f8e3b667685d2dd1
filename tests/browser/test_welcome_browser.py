"""Signing up in the browser: the page the form leads to says once, in a status
region, that the account is ready (the player should not wonder whether it worked)."""

from __future__ import annotations

import secrets
from typing import Any

from a11y import axe_violations, describe
from playwright.sync_api import Browser, expect

WELCOME = "Welcome to Jackpot! Your account is ready and you are signed in."


def test_sign_up_lands_on_a_welcome(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(url + "/signup?next=/lobby")
        page.get_by_label("Email").fill(f"wim{secrets.token_hex(3)}@example.org")
        page.get_by_label("Display name").fill("Wim" + secrets.token_hex(3))
        page.get_by_label("Password").fill("a long passphrase of mine")
        page.get_by_role("button", name="Sign up").click()
        expect(page).to_have_url(url + "/lobby")
        expect(page.locator("#flash[role=status]")).to_have_text(WELCOME)
        bad = [v for v in axe_violations(page) if v["impact"] in ("serious", "critical")]
        assert not bad, describe(bad)
        # Once: the next page has none.
        page.reload()
        expect(page.locator("h1")).to_be_visible()
        expect(page.locator("#flash")).to_have_count(0)
    finally:
        context.close()
