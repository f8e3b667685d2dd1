"""Every page works under the Content-Security-Policy: the browser blocks nothing.

Chromium reports each blocked script, handler or style as a console error; a
page that relied on an inline script would also stop working (the new-match
form's seat and bot choices are checked in test_two_people.py).
"""

from __future__ import annotations

import secrets

from browser_helpers import play_the_bot
from playwright.sync_api import ConsoleMessage, Page, expect

PAGES = ["/", "/rules", "/fair-play", "/verify", "/lobby", "/leaderboard", "/matches/new",
         "/my", "/account", "/reset"]


def test_no_page_breaks_the_policy(page: Page, live_server) -> None:  # type: ignore[no-untyped-def]
    blocked: list[str] = []

    def note(msg: ConsoleMessage) -> None:
        if "Content Security Policy" in msg.text or "Refused to" in msg.text:
            blocked.append(f"{page.url}: {msg.text}")

    page.on("console", note)
    page.on("pageerror", lambda exc: blocked.append(f"{page.url}: {exc}"))
    url = live_server.url
    name = f"Csp{secrets.token_hex(2)}"
    page.goto(url + "/signup")
    page.fill("input[name=email]", f"{name.lower()}@example.org")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", "correct horse battery")
    page.click("main button[type=submit]")
    expect(page.locator("header .who")).to_contain_text(name)
    for path in [*PAGES, f"/players/{name}"]:
        response = page.goto(url + path)
        assert response is not None and response.ok, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
        page.wait_for_load_state("networkidle")
    play_the_bot(page, url)
    expect(page.locator("#status")).to_contain_text("Your throw")
    page.keyboard.press("Space")
    expect(page.locator(".die")).not_to_have_count(0)
    assert blocked == []
