"""A match waiting for people offers its invite link with a Copy button: copied by
the clipboard where the browser has one, else selected in its field; either way the
box says what happened, and it goes once every seat is taken."""

from __future__ import annotations

import re
import secrets
from typing import Any

from a11y import assert_axe_clean
from browser_helpers import account
from playwright.sync_api import Browser, expect

COPIED = "Invite link copied. Paste it in a message to the people you want to play."
SELECTED = "The invite link is selected in the box above: copy it from there."


def test_the_invite_link_is_copied_by_key(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    tag = secrets.token_hex(2)
    ana_ctx = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    ben_ctx = browser.new_context()
    try:
        ana = account(ana_ctx, url, f"Ana{tag}")
        ben = account(ben_ctx, url, f"Ben{tag}")
        r = ana.request.post(url + "/api/matches", data={"seats": 2, "bots": 0})
        assert r.status == 201, r.text()
        mid = r.json()["id"]
        ana.goto(f"{url}/matches/{mid}")
        field = ana.locator("#invite-url")
        link = field.input_value()
        assert link.startswith("http") and link.endswith(f"/matches/{mid}"), link
        label = "Invite link: send it to the people you want to play"
        expect(ana.get_by_label(label)).to_be_visible()
        ana.locator("#invite-copy").focus()
        ana.keyboard.press("Enter")
        expect(ana.locator("#invite-status")).to_have_text(COPIED)
        assert ana.evaluate("navigator.clipboard.readText()") == link
        assert_axe_clean(ana, "a waiting match's invite box")
        # A visitor is offered the seat, not the invitation.
        ben.goto(f"{url}/matches/{mid}")
        expect(ben.locator("#invite")).to_have_count(0)
        ben.click("#join")
        expect(ana.locator("#invite")).to_be_hidden()
    finally:
        ana_ctx.close()
        ben_ctx.close()


def test_without_a_clipboard_the_link_is_selected(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    ctx = browser.new_context()
    try:
        page = account(ctx, url, f"Cai{secrets.token_hex(2)}")
        page.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
        r = page.request.post(url + "/api/matches", data={"seats": 3, "bots": 0})
        assert r.status == 201, r.text()
        page.goto(f"{url}/matches/{r.json()['id']}")
        page.click("#invite-copy")
        # Whether the old copy command works depends on the browser: the box says which.
        either = re.compile(f"^({re.escape(COPIED)}|{re.escape(SELECTED)})$")
        expect(page.locator("#invite-status")).to_have_text(either)
        expect(page.locator("#invite-url")).to_be_focused()
        length = len(page.locator("#invite-url").input_value())
        chosen = page.evaluate("(f => [f.selectionStart, f.selectionEnd])(document.activeElement)")
        assert chosen == [0, length]
    finally:
        ctx.close()
