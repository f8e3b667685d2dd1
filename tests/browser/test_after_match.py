"""After a result the page groups the ways on under one heading, each saying what it
does: a new match of the same kind, a rematch for the same people, and the replay."""

from __future__ import annotations

import re
import secrets
from typing import Any

from a11y import assert_axe_clean
from browser_helpers import account, play_the_bot, start_match
from playwright.sync_api import Browser, Page, expect


def test_after_a_bot_match_a_new_one_starts_in_one_click(page: Page, live_server: Any) -> None:
    url = live_server.url
    mid = play_the_bot(page, url, "text=Classic against the bot")
    r = page.request.post(f"{url}/api/matches/{mid}/resign", data={})
    assert r.ok, r.text()
    page.reload()
    after = page.locator("#after")
    expect(after).to_be_visible()
    expect(after.get_by_role("heading", name="What next?")).to_be_visible()
    link = after.get_by_role("link", name="Watch the replay and analysis")
    expect(link).to_have_attribute("href", f"/matches/{mid}/replay")
    expect(page.locator("#rematch")).to_be_hidden()  # no people to offer it to
    expect(page.get_by_text("Play again")).to_have_count(0)
    assert_axe_clean(page, "a finished bot match")
    after.get_by_role("button", name="New match against the bot").click()
    # (It posts once the new match's server seed is fixed and shown.)
    page.wait_for_url(lambda address: mid not in address)
    expect(page).to_have_url(re.compile(r"/matches/m_[0-9a-f]+$"))
    new = page.url.rsplit("/", 1)[1]
    assert new != mid
    state = page.request.get(f"{url}/api/matches/{new}").json()
    assert state["variant"] == "classic"  # the same kind of match
    assert sorted(s["bot"] for s in state["seats"]) == [False, True]


def test_after_a_people_match_the_rematch_is_for_the_same_players(
    browser: Browser, live_server: Any
) -> None:
    url = live_server.url
    tag = secrets.token_hex(2)
    ana_ctx, ben_ctx = browser.new_context(), browser.new_context()
    try:
        ana = account(ana_ctx, url, f"Ana{tag}")
        ben = account(ben_ctx, url, f"Ben{tag}")
        mid = start_match(ana, url, {"seats": 2, "bots": 0}, (ben,))
        ana.goto(f"{url}/matches/{mid}")
        expect(ana.locator("#after")).to_be_hidden()
        assert ana.request.post(f"{url}/api/matches/{mid}/resign", data={}).ok
        # The page learns of the end live and shows the ways on.
        after = ana.locator("#after")
        expect(after).to_be_visible()
        expect(after.get_by_role("button", name="Offer the same players a rematch")).to_be_visible()
        expect(after.get_by_role("link", name="Set up a new match")).to_have_attribute(
            "href", "/matches/new"
        )
        expect(after.get_by_role("link", name="Watch the replay and analysis")).to_be_visible()
        assert_axe_clean(ana, "a finished people match")
    finally:
        ana_ctx.close()
        ben_ctx.close()
