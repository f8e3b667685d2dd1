"""The analysis board in Chromium: a replay's position opened on it by keyboard, its
odds read, the position changed by keyboard with the new odds said in the live region,
a refused field marked, and axe-core finding nothing of any impact."""

from __future__ import annotations

import json
import re
from typing import Any

from a11y import axe_violations, describe
from playwright.sync_api import Page, expect


def finished_bot_match(page: Page, url: str) -> str:
    """A guest's Classic match against the bot, played through the API to its end."""
    body = {"variant": "classic", "seats": 2, "bots": 1}
    resp = page.request.post(url + "/api/matches", data=body)
    assert resp.status == 201, resp.text()
    state: dict[str, Any] = resp.json()
    mid = str(state["id"])
    while state["status"] != "finished":
        turn = state["turn"]
        if turn["dice"] is None:
            resp = page.request.post(f"{url}/api/matches/{mid}/throw", data={})
        else:
            resp = page.request.post(
                f"{url}/api/matches/{mid}/cover", data={"tiles": turn["options"][0]}
            )
        assert resp.status == 200, resp.text()
        state = resp.json()
    return mid


def tab_to(page: Page, element_id: str) -> None:
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement && document.activeElement.id") == element_id:
            return
    raise AssertionError(f"#{element_id} was not reached by Tab")


def assert_no_axe_violation(page: Page, where: str) -> None:
    found = axe_violations(page)
    assert not found, f"axe-core on {where} ({page.url}):\n{describe(found)}"


def test_a_replay_position_opens_on_the_board_by_keyboard(page: Page, live_server: Any) -> None:
    url = live_server.url
    page.goto(url + "/")
    mid = finished_bot_match(page, url)
    page.goto(f"{url}/matches/{mid}/replay")
    steps = json.loads(page.locator("#replay-data").text_content() or "{}")["steps"]
    k = next(i for i, s in enumerate(steps) if s["kind"] == "throw" and len(s["options"]) > 1)
    step = steps[k]
    # Step there with the arrow keys, then Tab to the link and follow it with Enter.
    page.keyboard.press("Home")
    for _ in range(k):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#where")).to_have_text(f"Step {k + 1} of {len(steps)}")
    link = page.locator("#board-link")
    expect(link).to_have_attribute("href", step["board"])
    tab_to(page, "board-link")
    expect(link).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/analysis\?variant=classic&open="))
    expect(page.locator("h1")).to_have_text("Analysis board")

    # The board reads the position back: the throw's dice and the open tiles.
    for t in range(1, 10):
        box = page.locator(f"input[name='open'][value='{t}']")
        if t in step["open_before"]:
            expect(box).to_be_checked()
        else:
            expect(box).not_to_be_checked()
    dice = page.locator("select[name='dice']")
    expect(dice.nth(0)).to_have_value(str(step["dice"][0]))
    expect(dice.nth(1)).to_have_value(str(step["dice"][1]))

    # Every option of the replay's step, with the replay's own numbers, best first.
    rows = page.locator("#board-odds tbody tr")
    expect(rows).to_have_count(len(step["options"]))
    expect(rows.first.locator("th")).to_contain_text(" + ".join(map(str, step["best"])))
    expect(rows.first.locator("th")).to_contain_text("best")
    shown = {}
    for i in range(len(step["options"])):
        cells = rows.nth(i).locator("td")
        choice = rows.nth(i).locator("th").inner_text().replace("best", "").strip()
        shown[choice] = [cells.nth(c).inner_text().strip() for c in range(4)]
    replayed = {
        " + ".join(map(str, o["tiles"])): [o["p_text"], o["p_win_text"], o["p_draw_text"],
                                           o["equity_text"]]
        for o in step["options"]
    }
    assert shown == replayed
    # The exact fractions are there for the asking.
    exact = rows.first.locator(".exact").first
    expect(exact).to_be_hidden()
    page.check("#show-exact")
    expect(exact).to_be_visible()
    expect(exact).to_have_text(re.compile(r"^(0|1|\d+/\d+)$"))
    assert_no_axe_violation(page, "the board from a replay step")

    # Change the position by keyboard: cover the first open tile with Space. The odds
    # come back without a reload and the live region says the best choice.
    said = page.locator("#board-said")
    first_open = min(step["open_before"])
    page.focus(f"input[name='open'][value='{first_open}']")
    page.keyboard.press("Space")
    expect(page).not_to_have_url(re.compile(rf"open={first_open}(,|&|$)"))
    expect(said).to_contain_text(re.compile(r"Best: |The throw reaches nothing|Chance of"))
    board = page.locator("#board-result").get_attribute("data-board") or ""
    answer = page.request.get(url + "/api" + board).json()
    expect(page.locator("#board-summary")).to_be_visible()
    if answer["options"]:
        expect(rows).to_have_count(len(answer["options"]))
        expect(rows.first.locator("td").first).to_contain_text(answer["options"][0]["p_text"])

    # Only the first die with 7, 8 or 9 open: refused, said, and the dice marked.
    nine = page.locator("input[name='open'][value='9']")
    if not nine.is_checked():
        nine.focus()
        page.keyboard.press("Space")
        expect(page).to_have_url(re.compile(r"open=[\d,]*9"))
    dice.nth(1).focus()
    page.keyboard.press("Home")
    expect(said).to_contain_text("one die may be thrown only once 7, 8 and 9")
    expect(page.locator("#board-error")).to_contain_text("Dice")
    expect(dice.nth(1)).to_have_attribute("aria-invalid", "true")
    assert_no_axe_violation(page, "the board with a field refused")


def test_the_board_alone_and_in_jackpot_is_axe_clean(page: Page, live_server: Any) -> None:
    url = live_server.url
    page.goto(url + "/rules")
    page.click("a[href='/analysis']")
    expect(page.locator("#board-summary")).to_contain_text("8.00%")
    assert_no_axe_violation(page, "the board's first position")
    # Jackpot fields only for Jackpot: switch to Classic and the score to beat appears.
    beat = page.locator("input[name='beat']")
    expect(beat).to_be_hidden()
    page.check("input[name='variant'][value='classic']")
    expect(beat).to_be_visible()
    expect(page.locator("select[name='seats']")).to_be_hidden()
    beat.fill("20")
    page.select_option("select[name='after']", "1")
    expect(page.locator("#board-win")).to_be_visible()
    assert_no_axe_violation(page, "Classic against a score")
