"""Play now in two browsers: two people asking for the same kind of match are paired,
and both pages open the match by themselves."""

from __future__ import annotations

import re
import secrets

import pytest
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


@pytest.mark.pg
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
    said = "Looking for players: Classic, 1 minute per throw, 2 seats, 1 spare deadline…"
    expect(ana.locator("#people-status")).to_have_text(said)
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


def test_a_short_seek_offers_the_bot_and_ends_with_its_page(browser: Browser, live_server) -> None:  # type: ignore[no-untyped-def]
    """After 30 seconds alone the page offers a bot match in a new tab; a seek for
    less than an hour a throw is called off once its page is left."""
    url = live_server.url
    ctx = browser.new_context(reduced_motion="reduce")
    cal = account(ctx, url, f"Cal{secrets.token_hex(2)}")
    cal.clock.install()
    cal.goto(url + "/play-now")
    cal.select_option("#seek-variant", "jackpot")
    cal.select_option("#seek-deadline", "300")
    cal.select_option("#seek-seats", "4")
    cal.click("#seek-start")
    expect(cal.locator("#seek-waiting")).to_be_visible()
    expect(cal.locator("#seek-bot")).to_be_hidden()
    cal.clock.run_for(31_000)
    expect(cal.locator("#seek-bot-start")).to_be_visible()
    assert cal.locator("#seek-bot").get_attribute("target") == "_blank"
    [mine] = cal.request.get(url + "/api/seeks").json()["mine"]
    assert mine["status"] == "waiting" and mine["seats"] == 4
    cal.goto(url + "/")  # the page is left: its stream closes
    for _ in range(100):
        if cal.request.get(f"{url}/api/seeks/{mine['id']}").json()["status"] == "cancelled":
            break
        cal.wait_for_timeout(100)
    assert cal.request.get(f"{url}/api/seeks/{mine['id']}").json()["status"] == "cancelled"
    ctx.close()


def test_a_long_seek_is_followed_again_on_return(browser: Browser, live_server) -> None:  # type: ignore[no-untyped-def]
    url = live_server.url
    ctx = browser.new_context(reduced_motion="reduce")
    dee = account(ctx, url, f"Dee{secrets.token_hex(2)}")
    dee.goto(url + "/play-now")
    dee.select_option("#seek-variant", "classic")
    dee.select_option("#seek-deadline", "259200")
    dee.select_option("#seek-seats", "4")
    dee.click("#seek-start")
    expect(dee.locator("#seek-waiting")).to_be_visible()
    dee.reload()
    expect(dee.locator("#seek-waiting")).to_be_visible()
    expect(dee.locator("#seek-form")).to_be_hidden()
    dee.click("#seek-cancel")
    expect(dee.locator("#seek-form")).to_be_visible()
    expect(dee.locator("#people-status")).to_have_text("You are no longer looking for players.")
    assert dee.request.get(url + "/api/seeks").json()["mine"] == []
    ctx.close()
