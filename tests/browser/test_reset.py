"""A password reset in the browser: the mailed link offers the form once; used, or
made up, it says so on arrival with a way to ask again (issue 13, item 11)."""

from __future__ import annotations

import re
import secrets
import time
from email import message_from_bytes
from pathlib import Path
from typing import Any

from a11y import axe_violations, describe
from playwright.sync_api import Browser, Page, expect


def reset_link(outbox: Path, email: str) -> str:
    """The reset link in the one reset mail sent to ``email`` (the outbox is shared;
    the mail may be written a moment after the page answers, by a worker; the
    sign-up's address-confirmation mail goes there too)."""
    links: list[str] = []
    for _ in range(100):
        for path in sorted(outbox.glob("*.eml")):
            msg = message_from_bytes(path.read_bytes())
            if msg["To"] == email:
                body: Any = msg.get_payload(decode=True)
                m = re.search(r"/reset/[A-Za-z0-9_\-]+", body.decode())
                if m is not None:
                    links.append(m.group(0))
        if links:
            break
        time.sleep(0.1)
    assert len(links) == 1, links
    return links[0]


def axe_clean(page: Page) -> None:
    bad = [v for v in axe_violations(page) if v["impact"] in ("serious", "critical")]
    assert not bad, describe(bad)


def says_the_link_is_dead(page: Page, url: str) -> None:
    expect(page.locator("#reset-dead")).to_be_visible()
    expect(page.locator("input[type=password]")).to_have_count(0)
    axe_clean(page)
    page.get_by_role("link", name="Ask for a new link").click()
    expect(page).to_have_url(url + "/reset")
    expect(page.get_by_label("Email")).to_be_visible()


def test_a_reset_link_works_once_and_then_says_so(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    email = f"rosa{secrets.token_hex(3)}@example.org"
    context = browser.new_context()
    page = context.new_page()
    try:
        r = page.request.post(
            url + "/api/account",
            data={"email": email, "password": "correct horse", "name": "Rosa" + email[4:8]},
        )
        assert r.status == 201, r.text()
        context.clear_cookies()
        # Forgotten: from the login page, ask for a link.
        page.goto(url + "/login")
        page.get_by_role("link", name="Forgot your password?").click()
        page.get_by_label("Email").fill(email)
        page.get_by_role("button", name="Send me a link").click()
        expect(page.get_by_role("status")).to_contain_text("on its way")
        link = reset_link(live_server.var_dir / "outbox", email)

        # The link offers the form; a new password logs in.
        page.goto(url + link)
        expect(page.locator("#reset-dead")).to_have_count(0)
        axe_clean(page)
        page.get_by_label("New password").fill("a brand new password")
        page.get_by_role("button", name="Save and log in").click()
        expect(page).to_have_url(url + "/my")
        # The page they land on says it worked, in a status region.
        expect(page.get_by_role("status")).to_have_text(
            "Your new password is set, and you are signed in."
        )
        axe_clean(page)

        # Used: it says so on arrival, before anything is typed.
        page.goto(url + link)
        says_the_link_is_dead(page, url)
        # A link that never was reads the same.
        page.goto(url + "/reset/" + secrets.token_urlsafe(16))
        says_the_link_is_dead(page, url)
    finally:
        context.close()


def test_a_link_used_in_another_tab_says_so_after_submit(
    browser: Browser, live_server: Any
) -> None:
    url = live_server.url
    email = f"sol{secrets.token_hex(3)}@example.org"
    context = browser.new_context()
    page = context.new_page()
    try:
        r = page.request.post(
            url + "/api/account",
            data={"email": email, "password": "correct horse", "name": "Sol" + email[3:7]},
        )
        assert r.status == 201, r.text()
        context.clear_cookies()
        r = page.request.post(url + "/api/password-reset", data={"email": email})
        assert r.status == 202, r.text()
        link = reset_link(live_server.var_dir / "outbox", email)
        page.goto(url + link)
        # Meanwhile the same link is used in another browser.
        elsewhere = browser.new_context()
        r = elsewhere.request.post(
            url + "/api/password-reset/confirm",
            data={"token": link.rsplit("/", 1)[1], "password": "set elsewhere first"},
        )
        elsewhere.close()
        assert r.status == 200, r.text()
        page.get_by_label("New password").fill("too late for this one")
        page.get_by_role("button", name="Save and log in").click()
        says_the_link_is_dead(page, url)
    finally:
        context.close()
