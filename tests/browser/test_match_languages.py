"""The match page in the players' languages: a whole bot match played by clicking in
Portuguese, and a screenshot of the match page in each of the five languages."""

from __future__ import annotations

import re
from pathlib import Path

from browser_helpers import NEXT_ACTION, play_the_bot
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from jackpot.i18n.catalogs import translations

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
#: English words of the match page that no Portuguese sentence of it contains.
ENGLISH = re.compile(
    r"\b(Your|throw|Throw|Press|cover|Cover|tiles?|Round|Match over|wins?|Place|left open)\b"
)


def js(lang: str, text: str) -> str:
    return translations(lang, "js").gettext(text)


def play_until_over(page: Page, max_steps: int = 3000) -> None:
    for _ in range(max_steps):
        action = page.wait_for_function(NEXT_ACTION).json_value()
        if action == "over":
            return
        target = (
            page.locator("#throw")
            if action == "throw"
            else page.locator(".tile.offered:not(:disabled)").last
        )
        try:
            target.click(timeout=2000)
        except PlaywrightTimeout:
            continue
    raise AssertionError("the match did not end")


def test_a_bot_match_played_in_portuguese(browser: Browser, live_server) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(locale="pt-PT")
    page = context.new_page()
    try:
        page.goto(live_server.url + "/")
        expect(page.locator("html")).to_have_attribute("lang", "pt")
        play_the_bot(page, live_server.url, "role=button[name='Jogar contra o bot']")
        expect(page.locator("html")).to_have_attribute("lang", "pt")
        expect(page.locator("h1")).to_contain_text("Jackpot")
        expect(page.locator("#throw")).to_contain_text(js("pt", "Throw"))
        expect(page.locator("#status")).not_to_be_empty()
        assert not ENGLISH.search(page.locator("#status").inner_text())
        page.keyboard.press("Space")
        expect(page.locator(".die").first).to_be_visible()
        assert not ENGLISH.search(page.locator("#status").inner_text()), page.locator(
            "#status"
        ).inner_text()
        play_until_over(page)
        result = page.locator("#result")
        expect(result).to_be_visible()
        assert not ENGLISH.search(result.inner_text()), result.inner_text()
        log = page.locator("#log").inner_text()
        assert log and not ENGLISH.search(log), log[:300]
        expect(page.locator("#server-seed")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
    finally:
        context.close()


def test_screenshots_of_the_match_page_in_every_language(browser: Browser, live_server) -> None:  # type: ignore[no-untyped-def]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    languages = [("en", "en-GB"), ("pt", "pt-PT"), ("ms", "ms-MY"), ("et", "et-EE")]
    languages.append(("sk", "sk-SK"))
    for lang, locale in languages:
        context = browser.new_context(locale=locale, viewport={"width": 1000, "height": 900})
        page = context.new_page()
        try:
            play_the_bot(page, live_server.url)
            expect(page.locator("html")).to_have_attribute("lang", lang)
            page.wait_for_function(NEXT_ACTION)
            page.keyboard.press("Space")
            expect(page.locator(".die").first).to_be_visible()
            # The reader's own throw has its own sentence: Estonian bends the verb
            # ("Viskasid"), where "{name} threw" would give "Sina viskas".
            own_throw = js(lang, "You threw {dice}").split("{dice}")[0].strip()
            expect(page.locator("#log")).to_contain_text(own_throw)
            page.wait_for_function(NEXT_ACTION)
            page.screenshot(
                path=str(SCREENSHOTS / f"match-{lang}.png"), full_page=True, animations="disabled"
            )
        finally:
            context.close()
