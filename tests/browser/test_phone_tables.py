"""Wide tables on a narrow phone, in Slovak (long words): the replay's summary and its
options table scroll inside their own labelled, focusable boxes, and the lobby's rows
and the watch list's reflow so the join and watch links are in view; the page itself
never scrolls sideways."""

from __future__ import annotations

import secrets
from typing import Any

from browser_helpers import account
from playwright.sync_api import Browser, Page, expect

NARROW = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


def page_fits(page: Page) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{page.url} is {overflow}px wider than the phone"


def boxed(page: Page, selector: str) -> None:
    """``selector`` is wider than the phone, inside a .scroll region one can Tab to."""
    box = page.locator(selector).locator("xpath=ancestor::div[contains(@class,'scroll')][1]")
    expect(box).to_have_attribute("tabindex", "0")
    expect(box).to_have_attribute("role", "region")
    assert box.get_attribute("aria-label")


def bot_match_played_out(page: Page, url: str) -> str:
    """Four seats, three bots, every move of mine pressed through the API: returns its id."""
    r = page.request.post(url + "/api/matches", data={"seats": 4, "bots": 3})
    assert r.status == 201, r.text()
    state: dict[str, Any] = r.json()
    mid = state["id"]
    for _ in range(2000):
        if state["status"] == "finished":
            return str(mid)
        turn = state["turn"]
        if turn["dice"] is None:
            r = page.request.post(f"{url}/api/matches/{mid}/throw", data={})
        else:
            r = page.request.post(
                f"{url}/api/matches/{mid}/cover", data={"tiles": turn["options"][-1]}
            )
        assert r.status == 200, r.text()
        state = r.json()
    raise AssertionError("the match did not end")


def test_the_replay_tables_scroll_in_their_boxes(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    context = browser.new_context(locale="sk-SK", **NARROW)
    try:
        page = account(context, url, "Phone" + secrets.token_hex(3), autoplay=False)
        mid = bot_match_played_out(page, url)
        page.goto(f"{url}/matches/{mid}/replay")
        expect(page.locator("#summary")).to_be_visible()
        # Step on until a choice with options is shown.
        for _ in range(200):
            if page.locator("#odds").is_visible():
                break
            page.locator("#next").click()
        expect(page.locator("#odds")).to_be_visible()
        page_fits(page)
        boxed(page, "#summary")
        boxed(page, "#odds")
    finally:
        context.close()


def test_the_lobby_join_link_is_in_view(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    context = browser.new_context(locale="sk-SK", **NARROW)
    hosting = browser.new_context()
    try:
        host = account(hosting, url, "Host" + secrets.token_hex(3))
        r = host.request.post(url + "/api/matches", data={"seats": 3, "bots": 0})
        assert r.status == 201, r.text()
        mid = r.json()["id"]
        page = context.new_page()
        page.goto(url + "/lobby")
        link = page.locator(f'#lobby-matches tr[data-match="{mid}"] a[href="/matches/{mid}"]')
        expect(link).to_be_visible()
        page_fits(page)
        right = page.evaluate(
            "el => el.getBoundingClientRect().right", link.element_handle()
        )
        assert right <= 360, right
    finally:
        hosting.close()
        context.close()


def test_the_watch_link_is_in_view(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    context = browser.new_context(locale="pt-PT", **NARROW)
    players = [browser.new_context(), browser.new_context()]
    try:
        tag = secrets.token_hex(3)
        ana, ben = account(players[0], url, "Ana" + tag), account(players[1], url, "Ben" + tag)
        r = ana.request.post(url + "/api/matches", data={"seats": 2, "bots": 0})
        assert r.status == 201, r.text()
        mid = r.json()["id"]
        assert ben.request.post(f"{url}/api/matches/{mid}/join", data={}).ok
        page = context.new_page()
        page.goto(url + "/watch")
        link = page.locator(f'#watch-matches tr[data-match="{mid}"] a[href="/matches/{mid}"]')
        expect(link).to_be_visible()
        page_fits(page)
        right = page.evaluate("el => el.getBoundingClientRect().right", link.element_handle())
        assert right <= 360, right
    finally:
        for c in players:
            c.close()
        context.close()
