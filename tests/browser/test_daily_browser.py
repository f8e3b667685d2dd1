"""A whole daily entry in Chromium, played with the keyboard: entered from /daily, ten
turns to the end, the place and the share text after it, and another player's daily
page following the board live."""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime

import pytest
from browser_helpers import NEXT_ACTION, account, confirm_address
from playwright.sync_api import Browser, Page, expect

#: The share text: "Jackpot daily 2026-12-06 · 1 jackpot · 143", then one mark a turn.
SHARE = re.compile(r"^Jackpot daily \d{4}-\d{2}-\d{2} · \d+ jackpots? · \d+\n[🟩🟨⬜⬛]{10}$")


def play_with_keys(page: Page, max_steps: int = 500) -> int:
    """Throw with Space and cover with a tile's digit until the entry is over."""
    for step in range(max_steps):
        action = page.wait_for_function(NEXT_ACTION).json_value()
        if action == "over":
            return step
        if action == "throw":
            page.keyboard.press("Space")
        else:
            tile = page.locator(".tile.offered:not(:disabled)").last.get_attribute("data-tile")
            page.keyboard.press(str(tile))
        page.wait_for_function("() => document.querySelector('#match').dataset.settled === '1'")
    raise AssertionError("the entry did not end")


@pytest.mark.pg
def test_a_whole_daily_entry(browser: Browser, live_server) -> None:  # type: ignore[no-untyped-def]
    url = live_server.url
    tag = secrets.token_hex(3)
    ana_ctx, ben_ctx = browser.new_context(), browser.new_context()
    ana = account(ana_ctx, url, f"Ana{tag}", autoplay=False)
    ben = account(ben_ctx, url, f"Ben{tag}")
    confirm_address(ana, url, live_server.var_dir / "outbox", f"Ana{tag}")
    day = datetime.now(UTC).date().isoformat()

    # Ben watches today's deals; Ana's entry appears on his board without a reload.
    ben.goto(url + "/daily")
    expect(ben.locator("#deal-jackpot")).to_be_visible()
    fetched = int(ben.locator("#daily-boards").get_attribute("data-fetched") or "0")

    ana.goto(url + "/daily")
    expect(ana.locator("#daily-secret")).to_contain_text("keep the dice to yourself")
    ana.locator("#enter-jackpot").focus()
    ana.keyboard.press("Enter")
    ana.wait_for_url(re.compile(r"/matches/m_[0-9a-f]+$"))
    match_id = ana.url.rsplit("/", 1)[1]
    expect(ana.locator("#round")).to_have_text("Turn 1 of 10")
    expect(ana.locator("#seats")).to_be_hidden()
    expect(ana.locator("#daily-secret")).to_be_visible()
    expect(ana.locator("#deadline")).to_contain_text("The day's deal closes in")
    expect(ana.locator("#deadline-rule")).to_contain_text("no clock per throw")
    expect(ana.locator("#server-seed")).to_have_text("published when the day ends")
    expect(ana.locator("#daily-score")).to_have_text("0 jackpots · total 0 so far")

    board = ben.locator("#deal-jackpot .daily-board")
    expect(board).to_contain_text(f"Ana{tag}")
    assert int(ben.locator("#daily-boards").get_attribute("data-fetched") or "0") > fetched
    expect(board.locator("tr", has_text=f"Ana{tag}")).to_contain_text("playing")

    steps = play_with_keys(ana)
    assert steps >= 20  # ten turns of a throw and a cover at the least
    done = re.compile(r"^Entry done: \d+ jackpots?, total \d+$")
    expect(ana.locator("#result h2")).to_contain_text(done)
    expect(ana.locator("#result")).to_contain_text("Turn scores:")
    expect(ana.locator("#round")).to_have_text("Turn 10 of 10")
    place = re.compile(r"Your place so far: \d+ of \d+\.")
    expect(ana.locator("#daily-place")).to_contain_text(place)
    share = ana.locator("#share-text").input_value()
    assert SHARE.match(share), share
    assert share.startswith(f"Jackpot daily {day}")
    # The seed waits for the day's end, and the replay with it; the record is there.
    expect(ana.locator("#server-seed")).to_have_text("published when the day ends")
    expect(ana.locator("#replay-link")).to_be_hidden()
    expect(ana.locator("#verify-link")).to_be_visible()
    ana.locator("#share-copy").click()
    expect(ana.locator("#share-status")).to_contain_text(re.compile("copied|selected"))
    expect(ana.locator("#again")).to_have_attribute("href", "/daily")

    # Ben's board has her result now, placed, still without a reload.
    row = board.locator("tr", has_text=f"Ana{tag}")
    expect(row.locator("td").first).to_have_text(re.compile(r"^\d+$"))
    total = re.search(r"total (\d+)", ana.locator("#result h2").inner_text())
    assert total is not None
    expect(row).to_contain_text(total.group(1))
    # Her own page of today's deals says her result, and My matches lists the entry.
    ana.goto(url + "/daily")
    expect(ana.locator("#deal-jackpot .daily-mine")).to_contain_text("Your result:")
    expect(ana.locator("#enter-jackpot")).to_have_count(0)
    ana.goto(url + "/my")
    expect(ana.locator(f"#my-matches a[href='/matches/{match_id}']")).to_contain_text("daily")
    expect(ana.locator("#dailies")).to_contain_text("Days in a row: 1")
    for ctx in (ana_ctx, ben_ctx):
        ctx.close()
