"""Two people finish a match in two browsers; one offers a rematch, the other
accepts, and both pages move to the new match. Then, on another page of the site,
the player whose throw it becomes sees "(Your throw)" in the tab title and gets one
system notification (the Notifications API, stubbed to record what is shown)."""

from __future__ import annotations

import re
import secrets

import pytest
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

#: The page's own live stream has brought its first picture (static/notify.js).
STREAM_HEARD = "() => window.jackpotNotify && window.jackpotNotify.received > 0"


@pytest.mark.pg
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
    expect(ana.locator("#status")).to_contain_text(re.compile("Your throw|to throw"))

    # Ana resigns at once: Ben wins, and the match is over on both pages.
    ana.click("#resign")
    ana.click("#resign-yes")
    for page in (ana, ben):
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#rematch")).to_be_visible()
    expect(ben.locator("#rematch-status")).to_contain_text("the same players, variant and deadline")

    # Ben offers from the keyboard: the box's polls leave his focus where it is, and
    # his Enter moves it to the button that replaces the one he pressed.
    ben.focus("#rematch-offer")
    ben.wait_for_timeout(2500)  # a poll of the rematch box has come and gone
    expect(ben.locator("#rematch-offer")).to_be_focused()
    ben.keyboard.press("Enter")
    expect(ben.locator("#rematch-status")).to_contain_text(f"Waiting for Ana{tag}")
    expect(ben.locator("#rematch-withdraw")).to_be_focused()
    # Ana's page shows the offer by itself, says it once, and she accepts.
    expect(ana.locator("#rematch-status")).to_contain_text(f"Ben{tag} offers a rematch")
    expect(ana.locator("#announce")).to_contain_text(f"Ben{tag} offers a rematch")
    ana.wait_for_timeout(2500)
    said = ana.locator("#announce p").all_inner_texts()
    assert sum("offers a rematch" in line for line in said) == 1, said
    # The rematch's server seed was fixed with the offer: Ana sees its commitment,
    # the one Ben's page showed him, before she sends her seed.
    offered = ben.locator("#rematch-commitment code").inner_text()
    expect(ana.locator("#rematch-commitment")).to_contain_text(
        "The server's seed for the rematch is already fixed: its SHA-256 is"
    )
    expect(ana.locator("#rematch-commitment code")).to_have_text(offered)
    ana.click("#rematch-accept")

    # Both pages go to the same new match, with a new commitment, and an order of
    # play drawn again: "first" throws first.
    for page in (ana, ben):
        expect(page).not_to_have_url(old_url)
        expect(page).to_have_url(re.compile(r"/matches/m_[0-9a-f]+$"))
    assert ana.url == ben.url
    new_url = ana.url
    mid = new_url.rsplit("/", 1)[1]
    ana_first = ana.request.get(f"{url}/api/matches/{mid}").json()["seats"][0]["you"]
    first, second = (ana, ben) if ana_first else (ben, ana)
    first_name, second_name = (f"Ana{tag}", f"Ben{tag}")[:: 1 if ana_first else -1]
    expect(first.locator("#status")).to_contain_text("Your throw")
    expect(second.locator("#status")).to_contain_text(f"{first_name} to throw")
    expect(ana.locator("h1")).to_contain_text("Jackpot")
    expect(ana.locator("#deadline-rule")).to_have_text(ben.locator("#deadline-rule").inner_text())
    new_commitment = ana.locator("#commitment").inner_text()
    assert re.fullmatch(r"[0-9a-f]{64}", new_commitment) and new_commitment != old_commitment
    assert new_commitment == offered
    expect(first).to_have_title(re.compile(r"^\(Your throw\) "))

    # The second waits on another page of the site: nothing is their throw yet.
    second.goto(url + "/lobby")
    second.wait_for_function(STREAM_HEARD)
    assert not second.title().startswith("(Your throw)")
    assert second.evaluate("window.__notes.length") == 0
    # The first plays a turn (Jackpot: the second always has a turn after it).
    for _ in range(60):
        if second_name in first.locator("#status").inner_text():
            break
        action = first.evaluate(NEXT_ACTION)
        if action == "throw":
            first.click("#throw")
        elif action == "cover":
            first.locator(".tile.offered:not(:disabled)").first.click()
        first.wait_for_timeout(100)
    expect(first.locator("#status")).to_contain_text(f"{second_name} to throw")
    # The second's tab title says so by itself (their live stream), and one system
    # notification shows, once per throw.
    expect(second).to_have_title(re.compile(r"^\(Your throw\) "))
    notes = second.evaluate("window.__notes")
    assert len(notes) == 1 and notes[0]["title"] == "Your throw"
    second.reload()
    second.wait_for_function(STREAM_HEARD)
    expect(second).to_have_title(re.compile(r"^\(Your throw\) "))
    assert second.evaluate("window.__notes.length") == 0
    first.goto(url + "/lobby")
    first.wait_for_function(STREAM_HEARD)
    assert not first.title().startswith("(Your throw)")
    # The old match, opened again later, stays put and links to its rematch.
    ana.goto(old_url)
    expect(ana.locator("#rematch-link")).to_have_attribute("href", new_url[len(url) :])
    ana.wait_for_timeout(2500)  # a poll of the rematch box has come and gone
    assert ana.url == old_url
    ana_ctx.close()
    ben_ctx.close()
