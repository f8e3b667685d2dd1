"""A guest plays a whole match against the bot by clicking, in Chromium."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_helpers import NEXT_ACTION, play_the_bot
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def play_until_over(page: Page, max_steps: int = 3000) -> int:
    """Click Throw, or the highest tile on offer, until the result shows.

    The page re-renders as events arrive, so each step waits for a button that is
    enabled now, and a click that lost the race (the button changed) is retried.
    """
    for step in range(max_steps):
        action = page.wait_for_function(NEXT_ACTION).json_value()
        if action == "over":
            return step
        # Cover the highest tile on offer: about one turn in 21 shuts the box that
        # way (the lowest tile manages one in 75), which keeps the match short.
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


@pytest.mark.pg
def test_guest_plays_the_bot_to_the_end(page: Page, live_server) -> None:  # type: ignore[no-untyped-def]
    play_the_bot(page, live_server.url)
    expect(page.locator("#seats li")).to_have_count(2)
    expect(page.locator("#status")).to_contain_text("Your throw")
    # The bot is named once, the rule it plays by a secret until the end; a guest has no
    # profile, so nothing in the seats is a link.
    expect(page.locator("#seats li .name", has_text="Bot")).to_have_count(1)
    expect(page.locator("#seats .badge")).to_have_text("rule: secret")
    expect(page.locator("#seats a")).to_have_count(0)
    commitment = page.locator("#commitment").inner_text()
    assert len(commitment) == 64
    expect(page.locator("#server-seed")).to_contain_text("published when the match ends")

    # A throw, then the options on offer are the only clickable tiles.
    page.keyboard.press("Space")
    expect(page.locator(".die")).not_to_have_count(0)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    if page.locator(".tile.offered").count() > 0:
        for tile in page.locator(".tile").all():
            offered = "offered" in (tile.get_attribute("class") or "")
            assert tile.is_enabled() == offered
        page.screenshot(
            path=str(SCREENSHOTS / "match-desktop.png"), full_page=True, animations="disabled"
        )
        # The keyboard covers too: the digit of a tile on offer.
        tile = page.locator(".tile.offered").first.get_attribute("data-tile")
        page.keyboard.press(str(tile))
        expect(page.locator(f".tile[data-tile='{tile}']")).to_have_class(re.compile("covered"))

    play_until_over(page)
    expect(page.locator("#result h2")).to_have_text(
        re.compile(r"You win!|Bot wins|Match over|draw")
    )
    seed = page.locator("#server-seed").inner_text()
    assert len(seed) == 64 and seed != commitment
    assert page.locator("#log li").count() > 3
    # A reload rebuilds the log from the record: the same lines, turn scores and
    # the jackpot included, as the live events wrote.
    live_log = page.locator("#log").inner_text()
    assert "this turn (total" in live_log or "a jackpot!" in live_log
    # The end reveals the bot's rule live, and a reload shows the same seats.
    expect(page.locator("#seats .badge")).to_have_text(
        re.compile(r"^rule: (lowest tile|highest tile|best move)$")
    )
    live_seats = page.locator("#seats").inner_text()
    page.reload()
    expect(page.locator("#log li")).to_have_count(len(live_log.splitlines()))
    assert page.locator("#log").inner_text() == live_log
    expect(page.locator("#seats .badge")).to_have_text(re.compile("^rule: "))
    assert page.locator("#seats").inner_text() == live_seats


def test_match_page_on_a_phone(browser, live_server) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    play_the_bot(page, live_server.url)
    # A touch screen is not told of keys it does not have.
    touch_words = re.compile(r"^Your throw\. .*Tap Throw|one die or two\.$")
    expect(page.locator("#status")).to_have_text(touch_words)
    page.click("#throw")
    expect(page.locator(".die")).not_to_have_count(0)
    # Nothing overflows sideways: the nine tiles fit the phone's width.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    box = page.locator(".tile[data-tile='9']").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(
        path=str(SCREENSHOTS / "match-phone.png"), full_page=True, animations="disabled"
    )
    context.close()


def test_classic_tiles_clicked_one_by_one_build_a_set(page: Page, live_server) -> None:  # type: ignore[no-untyped-def]
    """In Classic a cover may be several tiles: clicking the tiles of a set covers it."""
    page.goto(live_server.url + "/")
    page.click("text=Practise Classic alone")
    for _ in range(60):
        action = page.wait_for_function(NEXT_ACTION).json_value()
        if action == "over":
            break
        if action == "throw":
            page.click("#throw")
            continue
        sets = page.evaluate(
            "[...document.querySelectorAll('.option')].map(b => b.textContent.split(' + '))"
        )
        multi = [s for s in sets if len(s) > 1]
        if not multi:
            page.locator(".option").first.click()
            continue
        chosen = multi[0]
        for tile in chosen[:-1]:
            page.click(f".tile[data-tile='{tile}']")
            expect(page.locator(f".tile[data-tile='{tile}']")).to_have_class(re.compile("selected"))
        page.click(f".tile[data-tile='{chosen[-1]}']")
        for tile in chosen:
            expect(page.locator(f".tile[data-tile='{tile}']")).to_have_class(re.compile("covered"))
        return
    raise AssertionError("no throw offered a set of two or more tiles in this practice turn")


def test_practice_ends_as_practice_and_a_resignation_is_named(page: Page, live_server) -> None:  # type: ignore[no-untyped-def]
    """Alone, nobody "wins": the end says practice is over. Against the bot, the
    result says who resigned, and the odds switch goes away once nothing is left."""
    page.goto(live_server.url + "/")
    page.click("text=Practise Jackpot alone")
    expect(page.locator("h1")).to_contain_text("practice")
    play_until_over(page)
    expect(page.locator("#result h2")).to_have_text(re.compile(r"^Practice over: you "))
    expect(page.locator("#announce")).to_contain_text("Practice over: you ")
    expect(page.locator("#show-odds")).to_be_hidden()

    play_the_bot(page, live_server.url)
    expect(page.locator("#status")).to_contain_text("Your throw")
    page.click("#resign")
    expect(page.locator("#resign-confirm")).to_be_visible()
    # The question is read with the answer that takes the focus, not left unsaid.
    expect(page.locator("#resign-no")).to_be_focused()
    question = re.compile(r"^Resign and leave the match\?")
    expect(page.locator("#resign-no")).to_have_accessible_description(question)
    expect(page.locator("#resign-yes")).to_have_accessible_description(question)
    page.click("#resign-yes")
    expect(page.locator("#result h2")).to_have_text("Bot wins")
    # No "total 0" for a seat that left before throwing: it would read as the best.
    expect(page.locator("#result li").last).to_have_text("Place 2: You, resigned")


@pytest.mark.pg
def test_the_page_plays_over_its_websocket(page: Page, live_server) -> None:  # type: ignore[no-untyped-def]
    """Moves and events travel on the match's WebSocket: no move request over HTTP
    and no SSE stream while the socket works; the page ends as a fresh load shows."""
    sockets: list[str] = []
    frames_sent: list[str] = []
    http_moves: list[str] = []

    def on_socket(ws) -> None:  # type: ignore[no-untyped-def]
        sockets.append(ws.url)
        ws.on("framesent", lambda payload: frames_sent.append(str(payload)))

    page.on("websocket", on_socket)
    page.on(
        "request",
        lambda r: http_moves.append(r.url)
        if re.search(r"/(throw|cover|events)(\?|$)", r.url)
        else None,
    )
    play_the_bot(page, live_server.url)
    expect(page.locator("#status")).to_contain_text("Your throw")
    steps = play_until_over(page)
    assert steps > 0
    assert len(sockets) == 1 and sockets[0].endswith("/socket?last_event_id=0"), sockets
    assert any('"action":"throw"' in f for f in frames_sent), frames_sent[:3]
    assert http_moves == [], http_moves
    result = page.locator("#result").text_content() or ""
    log_lines = page.locator("#log li").count()
    page.reload()
    expect(page.locator("#result")).to_have_text(result)
    expect(page.locator("#log li")).to_have_count(log_lines)
