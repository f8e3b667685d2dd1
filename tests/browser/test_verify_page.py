"""The Verify page accepts a record downloaded from the match page and rejects a
tampered one, checking in the browser itself."""

from __future__ import annotations

import json
import re

from browser_helpers import NEXT_ACTION, play_the_bot
from playwright.sync_api import Page, expect


def test_downloaded_record_verifies_and_tampering_is_caught(
    page: Page, live_server, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    play_the_bot(page, live_server.url, "text=Classic against the bot")
    expect(page.locator("#status")).to_contain_text("Your throw")
    for _ in range(200):
        action = page.wait_for_function(NEXT_ACTION).json_value()
        if action == "over":
            break
        if action == "throw":
            page.keyboard.press("Space")
        elif page.locator(".option").count():
            page.locator(".option").first.click()
    expect(page.locator("#result")).to_be_visible()

    with page.expect_download() as info:
        page.click("#record-link")
    path = tmp_path / "record.json"
    info.value.save_as(path)
    record = json.loads(path.read_text())
    assert record["format"] == "jackpot-record/2" and record["server_seed"]
    assert sorted(record["joined"]) == [0, 1]

    page.goto(live_server.url + "/verify")
    page.set_input_files("#record-file", str(path))
    page.click("#verify-button")
    expect(page.locator("#verify-summary")).to_contain_text("✓", timeout=30000)
    expect(page.locator("#verify-checks li")).not_to_have_count(0)

    first = record["events"][0]
    first["dice"][0] = first["dice"][0] % 6 + 1  # a different first die
    page.goto(live_server.url + "/verify")
    page.fill("#record-text", json.dumps(record))
    page.click("#verify-button")
    expect(page.locator("#verify-summary")).to_contain_text("✗", timeout=30000)
    expect(page.locator("#verify-problem-text")).to_have_text(re.compile(r"\S"))


def test_a_record_that_cannot_be_fetched_is_said_in_the_pages_words(
    page: Page, live_server
) -> None:  # type: ignore[no-untyped-def]
    """A lost connection is said in words, not as the browser's "TypeError: Failed to
    fetch"."""
    page.route("**/api/matches/*/record", lambda route: route.abort())
    page.goto(live_server.url + "/verify?match=m_0123456789abcdef")
    problem = page.locator("#verify-problem-text")
    expect(problem).to_have_text(re.compile(r"could not be reached"), timeout=30000)
    assert not re.search(r"TypeError|Failed to fetch", problem.inner_text())


def test_a_failure_is_said_once_and_an_empty_box_is_no_failure(
    page: Page, live_server
) -> None:  # type: ignore[no-untyped-def]
    """The reason stands in the problem box alone (the verdict above it is short), no
    empty "What was checked" heading; an empty box is a hint, not a red failure."""
    page.goto(live_server.url + "/verify")
    page.fill("#record-text", '{"format": "jackpot-record/2", "variant"')
    page.click("#verify-button")
    expect(page.locator("#verify-summary")).to_have_text("✗ Not verified.", timeout=30000)
    reason = page.locator("#verify-problem-text").inner_text()
    assert "cut off" in reason
    assert reason not in page.locator("#verify-summary").inner_text()
    expect(page.locator("#verify-checked")).to_be_hidden()

    page.fill("#record-text", "   ")
    page.click("#verify-button")
    expect(page.locator("#verify-summary")).to_contain_text("paste a record")
    expect(page.locator("#verify-problem")).to_be_hidden()
    expect(page.locator("#verify-outcome")).not_to_have_class(re.compile(r"\bbad\b"))
