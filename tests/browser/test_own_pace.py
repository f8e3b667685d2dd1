"""Issue 14 through the browser: a lobby match nobody filled expires (gone from an open
lobby without a reload, "expired" in its maker's matches), and a person who left
before their first throw is not rated, nor is anyone else in that match."""

from __future__ import annotations

import secrets
import time
from typing import Any

from browser_helpers import account
from playwright.sync_api import Browser, expect

from testdb import execute

WAIT = 15_000


def test_an_unfilled_match_expires_out_of_the_lobby(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    tag = secrets.token_hex(2)
    ana_ctx, ben_ctx = browser.new_context(), browser.new_context()
    ana = account(ana_ctx, url, f"Xana{tag}", autoplay=False)
    ben = account(ben_ctx, url, f"Xben{tag}", autoplay=False)
    try:
        r = ana.request.post(
            url + "/api/matches", data={"seats": 2, "bots": 0, "expiry_seconds": 3600}
        )
        assert r.status == 201, r.text()
        mid = r.json()["id"]
        ben.goto(url + "/lobby")
        link = ben.locator(f"a[href='/matches/{mid}']")
        expect(link).to_have_count(1)
        # The hour passes (for this row only); the sweeper, every 0.2 s here, calls it off.
        stale = f"UPDATE matches SET expires_at = created_at WHERE id = '{mid}'"
        execute(live_server.database_url, stale)
        expect(link).to_have_count(0, timeout=WAIT)  # gone from the open lobby, no reload
        # The lobby hides it once its time is up; "My matches" says so once the sweeper
        # has called it off (it may not have yet, and that page is not live).
        deadline = time.monotonic() + WAIT / 1000
        while time.monotonic() < deadline:
            state = ana.request.get(f"{url}/api/matches/{mid}").json()
            if state["status"] == "finished":
                break
            time.sleep(0.2)
        ana.goto(url + "/my")
        expect(ana.locator("main")).to_contain_text("Expired: nobody took the free seats in time")
        ana.goto(f"{url}/matches/{mid}")
        expect(ana.locator("#status")).to_contain_text("called off")
        expect(ana.locator("#expiry")).to_be_hidden()
    finally:
        ana_ctx.close()
        ben_ctx.close()


def test_a_no_show_is_not_rated(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    tag = secrets.token_hex(2)
    ana_ctx, ben_ctx = browser.new_context(), browser.new_context()
    ana_name, ben_name = f"Nana{tag}", f"Nben{tag}"
    ana = account(ana_ctx, url, ana_name, autoplay=False)
    ben = account(ben_ctx, url, ben_name, autoplay=False)
    try:
        for page in (ana, ben):
            r = page.request.patch(url + "/api/account", data={"leaderboard": True})
            assert r.ok, r.text()
        r = ana.request.post(url + "/api/matches", data={"seats": 2, "bots": 0})
        assert r.status == 201, r.text()
        mid = r.json()["id"]
        ben.goto(f"{url}/matches/{mid}")
        ben.click("#join")
        # Ben resigns at once, before any throw of his (whoever the draw put first:
        # if it was Ana she has not thrown either, and nobody's throw is automatic).
        ben.click("#resign")
        ben.click("#resign-yes")
        expect(ben.locator("#result")).to_be_visible(timeout=WAIT)
        state = ben.request.get(f"{url}/api/matches/{mid}").json()
        assert state["status"] == "finished" and state["result"] is not None
        # Neither is rated: the profiles say a rating comes after a match against people.
        for name in (ana_name, ben_name):
            ben.goto(f"{url}/players/{name}")
            card = ben.locator("#variant-jackpot")
            expect(card).to_contain_text("Rated from the first match against people in which")
            expect(card.locator(".rating-value")).to_have_count(0)
    finally:
        ana_ctx.close()
        ben_ctx.close()
