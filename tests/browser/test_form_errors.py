"""A refused log-in or sign-up puts the keyboard's focus on what went wrong, and the
next Tab on the form's first field: the page does not start again at its header."""

from __future__ import annotations

import secrets
from typing import Any

from playwright.sync_api import Browser, expect


def test_a_refused_log_in_focuses_its_error(browser: Browser, live_server: Any) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(live_server.url + "/login")
    page.fill('input[name="email"]', f"nobody{secrets.token_hex(3)}@example.org")
    page.fill('input[name="password"]', "not the password at all")
    page.press('input[name="password"]', "Enter")
    error = page.locator("p.error[role=alert]")
    expect(error).to_be_visible()
    expect(error).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator('input[name="email"]')).to_be_focused()
    context.close()


def test_a_refused_sign_up_focuses_its_error(browser: Browser, live_server: Any) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(live_server.url + "/signup")
    page.fill('input[name="email"]', f"new{secrets.token_hex(3)}@example.org")
    page.fill('input[name="name"]', "Newcomer" + secrets.token_hex(2))
    for field in page.locator('input[type="password"]').all():
        field.fill("password")  # long enough for the form, too weak for the site
    page.locator('form[action="/signup"] button[type="submit"]').click()
    error = page.locator("p.error[role=alert]")
    expect(error).to_be_visible()
    expect(error).to_be_focused()
    context.close()
