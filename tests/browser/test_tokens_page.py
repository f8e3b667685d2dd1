"""The account page's API tokens as a person uses them: made with a label, an expiry and
the password, the secret shown once with a Copy button that puts it on the clipboard,
listed, working as a bearer token, and revoked; in Slovak too (the expiry's plural
forms); axe-clean; and a screenshot of the section for docs/screenshots/."""

from __future__ import annotations

import re
import secrets
from pathlib import Path
from typing import Any

from a11y import assert_axe_clean
from browser_helpers import account
from playwright.sync_api import Browser, Page, expect

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PASSWORD = "correct horse"


def make_token(page: Page, label: str, days: str, password: str = PASSWORD) -> None:
    made = page.locator("#token-form")
    made.locator("input[name=label]").fill(label)
    made.locator("select[name=days]").select_option(days)
    made.locator("input[name=current]").fill(password)
    made.locator("button[type=submit]").click()


def test_make_copy_use_and_revoke_a_token(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    ctx = browser.new_context(
        viewport={"width": 1000, "height": 900}, timezone_id="Asia/Kuala_Lumpur"
    )
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
    page = account(ctx, url, f"Tia{secrets.token_hex(2)}")
    try:
        page.goto(url + "/account")
        section = page.locator("#tokens")
        expect(section.get_by_role("heading", name="API tokens")).to_be_visible()
        expect(section).to_contain_text("You have no API tokens.")

        make_token(page, "my bot", "30", password="not it")
        expect(page.locator("p.error")).to_have_text("the current password is not right")
        expect(page.locator("#new-token")).to_have_count(0)

        make_token(page, "my bot", "30")
        secret_field = page.locator("#new-token")
        expect(secret_field).to_be_focused()  # straight to what must be copied
        secret = secret_field.input_value()
        assert len(secret) > 30
        said = "Your new token “my bot”. Copy it now: it is not shown again."
        expect(page.get_by_label(said)).to_have_value(secret)
        page.get_by_role("button", name="Copy the token").click()
        expect(page.locator("#token-status")).to_have_text(
            "Token copied. Keep it where only your program can read it."
        )
        assert page.evaluate("navigator.clipboard.readText()") == secret
        row = page.locator("#token-list tbody tr")
        expect(row).to_have_count(1)
        expect(row.locator("td").nth(0)).to_have_text("my bot")
        expect(row.locator("td").nth(2)).to_have_text("never")
        # Written in the reader's own time zone by local-times.js.
        expect(row.locator("td").nth(1).locator("time")).to_contain_text("GMT+8")
        assert_axe_clean(page, "the account page with a new token")
        section.scroll_into_view_if_needed()
        box = section.bounding_box()
        assert box is not None
        page.screenshot(
            path=str(SCREENSHOTS / "account-tokens.png"),
            clip={"x": box["x"] - 16, "y": box["y"] - 16,
                  "width": box["width"] + 32, "height": box["height"] + 32},
        )

        # The program uses it; the page then says when.
        r = ctx.request.get(url + "/api/my/matches", headers={"Authorization": f"Bearer {secret}"})
        assert r.ok, r.text()
        page.goto(url + "/account")
        expect(page.locator("#new-token")).to_have_count(0)
        assert secret not in page.content()
        expect(row.locator("td").nth(2)).not_to_have_text("never")

        revoke = row.get_by_role("button", name="Revoke")
        expect(revoke).to_have_accessible_description("my bot")
        revoke.click()
        expect(page.locator("p.notice")).to_have_text(
            "Token revoked: a program using it is refused from now on."
        )
        expect(page.locator("#token-list")).to_have_count(0)
        r = ctx.request.get(url + "/api/my/matches", headers={"Authorization": f"Bearer {secret}"})
        assert r.status == 401
    finally:
        ctx.close()


def test_the_tokens_section_in_slovak(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    ctx = browser.new_context(locale="sk-SK", viewport={"width": 390, "height": 844})
    page = account(ctx, url, f"Eva{secrets.token_hex(2)}")
    try:
        page.goto(url + "/account")
        expect(page.locator("html")).to_have_attribute("lang", "sk")
        days = page.locator("#token-form select[name=days] option")
        expect(days).to_have_text(["7 dní", "30 dní", "90 dní", "180 dní", "365 dní"])
        make_token(page, "", "7")
        said = "Váš nový token. Skopírujte ho teraz: znova sa nezobrazí."
        expect(page.get_by_label(said)).to_be_visible()
        expect(page.locator("#token-list tbody td").first).to_have_text("(bez štítka)")
        expect(page.get_by_role("button", name="Zrušiť")).to_be_visible()
        # The list becomes cards on a phone: nothing wider than the screen.
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        created = page.locator("#token-list tbody td").nth(1)
        before = created.evaluate("e => getComputedStyle(e, '::before').content")
        assert re.match(r'^"Vytvorený: "$', before), before
    finally:
        ctx.close()
