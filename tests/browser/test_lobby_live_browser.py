"""The lobby is live: a match opened elsewhere appears, one that fills and starts
leaves, without a reload; focus on a link that stays is kept, and the count is said."""

from __future__ import annotations

import re
import secrets
from typing import Any

from a11y import axe_violations, describe
from browser_helpers import account
from playwright.sync_api import Browser, Page, expect

WAIT = 15_000


def open_match(page: Page, url: str) -> str:
    r = page.request.post(url + "/api/matches", data={"seats": 2, "bots": 0})
    assert r.status == 201, r.text()
    return str(r.json()["id"])


def test_the_lobby_follows_the_matches(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    tag = secrets.token_hex(2)
    contexts = [browser.new_context() for _ in range(3)]
    ana = account(contexts[0], url, f"Lana{tag}")
    ben = account(contexts[1], url, f"Lben{tag}")
    cy = account(contexts[2], url, f"Lcy{tag}")
    try:
        first = open_match(ana, url)
        ben.goto(url + "/lobby")
        row = ben.locator(f"tr[data-match='{first}']")
        expect(row).to_contain_text(f"Lana{tag}")
        link = row.get_by_role("link")
        link.focus()

        # Cy opens a match: it appears at the top, and Ben's focus stays where it was.
        second = open_match(cy, url)
        expect(ben.locator(f"tr[data-match='{second}']")).to_contain_text(f"Lcy{tag}", timeout=WAIT)
        expect(ben.locator("#lobby-matches tbody tr").first).to_have_attribute("data-match", second)
        expect(ben.locator(f"tr[data-match='{first}'] a")).to_be_focused()
        expect(ben.locator("#lobby-status")).to_have_text(re.compile(r"^\d+ open matches$"))

        # Cy takes Ana's other seat: the match starts and leaves the lobby.
        r = cy.request.post(f"{url}/api/matches/{first}/join", data={})
        assert r.status == 200, r.text()
        expect(ben.locator(f"tr[data-match='{first}']")).to_have_count(0, timeout=WAIT)
        expect(ben.locator(f"tr[data-match='{second}']")).to_be_visible()
        # The link that had focus is gone: focus goes to the list, not to the page.
        expect(ben.locator("#lobby-list")).to_be_focused()
        bad = [v for v in axe_violations(ben) if v["impact"] in ("serious", "critical")]
        assert not bad, describe(bad)
    finally:
        for ctx in contexts:
            ctx.close()


def test_a_waiting_match_says_when_it_expires_and_a_leaver_can_sit_again(
    browser: Browser, live_server: Any
) -> None:
    url = live_server.url
    tag = secrets.token_hex(2)
    ana_ctx, ben_ctx = browser.new_context(), browser.new_context()
    ana = account(ana_ctx, url, f"Wana{tag}")
    ben = account(ben_ctx, url, f"Wben{tag}")
    try:
        # The form says what the waiting time is for; the match page says until when.
        ana.goto(url + "/matches/new")
        expect(ana.locator("#expiry-help")).to_contain_text("called off")
        ana.select_option("select[name=seats]", "3")
        ana.select_option("select[name=bots]", "0")
        ana.select_option("select[name=expiry_seconds]", "3600")
        ana.click("#create")
        expect(ana).to_have_url(re.compile(r"/matches/m_[0-9a-f]+$"))
        expect(ana.locator("#expiry")).to_contain_text(", the match is called off")
        expect(ana.locator("#status")).to_contain_text("Share this page's address")

        # Ben, a visitor, is asked to sit (not to invite); he sits, then leaves.
        ben.goto(ana.url)
        expect(ben.locator("#status")).to_contain_text("take a free seat to play")
        ben.click("#join")
        expect(ben.locator("#resign")).to_be_visible()
        ben.click("#resign")
        ben.click("#resign-yes")
        # The page is a visitor's again: the seat form, no "Leave", no seat marked his.
        expect(ben.locator("#join")).to_be_visible()
        expect(ben.locator("#resign")).to_be_hidden()
        expect(ben.locator("#seats .seat.you")).to_have_count(0)
        bad = [v for v in axe_violations(ben) if v["impact"] in ("serious", "critical")]
        assert not bad, describe(bad)
    finally:
        ana_ctx.close()
        ben_ctx.close()
