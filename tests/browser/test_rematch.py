"""Two people finish a match in two browsers; one offers a rematch, the other
accepts, and both pages move to the new match. Then, on another page of the site,
the player whose throw it becomes sees "(Your throw)" in the tab title and gets one
system notification (the Notifications API, stubbed to record what is shown)."""

from __future__ import annotations

import re
import secrets

from browser_helpers import NEXT_ACTION
from playwright.sync_api import Browser, expect
from test_two_people import sign_up

#: Replaces the Notifications API with a recorder that has permission already.
NOTIFICATION_STUB = """
window.__notes = [];
window.Notification = class {
  static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
  constructor(title, options) { window.__notes.push({ title, ...options }); }
};
"""


def test_rematch_for_two_people(browser: Browser, live_server) -> None:  # type: ignore[no-untyped-def]
    url = live_server.url
    tag = secrets.token_hex(2)
    ana_ctx, ben_ctx = browser.new_context(), browser.new_context()
    for ctx in (ana_ctx, ben_ctx):
        ctx.add_init_script(NOTIFICATION_STUB)
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    sign_up(ana, url, f"Ana{tag}")
    sign_up(ben, url, f"Ben{tag}")

    ana.goto(url + "/matches/new")
    ana.check("input[name=variant][value=jackpot]")
    ana.select_option("select[name=seats]", "2")
    ana.select_option("select[name=bots]", "0")
    ana.click("#create")
    expect(ana).to_have_url(re.compile(r"/matches/m_[0-9a-f]+$"))
    old_url = ana.url
    old_commitment = ana.locator("#commitment").inner_text()
    ben.goto(old_url)
    ben.click("#join")
    expect(ana.locator("#status")).to_contain_text("Your throw")

    # Ana resigns at once: Ben wins, and the match is over on both pages.
    ana.click("#resign")
    ana.click("#resign-yes")
    for page in (ana, ben):
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#rematch")).to_be_visible()
    expect(ben.locator("#rematch-status")).to_contain_text("same seats, variant and deadline")

    # Ben offers; Ana's page shows the offer by itself and she accepts.
    ben.click("#rematch-offer")
    expect(ben.locator("#rematch-status")).to_contain_text(f"Waiting for Ana{tag}")
    expect(ana.locator("#rematch-status")).to_contain_text(f"Ben{tag} offers a rematch")
    ana.click("#rematch-accept")

    # Both pages go to the same new match, with a new commitment; Ana throws first.
    for page in (ana, ben):
        expect(page).not_to_have_url(old_url)
        expect(page).to_have_url(re.compile(r"/matches/m_[0-9a-f]+$"))
    assert ana.url == ben.url
    new_url = ana.url
    expect(ana.locator("#status")).to_contain_text("Your throw")
    expect(ben.locator("#status")).to_contain_text(f"Ana{tag} to throw")
    expect(ana.locator("h1")).to_contain_text("Jackpot")
    expect(ana.locator("#deadline-rule")).to_have_text(ben.locator("#deadline-rule").inner_text())
    new_commitment = ana.locator("#commitment").inner_text()
    assert re.fullmatch(r"[0-9a-f]{64}", new_commitment) and new_commitment != old_commitment
    expect(ana).to_have_title(re.compile(r"^\(Your throw\) "))

    # Ben waits on another page of the site: nothing is his throw yet.
    ben.goto(url + "/lobby")
    ben.evaluate("window.jackpotNotify.poll()")
    assert not ben.title().startswith("(Your throw)")
    assert ben.evaluate("window.__notes.length") == 0
    # Ana plays her turn (Jackpot: Ben always has a turn in the round after hers).
    for _ in range(60):
        if "Ben" in ana.locator("#status").inner_text():
            break
        action = ana.evaluate(NEXT_ACTION)
        if action == "throw":
            ana.click("#throw")
        elif action == "cover":
            ana.locator(".tile.offered:not(:disabled)").first.click()
        ana.wait_for_timeout(100)
    expect(ana.locator("#status")).to_contain_text(f"Ben{tag} to throw")
    # Ben's tab title says so, and one system notification shows, once per throw.
    ben.evaluate("window.jackpotNotify.poll()")
    expect(ben).to_have_title(re.compile(r"^\(Your throw\) "))
    notes = ben.evaluate("window.__notes")
    assert len(notes) == 1 and notes[0]["title"] == "Your throw"
    ben.reload()
    ben.evaluate("window.jackpotNotify.poll()")
    expect(ben).to_have_title(re.compile(r"^\(Your throw\) "))
    assert ben.evaluate("window.__notes.length") == 0
    ana.goto(url + "/lobby")
    ana.evaluate("window.jackpotNotify.poll()")
    assert not ana.title().startswith("(Your throw)")
    # The old match, opened again later, stays put and links to its rematch.
    ana.goto(old_url)
    expect(ana.locator("#rematch-link")).to_have_attribute("href", new_url[len(url) :])
    ana.wait_for_timeout(2500)  # a poll of the rematch box has come and gone
    assert ana.url == old_url
    ana_ctx.close()
    ben_ctx.close()
