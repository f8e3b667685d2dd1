"""The header on a phone: one line (the brand and a menu button), the links, the
account and the two pickers behind the button, so the board of a match page is in
view on arrival at 390×844; the menu works from the keyboard, and without scripts the
links stay in view."""

from __future__ import annotations

from typing import Any

from a11y import assert_axe_clean
from browser_helpers import play_the_bot
from playwright.sync_api import Browser, expect

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
#: One line of the header on a phone, padding included.
ONE_LINE = 60


def test_the_board_is_in_view_on_arrival_at_a_phone(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    for locale in ("en-GB", "sk-SK"):  # Slovak: the longest words in the header
        ctx = browser.new_context(locale=locale, reduced_motion="reduce", **PHONE)
        page = ctx.new_page()
        try:
            mid = play_the_bot(page, url)
            page.goto(f"{url}/matches/{mid}")  # arriving at the page, scrolled to the top
            board = page.locator("#board")
            expect(board.locator(".tile")).to_have_count(9)
            assert page.evaluate("window.scrollY") == 0
            header = page.locator("header.site").bounding_box()
            box = board.bounding_box()
            assert header is not None and box is not None
            assert header["height"] <= ONE_LINE, (locale, header)
            assert box["y"] >= header["height"] and box["y"] + box["height"] <= 844, (locale, box)
            expect(page.locator("header nav")).to_be_hidden()
        finally:
            ctx.close()


def test_the_menu_button_opens_the_links(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    try:
        page.goto(url + "/")
        button = page.get_by_role("button", name="Menu")
        expect(button).to_have_attribute("aria-expanded", "false")
        nav = page.get_by_role("navigation", name="Main")
        expect(nav).to_be_hidden()
        button.click()
        expect(button).to_have_attribute("aria-expanded", "true")
        expect(nav.get_by_role("link", name="Leaderboard")).to_be_visible()
        # One language picker, showing the language in use, instead of five names.
        expect(page.locator("#language-pick summary")).to_be_visible()
        expect(page.get_by_role("button", name="Português")).to_be_hidden()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert_axe_clean(page, "the phone's menu, open")
        # From the keyboard: into the links, Escape closes and gives focus back.
        page.keyboard.press("Tab")
        expect(nav.get_by_role("link", name="Play", exact=True)).to_be_focused()
        page.keyboard.press("Escape")
        expect(button).to_have_attribute("aria-expanded", "false")
        expect(button).to_be_focused()
        expect(nav).to_be_hidden()
        # A language chosen on the phone, through the menu.
        button.click()
        page.locator("#language-pick summary").click()
        page.get_by_role("button", name="Português").click()
        expect(page.locator("html")).to_have_attribute("lang", "pt")
        expect(page.get_by_role("button", name="Menu")).to_have_attribute("aria-expanded", "false")
    finally:
        ctx.close()


def test_without_scripts_the_links_stay_in_view(browser: Browser, live_server: Any) -> None:
    ctx = browser.new_context(java_script_enabled=False, **PHONE)
    page = ctx.new_page()
    try:
        page.goto(live_server.url + "/rules")
        expect(page.locator("#menu-button")).to_be_hidden()
        expect(page.get_by_role("link", name="Leaderboard")).to_be_visible()
    finally:
        ctx.close()


def test_a_desktop_header_needs_no_menu(browser: Browser, live_server: Any) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    try:
        page.goto(live_server.url + "/")
        expect(page.locator("#menu-button")).to_be_hidden()
        expect(page.get_by_role("link", name="Leaderboard")).to_be_visible()
        header = page.locator("header.site").bounding_box()
        assert header is not None and header["height"] <= ONE_LINE
    finally:
        ctx.close()

