"""Each person's client seed is made in their own browser, after the commitment is shown."""

from __future__ import annotations

import json
import re
import urllib.request

from browser_helpers import play_the_bot
from playwright.sync_api import Page, expect

SEED_FIELD = re.compile(r"<input[^>]*name=\"client_seed\"[^>]*>")


def test_the_home_page_html_proposes_no_seed(page: Page, live_server) -> None:  # type: ignore[no-untyped-def]
    with urllib.request.urlopen(live_server.url + "/", timeout=30) as resp:
        html = resp.read().decode()
    fields = SEED_FIELD.findall(html)
    assert len(fields) == 4  # the typed seed and the three copies the other buttons send
    for field in fields:
        assert re.search(r'value=""', field), f"the server proposed a seed: {field}"
    # In the browser the field is filled only once the commitment is on screen.
    page.goto(live_server.url + "/")
    note = page.locator("[data-commitment-note]")
    expect(note).to_contain_text("already fixed")
    seed = page.locator("#client-seed-input")
    expect(seed).to_have_value(re.compile(r"^[0-9a-f]{16}$"))
    # Another visit, another seed: made here, not handed out.
    first = seed.input_value()
    page.reload()
    expect(seed).to_have_value(re.compile(r"^[0-9a-f]{16}$"))
    assert seed.input_value() != first


def test_the_record_says_whose_seed_is_whose(page: Page, live_server) -> None:  # type: ignore[no-untyped-def]
    match_id = play_the_bot(page, live_server.url)
    record = json.loads(page.request.get(f"{live_server.url}/api/matches/{match_id}/record").text())
    person = next(s for s in record["seats"] if s["bot"] is None)
    assert "seed_by" not in person
    expect(page.locator("#seed-makers")).to_contain_text("from you, who sent it")
    expect(page.locator("#commitment-check")).to_have_text(
        "✓ The same one you were shown before you chose your client seed."
    )
    # A person who sends none (the field emptied) is told the server made theirs.
    page.goto(live_server.url + "/")
    expect(page.locator("[data-commitment-note]")).to_contain_text("already fixed")
    page.locator(".seed-choice summary").click()
    page.locator("#client-seed-input").fill("")
    page.locator("#play-bot").click()
    page.wait_for_url(re.compile(r"/matches/m_[0-9a-f]+$"))
    expect(page.locator("#seed-makers")).to_contain_text(
        "You sent no client seed, so the server made your piece"
    )
    expect(page.locator("#commitment-check")).to_have_text(
        "✓ The same one you were shown before the match was made."
    )
    match_id = page.url.rsplit("/", 1)[1]
    record = json.loads(page.request.get(f"{live_server.url}/api/matches/{match_id}/record").text())
    person = next(s for s in record["seats"] if s["bot"] is None)
    assert person["seed_by"] == "server"
