"""The board's dice and tiles as a player sees them: dice drawn with pips (their values
still in the text and the labels a screen reader and the live region use), a short
roll for a new throw where motion is welcome and none under reduced motion or on
opening a page, and covered tiles flipped down with their number faintly there."""

from __future__ import annotations

import re
from typing import Any

from browser_helpers import NEXT_ACTION, play_the_bot
from playwright.sync_api import Browser, Page, expect

#: Each die as drawn: its value in text, its label, its pips, whether it is rolling.
DICE = """() => [...document.querySelectorAll('#dice .die')].map((d) => ({
  text: d.textContent,
  label: d.getAttribute('aria-label'),
  role: d.getAttribute('role'),
  pips: d.querySelectorAll('svg.pips circle').length,
  digitShown: d.querySelector('.die-value').getBoundingClientRect().width > 2,
  animations: d.getAnimations().length,
}))"""


def throw(page: Page) -> list[dict[str, Any]]:
    page.click("#throw")
    expect(page.locator("#dice .die")).not_to_have_count(0)
    return list(page.evaluate(DICE))


def test_dice_have_pips_and_keep_their_values_in_words(browser: Browser, live_server: Any) -> None:
    ctx = browser.new_context(reduced_motion="reduce")
    page = ctx.new_page()
    try:
        play_the_bot(page, live_server.url)
        dice = throw(page)
        for die in dice:
            value = int(die["text"])
            assert die["pips"] == value and not die["digitShown"]
            assert die["role"] == "img" and die["label"] == f"die showing {value}"
            assert die["animations"] == 0  # reduced motion: no roll
        said = " and ".join(d["text"] for d in dice)
        expect(page.locator("#announce")).to_contain_text(f"You threw {said}")
        assert page.locator("#dice .die").all_inner_texts() == [d["text"] for d in dice]
    finally:
        ctx.close()


def test_a_new_throw_rolls_in_and_an_opened_page_does_not(
    browser: Browser, live_server: Any
) -> None:
    ctx = browser.new_context(reduced_motion="no-preference")
    page = ctx.new_page()
    try:
        mid = play_the_bot(page, live_server.url)
        dice = throw(page)
        assert all(d["animations"] == 1 for d in dice), dice
        expect(page.locator("#dice .die.rolling")).to_have_count(len(dice))
        # The same throw on a page opened afresh: shown at rest.
        page.goto(f"{live_server.url}/matches/{mid}")
        page.wait_for_function(NEXT_ACTION, timeout=30000)
        expect(page.locator("#dice .die")).to_have_count(len(dice))
        assert page.locator("#dice .die.rolling").count() == 0
    finally:
        ctx.close()


def test_a_covered_tile_lies_down_its_number_faint(browser: Browser, live_server: Any) -> None:
    ctx = browser.new_context(reduced_motion="reduce")
    page = ctx.new_page()
    try:
        play_the_bot(page, live_server.url)
        throw(page)
        tile = page.locator(".tile.offered:not(:disabled)").first
        n = tile.get_attribute("data-tile")
        tile.click()
        covered = page.locator(f".tile[data-tile='{n}']")
        expect(covered).to_have_class(re.compile(r"\bcovered\b"))
        expect(covered).to_have_attribute("aria-label", re.compile(rf"^tile {n}, covered"))
        expect(covered).to_have_text(n)
        look = covered.evaluate(
            """(t) => { const s = getComputedStyle(t);
                return { transform: s.transform, color: s.color }; }"""
        )
        assert look["transform"] not in ("none", ""), look  # lying down, not standing
        alpha = re.fullmatch(r"rgba\(\d+, \d+, \d+, ([\d.]+)\)", look["color"])
        assert alpha is not None and 0.2 <= float(alpha.group(1)) < 1, look  # faint, not gone
    finally:
        ctx.close()
