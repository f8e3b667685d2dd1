"""Play now in two browsers: two people asking for the same kind of match are paired,
and both pages open the match by themselves."""

from __future__ import annotations

import re
import secrets

from browser_helpers import account
from playwright.sync_api import Browser, Page, expect


def seek(page: Page, url: str) -> None:
    page.goto(url + "/play-now")
    page.select_option("#seek-variant", "classic")
    page.select_option("#seek-deadline", "60")
    page.select_option("#seek-seats", "2")
    page.keyboard.press("Tab")  # the form is used from the keyboard
    page.focus("#seek-start")
    page.keyboard.press("Enter")


def test_two_people_seeking_the_same_kind_are_paired(browser: Browser, live_server) -> None:  # type: ignore[no-untyped-def]
    url = live_server.url
    tag = secrets.token_hex(2)
    ana_ctx = browser.new_context(reduced_motion="reduce")
    ben_ctx = browser.new_context(reduced_motion="reduce")
    ana = account(ana_ctx, url, f"Ana{tag}")
    ben = account(ben_ctx, url, f"Ben{tag}")

    seek(ana, url)
    expect(ana.locator("#seek-waiting")).to_be_visible()
    expect(ana.locator("#seek-cancel")).to_be_focused()
    expect(ana.locator("#people-status")).to_have_text("Looking for players…")
    # Ben sees one person waiting for that kind, and asks for the same.
    ben.goto(url + "/play-now")
    row = ben.locator("#open-seeks tr", has_text="Classic").filter(has_text="1 min")
    expect(row).to_have_count(1)
    seek(ben, url)

    match = re.compile(r"/matches/m_[0-9a-f]+$")
    expect(ben).to_have_url(match)
    expect(ana).to_have_url(match)
    assert ana.url == ben.url
    mid = ana.url.rsplit("/", 1)[1]
    state = ana.request.get(f"{url}/api/matches/{mid}").json()
    assert sorted(s["name"] for s in state["seats"]) == sorted([f"Ana{tag}", f"Ben{tag}"])
    assert state["status"] == "playing" and state["deadline_seconds"] == 60
    for ctx in (ana_ctx, ben_ctx):
        ctx.close()
