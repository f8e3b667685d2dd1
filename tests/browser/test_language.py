"""Choosing a language with the switcher in the page header: the page changes, and the
choice stays on every page after, over the browser's own Accept-Language."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect


def test_the_switcher_changes_the_language_and_keeps_it(browser: Browser, live_server) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    try:
        page.goto(live_server.url + "/rules#classic")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator("h1")).to_have_text("How to play")
        # One picker shows the language in use; the others are a press away.
        picker = page.locator("#language-pick summary")
        expect(picker).to_have_text("Language: English")
        picker.click()
        switcher = page.get_by_role("form", name="Language")
        switcher.get_by_role("button", name="Português").click()
        # Back on the same page, in Portuguese.
        expect(page).to_have_url(re.compile(r"/rules$"))
        expect(page.locator("html")).to_have_attribute("lang", "pt")
        expect(page.locator("h1")).to_have_text("Como jogar")
        expect(picker).to_have_text("Idioma: Português")
        picker.click()
        chosen = page.get_by_role("form", name="Idioma").get_by_role("button", name="Português")
        expect(chosen).to_have_attribute("aria-current", "true")
        picker.click()
        # The choice follows the player through the site's own links.
        page.get_by_role("navigation", name="Principal").get_by_role("link", name="Salão").click()
        expect(page).to_have_url(re.compile(r"/lobby$"))
        expect(page.locator("html")).to_have_attribute("lang", "pt")
        expect(page.locator("h1")).to_have_text("Salão")
        page.get_by_role("link", name="Jogo limpo").first.click()
        expect(page.locator("html")).to_have_attribute("lang", "pt")
        expect(page).to_have_title(re.compile(r"^Jogo limpo"))
        # And from the keyboard, to Slovak and back to English.
        picker.focus()
        page.keyboard.press("Enter")
        page.get_by_role("button", name="Slovenčina").focus()
        page.keyboard.press("Enter")
        expect(page.locator("html")).to_have_attribute("lang", "sk")
        expect(page.locator("h1")).to_contain_text("Férová hra")
        page.goto(live_server.url + "/")
        expect(page.locator("#play-bot")).to_have_text("Hrať proti botovi")
        picker.click()
        page.get_by_role("button", name="English").click()
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator("#play-bot")).to_have_text("Play the bot")
    finally:
        context.close()


def test_the_browser_language_is_used_until_one_is_chosen(browser: Browser, live_server) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(locale="et-EE")
    page = context.new_page()
    try:
        page.goto(live_server.url + "/")
        expect(page.locator("html")).to_have_attribute("lang", "et")
        expect(page.locator("#play-bot")).to_have_text("Mängi robotiga")
    finally:
        context.close()
