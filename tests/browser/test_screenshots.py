"""Screenshots for docs/screenshots/ of the dark theme and the final board, taken
while checking what a person would see: nothing wider than a 390 px phone, and the
dark page really dark."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_helpers import play_the_bot
from playwright.sync_api import Browser, expect
from test_replay import finished_match

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def test_dark_theme_on_a_desktop_and_a_phone(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for name, size in (
        ("desktop", {"width": 1280, "height": 900}),
        ("phone", {"width": 390, "height": 844}),
    ):
        ctx = browser.new_context(viewport=size, color_scheme="dark", reduced_motion="reduce")
        page = ctx.new_page()
        page.goto(url + "/")
        bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert bg == "rgb(21, 18, 14)", bg  # the dark theme's background
        if name == "phone":
            page.screenshot(
                path=str(SCREENSHOTS / "home-dark-phone.png"), full_page=True, animations="disabled"
            )
        play_the_bot(page, url)
        page.click("#throw")
        expect(page.locator("#dice .die")).not_to_have_count(0)
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        page.screenshot(
            path=str(SCREENSHOTS / f"match-dark-{name}.png"), full_page=True, animations="disabled"
        )
        ctx.close()


def test_the_final_board_screenshot(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto(url + "/")
    mid = finished_match(page, url, "jackpot")
    page.goto(f"{url}/matches/{mid}")
    expect(page.locator("#board-caption")).to_be_visible()
    expect(page.locator("#log li").first).to_be_visible()
    page.screenshot(
        path=str(SCREENSHOTS / "match-final-desktop.png"), full_page=True, animations="disabled"
    )
    ctx.close()


def test_the_home_page_on_a_phone_in_every_language(browser: Browser, live_server: Any) -> None:
    """docs/screenshots/home-phone-<lang>.png, 390×844: the compact header and nothing
    wider than the phone, in each of the five languages."""
    for lang, locale in (("en", "en-GB"), ("pt", "pt-PT"), ("ms", "ms-MY"), ("et", "et-EE"),
                         ("sk", "sk-SK")):
        ctx = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
            locale=locale, reduced_motion="reduce",
        )
        page = ctx.new_page()
        page.goto(live_server.url + "/")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("#menu-button")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, lang
        page.screenshot(
            path=str(SCREENSHOTS / f"home-phone-{lang}.png"), full_page=True, animations="disabled"
        )
        ctx.close()
