"""The colour theme switch in the header: the choice is drawn from the first paint (the
server writes it into the page; no script corrects it afterwards), it follows the
reader from page to page, a chosen dark theme has exactly the device dark theme's
colours, and the site is axe-clean in a chosen theme against the device's setting."""

from __future__ import annotations

import re
import secrets
from pathlib import Path
from typing import Any

from a11y import assert_axe_clean
from browser_helpers import account, play_the_bot
from playwright.sync_api import Browser, Page, expect

SITE_CSS = Path(__file__).resolve().parents[2] / "src" / "jackpot" / "static" / "site.css"
DARK_BG, LIGHT_BG = "rgb(21, 18, 14)", "rgb(246, 241, 231)"

BACKGROUND = "getComputedStyle(document.body).backgroundColor"
#: Every colour the stylesheet defines, as the page computes it.
COLOURS = """(names) => Object.fromEntries(names.map(
  (n) => [n, getComputedStyle(document.documentElement).getPropertyValue(n).trim()]))"""


def colour_names() -> list[str]:
    root = re.search(r":root \{(.*?)\}", SITE_CSS.read_text(), re.S)
    assert root is not None
    names = re.findall(r"(--[\w-]+):", root.group(1))
    assert len(names) > 20
    return names


def background_becomes(page: Page, colour: str) -> None:
    """Wait for the body's background to be ``colour``: after a choice the page loads
    again, and a style read halfway through that load is no answer."""
    page.wait_for_function(f"() => {BACKGROUND} === {colour!r}")


def choose(page: Page, name: str) -> None:
    page.locator("#theme-pick summary").click()
    page.get_by_role("form", name="Colours").get_by_role("button", name=name).click()


def test_the_chosen_theme_is_in_the_first_paint(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    ctx = browser.new_context(color_scheme="light")
    page = ctx.new_page()
    try:
        page.goto(url + "/rules")
        assert page.evaluate(BACKGROUND) == LIGHT_BG
        summary = page.locator("#theme-pick summary")
        expect(summary).to_have_text("Colours: Automatic")
        choose(page, "Dark")
        expect(page).to_have_url(re.compile(r"/rules$"))
        expect(page.locator("html")).to_have_attribute("data-theme", "dark")
        expect(summary).to_have_text("Colours: Dark")
        background_becomes(page, DARK_BG)
        assert page.evaluate("getComputedStyle(document.documentElement).colorScheme") == "dark"

        # A page that runs no script at all is dark from its first paint: the server
        # drew it so, from the cookie, with nothing to correct after loading.
        still = browser.new_context(
            color_scheme="light", java_script_enabled=False, storage_state=ctx.storage_state()
        )
        bare = still.new_page()
        bare.goto(url + "/lobby")
        assert bare.evaluate(BACKGROUND) == DARK_BG
        assert 'content="dark"' in bare.locator("meta[name=color-scheme]").evaluate(
            "m => m.outerHTML"
        )
        still.close()

        # Light on a dark device; then the device's own setting again.
        dark_device = browser.new_context(color_scheme="dark")
        other = dark_device.new_page()
        other.goto(url + "/")
        assert other.evaluate(BACKGROUND) == DARK_BG
        choose(other, "Light")
        expect(other.locator("html")).to_have_attribute("data-theme", "light")
        background_becomes(other, LIGHT_BG)
        choose(other, "Automatic")
        expect(other.locator("html")).not_to_have_attribute("data-theme", re.compile("."))
        background_becomes(other, DARK_BG)
        dark_device.close()
    finally:
        ctx.close()


def test_a_chosen_dark_theme_has_the_device_s_colours(browser: Browser, live_server: Any) -> None:
    """site.css writes the dark colours twice (the device's setting, the reader's choice):
    every one of them must come out the same."""
    url = live_server.url
    names = colour_names()
    device = browser.new_context(color_scheme="dark")
    chosen = browser.new_context(color_scheme="light")
    light = browser.new_context(color_scheme="light")
    try:
        pages = [c.new_page() for c in (device, chosen, light)]
        for page in pages:
            page.goto(url + "/")
        choose(pages[1], "Dark")
        expect(pages[1].locator("html")).to_have_attribute("data-theme", "dark")
        by_device, by_choice, plain = (p.evaluate(COLOURS, names) for p in pages)
        assert by_choice == by_device
        assert by_device != plain and by_device["--bg"] == "#15120e"
    finally:
        for c in (device, chosen, light):
            c.close()


def test_the_picker_works_from_the_keyboard(browser: Browser, live_server: Any) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    try:
        page.goto(live_server.url + "/")
        summary = page.locator("#theme-pick summary")
        summary.focus()
        page.keyboard.press("Enter")
        expect(page.locator("#theme-pick")).to_have_attribute("open", "")
        page.keyboard.press("Escape")
        expect(page.locator("#theme-pick")).not_to_have_attribute("open", "")
        expect(summary).to_be_focused()
        # Opening one picker closes the other.
        page.keyboard.press("Enter")
        page.locator("#language-pick summary").click()
        expect(page.locator("#theme-pick")).not_to_have_attribute("open", "")
        page.mouse.click(5, 400)  # elsewhere on the page
        expect(page.locator("#language-pick")).not_to_have_attribute("open", "")
    finally:
        ctx.close()


def test_axe_clean_in_a_theme_chosen_against_the_device(browser: Browser, live_server: Any) -> None:
    """Each theme chosen on a device set the other way: the colours must hold up
    wherever they are, the header's open picker and a match's board included."""
    url = live_server.url
    for device, theme in (("light", "Dark"), ("dark", "Light")):
        ctx = browser.new_context(color_scheme=device, reduced_motion="reduce")
        page = account(ctx, url, f"Axe{device}{secrets.token_hex(2)}")
        try:
            page.goto(url + "/")
            choose(page, theme)
            expect(page.locator("html")).to_have_attribute("data-theme", theme.lower())
            page.locator("#theme-pick summary").click()
            assert_axe_clean(page, f"home, {theme} on a {device} device, picker open")
            for path in ("/rules", "/account", "/leaderboard"):
                page.goto(url + path)
                assert_axe_clean(page, f"{path}, {theme} on a {device} device")
            play_the_bot(page, url)
            page.click("#throw")
            expect(page.locator("#dice .die")).not_to_have_count(0)
            assert_axe_clean(page, f"a match, {theme} on a {device} device")
        finally:
            ctx.close()
