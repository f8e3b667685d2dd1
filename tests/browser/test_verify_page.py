"""The Verify page accepts a record downloaded from the match page and rejects a
tampered one, checking in the browser itself."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

from a11y import axe_violations, describe
from browser_helpers import NEXT_ACTION, play_the_bot
from playwright.sync_api import Page, expect

from jackpot.engine import RULES, Match, Variant
from jackpot.fair import (
    DailyDeal,
    Record,
    RecordEvent,
    SeatEntry,
    commitment,
    daily_client_seed,
    throw_dice,
)
from jackpot.fair.par import daily_par
from jackpot.fair.recorder import append_events
from jackpot.strategy.autoplay import play_bots
from jackpot.strategy.strength import Strength


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
    assert record["format"] == "jackpot-record/3" and record["server_seed"]
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


def daily_entry(published: bool, keep: int | None = None) -> dict[str, Any]:
    """The lowest bot's play of the Classic deal of 2026-12-06, as a person's entry;
    ``keep`` cuts it short (an entry still being played, its day not over)."""
    seed = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
    client = daily_client_seed("2026-12-06", "classic")
    match, events = play_bots(
        Match.new_daily(Variant.CLASSIC),
        [Strength.LOWEST],
        lambda n, count: throw_dice(seed, client, n, count),
    )
    log: list[RecordEvent] = []
    append_events(log, events)
    return Record(
        id="m_daily_page",
        variant=Variant.CLASSIC,
        deadline_seconds=None,
        created="2026-12-06T09:00:00Z",
        seats=(SeatEntry("ana"),),
        commitment=commitment(seed),
        server_seed=seed if published else None,
        client_seed=client,
        events=tuple(log[:keep]),
        result=match.result if keep is None else None,
        joined=(0,),
        rules=RULES,
        daily=DailyDeal("2026-12-06"),
    ).to_dict()


def test_a_daily_entry_is_shown_against_par_and_one_still_played_waits(
    page: Page, live_server
) -> None:  # type: ignore[no-untyped-def]
    entry = daily_entry(published=True)
    par = daily_par(entry["server_seed"], "2026-12-06", "classic").result
    page.goto(live_server.url + "/verify")
    page.fill("#record-text", json.dumps(entry))
    page.click("#verify-button")
    expect(page.locator("#verify-summary")).to_contain_text(
        "✓ Verified: the Classic deal of 2026-12-06", timeout=30000
    )
    expect(page.locator("#verify-daily")).to_be_visible()
    cells = page.locator("#verify-entry-row td")
    expect(cells).to_have_count(12)
    scores = entry["result"]["turn_scores"]
    totals = [str(entry["result"]["jackpots"]), str(entry["result"]["total"])]
    assert cells.all_inner_texts() == [*map(str, scores), *totals]
    par_cells = page.locator("#verify-par-row td")
    par_totals = [str(par.jackpots), str(par.total)]
    assert par_cells.all_inner_texts() == [*map(str, par.turn_scores), *par_totals]
    standing = re.compile(r"^This entry is (better than|level with|worse than) par \(")
    expect(page.locator("#verify-versus")).to_have_text(standing)
    expect(page.locator("#verify-problem")).to_be_hidden()
    serious = [v for v in axe_violations(page) if v["impact"] in ("serious", "critical")]
    assert not serious, describe(serious)

    playing = daily_entry(published=False, keep=20)
    page.fill("#record-text", json.dumps(playing))
    page.click("#verify-button")
    summary = page.locator("#verify-summary")
    waits = "… Not verifiable yet: The server seed is not published yet"
    expect(summary).to_contain_text(waits, timeout=30000)
    expect(page.locator("#verify-problem")).to_be_hidden()
    expect(page.locator("#verify-outcome")).not_to_have_class(re.compile(r"\bbad\b"))
    expect(page.locator("#verify-checks li")).not_to_have_count(0)
    expect(page.locator("#verify-par-row")).to_be_hidden()
    expect(page.locator("#verify-versus")).to_have_text(
        "Par is known once the day's seed is published."
    )
    assert page.locator("#verify-entry-row td").last.inner_text() == "–"

    tampered = copy.deepcopy(entry)
    tampered["result"]["total"] += 1
    page.fill("#record-text", json.dumps(tampered))
    page.click("#verify-button")
    expect(page.locator("#verify-summary")).to_have_text("✗ Not verified.", timeout=30000)
    expect(page.locator("#verify-problem-text")).to_contain_text("the total")
    expect(page.locator("#verify-daily")).to_be_hidden()


def test_a_v4_record_verifies_and_its_notes_are_shown(
    page: Page, live_server
) -> None:  # type: ignore[no-untyped-def]
    """A record whose seed is made of parts, with a spare used, verifies in the browser;
    its origin and a client seed the server made are said after the checks, as notes."""
    doc = (Path(__file__).parents[2] / "docs" / "fair-play.md").read_text(encoding="utf-8")
    block = doc.split("### A whole record with parts and spares", 1)[1]
    record = json.loads(block.split("```json\n", 1)[1].split("```", 1)[0])
    record["seats"][1]["seed_by"] = "server"
    page.goto(live_server.url + "/verify")
    page.fill("#record-text", json.dumps(record))
    page.click("#verify-button")
    expect(page.locator("#verify-summary")).to_contain_text("✓", timeout=30000)
    checks = page.locator("#verify-checks li.check:not(.note)")
    expect(checks.filter(has_text="The server seed is made of 2 parts")).to_have_count(1)
    expect(checks.filter(has_text="Each player had 1 spare deadline")).to_have_count(1)
    notes = page.locator("#verify-checks li.note")
    expect(notes).to_have_text(
        [
            "ℹ The record says this was a challenge (c_3f2a); that changes nothing checked here.",
            "ℹ ana sent no client seed, so the server made one: that piece gave ana no say in "
            "the dice.",
        ]
    )
    serious = [v for v in axe_violations(page) if v["impact"] in ("serious", "critical")]
    assert not serious, describe(serious)
