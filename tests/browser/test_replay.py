"""The replay page in Chromium: step with the buttons and the arrow keys, see the
board, the dice and the odds of every option, on a desktop and a phone."""

from __future__ import annotations

import json
import re
import secrets
from pathlib import Path
from typing import Any

from browser_helpers import NEXT_ACTION
from playwright.sync_api import Browser, Page, expect

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def finished_match(page: Page, url: str, variant: str = "classic") -> str:
    """A guest practises alone through the API (sharing the page's cookies) until
    the match is over; returns its id.

    A solo Jackpot match ends only when the box is shut. The first round covers the
    first option (a varied choice, so some steps give chance away); later rounds play
    the best option from the odds API, which shuts the box in about one round in
    twelve: playing the first option throughout, a match sometimes outlasted the
    3,000 moves allowed here."""
    resp = page.request.post(url + "/api/matches", data={"variant": variant, "seats": 1, "bots": 0})
    assert resp.status == 201, resp.text()
    state: dict[str, Any] = resp.json()
    mid = state["id"]
    for _ in range(3000):
        if state["status"] == "finished":
            return str(mid)
        turn = state["turn"]
        if turn["dice"] is None:
            resp = page.request.post(f"{url}/api/matches/{mid}/throw", data={})
        else:
            tiles = turn["options"][0]
            if state["round"] > 1:
                odds = page.request.get(f"{url}/api/matches/{mid}/odds")
                assert odds.status == 200, odds.text()
                tiles = odds.json()["best"]
            resp = page.request.post(f"{url}/api/matches/{mid}/cover", data={"tiles": tiles})
        assert resp.status == 200, resp.text()
        state = resp.json()
    raise AssertionError("the match did not end")


def replay_steps(page: Page) -> list[dict[str, Any]]:
    data = json.loads(page.locator("#replay-data").text_content() or "{}")
    return list(data["steps"])


def test_step_through_a_replay_with_buttons_and_keys(page: Page, live_server: Any) -> None:
    url = live_server.url
    page.goto(url + "/")
    mid = finished_match(page, url, "jackpot")
    page.goto(f"{url}/matches/{mid}")
    page.click("#replay-link")
    expect(page).to_have_url(re.compile(rf"/matches/{mid}/replay"))
    steps = replay_steps(page)
    n = len(steps)
    assert n >= 9  # a solo Jackpot match ends with a shut box: nine throws at least
    where = page.locator("#where")
    expect(where).to_have_text(f"Step 1 of {n}")
    expect(page.locator("#prev")).to_be_disabled()
    first = steps[0]
    expect(page.locator("#step-text")).to_contain_text(
        f"threw {first['dice'][0]} and {first['dice'][1]}"
    )
    expect(page.locator("#replay-dice .die")).to_have_count(2)

    page.keyboard.press("ArrowRight")
    expect(where).to_have_text(f"Step 2 of {n}")
    page.click("#next")
    expect(where).to_have_text(f"Step 3 of {n}")
    page.click("#prev")
    page.keyboard.press("ArrowLeft")
    expect(where).to_have_text(f"Step 1 of {n}")
    page.keyboard.press("End")
    expect(where).to_have_text(f"Step {n} of {n}")
    expect(page.locator("#next")).to_be_disabled()
    expect(page.locator("#step-text")).to_contain_text("Box shut!")
    page.keyboard.press("Home")
    expect(where).to_have_text(f"Step 1 of {n}")

    # A step with a real choice: every option listed with its chance, the best
    # marked, and the chance given away stated.
    k = next(i for i, s in enumerate(steps) if s["cover"] and len(s["options"]) > 1)
    for _ in range(k):
        page.keyboard.press("ArrowRight")
    expect(where).to_have_text(f"Step {k + 1} of {n}")
    step = steps[k]
    rows = page.locator("#odds tbody tr")
    expect(rows).to_have_count(len(step["options"]))
    expect(page.locator("#odds tbody tr.chosen")).to_have_count(1)
    expect(page.locator("#odds tbody tr.best")).to_have_count(1)
    for i, o in enumerate(step["options"]):
        expect(rows.nth(i)).to_contain_text(o["p_text"])
    gave = page.locator("#gave-away")
    if step["given_away"] == 0:
        expect(gave).to_contain_text("gave away nothing")
    else:
        expect(gave).to_contain_text(f"Gave away {step['given_away_text']} of chance")
    # The board after the choice: tiles covered before this throw and by it are
    # shown down, the choice marked.
    covered = {t for t in range(1, 10) if t not in step["open_before"]} | set(step["cover"])
    for t in range(1, 10):
        tile = page.locator(f"#replay-tiles .tile[data-tile='{t}']")
        if t in covered:
            expect(tile).to_have_class(re.compile(r"\bcovered\b"))
        else:
            expect(tile).not_to_have_class(re.compile(r"\bcovered\b"))
    for t in step["cover"]:
        expect(page.locator(f"#replay-tiles .tile[data-tile='{t}']")).to_have_class(
            re.compile(r"\bchosen\b")
        )
    # The link to a step survives a reload.
    page.reload()
    expect(where).to_have_text(f"Step {k + 1} of {n}")
    # The options' headers wrap only when the table has used the width beside it.
    wrapped, table, room = page.evaluate(
        """() => {
          const t = document.querySelector('#odds');
          const line = parseFloat(getComputedStyle(t.querySelector('th')).lineHeight) || 20;
          const tall = [...t.querySelectorAll('thead th')].some(
            (th) => th.getBoundingClientRect().height > 2.2 * line);
          return [tall, t.getBoundingClientRect().width,
                  document.querySelector('#odds-box').getBoundingClientRect().width];
        }"""
    )
    assert not wrapped or table >= room - 2, (wrapped, table, room)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(
        path=str(SCREENSHOTS / "replay-desktop.png"), full_page=True, animations="disabled"
    )


def test_replay_fits_a_phone(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    ctx = browser.new_context(viewport={"width": 375, "height": 740}, device_scale_factor=2)
    page = ctx.new_page()
    page.goto(url + "/")
    mid = finished_match(page, url)
    page.goto(f"{url}/matches/{mid}/replay")
    expect(page.locator("#where")).to_contain_text("Step 1 of")
    expect(page.locator("svg.chart")).to_be_visible()
    expect(page.locator(".keys-hint")).to_be_visible()  # this phone has no touch screen
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the phone"
    page.screenshot(
        path=str(SCREENSHOTS / "replay-phone.png"), full_page=True, animations="disabled"
    )
    ctx.close()


def api_sign_up(page: Page, url: str, name: str) -> None:
    resp = page.request.post(
        url + "/api/account",
        data={"email": f"{name.lower()}@example.org", "password": "correct horse", "name": name},
    )
    assert resp.status == 201, resp.text()


def people_match(pages: list[Page], url: str) -> str:
    """The people behind ``pages`` play one Jackpot match through the API (everyone
    throws in its first round, so it is always rated)."""
    resp = pages[0].request.post(
        url + "/api/matches", data={"variant": "jackpot", "seats": len(pages), "bots": 0}
    )
    assert resp.status == 201, resp.text()
    mid = resp.json()["id"]
    for p in pages[1:]:
        resp = p.request.post(f"{url}/api/matches/{mid}/join", data={})
        assert resp.status == 200, resp.text()
    state = resp.json()
    # The order of play is drawn from the seed: each page's seat is where it is "you".
    by_seat = {}
    for p in pages:
        seats = p.request.get(f"{url}/api/matches/{mid}").json()["seats"]
        by_seat[next(i for i, s in enumerate(seats) if s["you"])] = p
    while state["status"] != "finished":
        turn = state["turn"]
        req = by_seat[turn["seat"]].request
        if turn["dice"] is None:
            resp = req.post(f"{url}/api/matches/{mid}/throw", data={})
        else:
            resp = req.post(f"{url}/api/matches/{mid}/cover", data={"tiles": turn["options"][-1]})
        assert resp.status == 200, resp.text()
        state = resp.json()
    return str(mid)


def test_profile_history_and_leaderboard_as_a_player(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    tag = secrets.token_hex(2)
    ana_name, ben_name = f"Ana{tag}", f"Ben{tag}"
    ana_ctx, ben_ctx = browser.new_context(), browser.new_context()
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    api_sign_up(ana, url, ana_name)
    api_sign_up(ben, url, ben_name)
    mids = [people_match([ana, ben], url) for _ in range(2)]

    # Before opting in, Ana's profile is hers alone.
    ben.goto(f"{url}/players/{ana_name}")
    expect(ben.locator("h1")).not_to_have_text(ana_name)
    ana.goto(url + "/account")
    ana.check("input[name=leaderboard]")
    ana.locator("form:has(input[name=leaderboard]) button[type=submit]").click()
    expect(ana.locator(".notice")).to_contain_text("appear on the leaderboard")
    ana.click("text=Your profile and match history")
    expect(ana.locator("h1")).to_have_text(ana_name)
    card = ana.locator("#variant-jackpot")
    # Two rated matches: the rating is shown, marked provisional, with its chart.
    expect(card.locator(".rating-value")).to_contain_text("?")
    expect(card.locator("svg.chart")).to_be_visible()
    expect(card.locator("dl.figures")).to_contain_text("Best play")
    card.locator("summary", has_text="The ratings as a table").click()
    expect(card.locator("details table tbody tr")).to_have_count(2)
    expect(ana.locator(".history-table tbody tr")).to_have_count(2)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    ana.screenshot(
        path=str(SCREENSHOTS / "profile-desktop.png"), full_page=True, animations="disabled"
    )

    # Ben now sees it too; the history filters; a replay is one click away.
    ben.goto(f"{url}/players/{ana_name}")
    expect(ben.locator("h1")).to_have_text(ana_name)
    ben.click("text=Every finished match")
    ben.select_option("select[name=variant]", "jackpot")
    ben.click(".filters button")
    expect(ben).to_have_url(re.compile(r"variant=jackpot"))
    expect(ben.locator(".history-table tbody tr")).to_have_count(2)
    ben.select_option("select[name=variant]", "classic")
    ben.click(".filters button")
    expect(ben.locator(".empty")).to_contain_text("No finished matches")
    ben.goto(f"{url}/players/{ana_name}/history")
    ben.locator(".history-table a", has_text="Replay").first.click()
    expect(ben).to_have_url(re.compile(rf"/matches/({mids[0]}|{mids[1]})/replay"))
    expect(ben.locator("#where")).to_contain_text("Step 1 of")

    # Provisional ratings stay off the leaderboard, opted in or not.
    ana.goto(url + "/leaderboard?variant=jackpot")
    expect(ana.locator("main")).not_to_contain_text(ana_name)
    ana_ctx.close()
    ben_ctx.close()


def test_show_odds_switch_in_practice(page: Page, live_server: Any) -> None:
    url = live_server.url
    page.goto(url + "/")
    resp = page.request.post(
        url + "/api/matches", data={"variant": "jackpot", "seats": 1, "bots": 0}
    )
    assert resp.status == 201, resp.text()
    page.goto(f"{url}/matches/{resp.json()['id']}")
    box = page.locator("#show-odds")
    expect(box).not_to_be_checked()
    box.check()
    expect(page.locator("#odds-live")).to_contain_text("8.00%")
    page.click("#throw")
    expect(page.locator(".die")).to_have_count(2)
    offered = page.locator(".tile.offered").count()
    if offered:
        expect(page.locator("#odds-live table.odds tbody tr")).to_have_count(offered)
        expect(page.locator("#odds-live tr.best")).to_have_count(1)
    # The choice is remembered for the next page.
    page.reload()
    expect(page.locator("#show-odds")).to_be_checked()


def test_the_replay_is_offered_when_a_match_ends_on_the_page(page: Page, live_server: Any) -> None:
    url = live_server.url
    page.goto(url + "/")
    resp = page.request.post(
        url + "/api/matches", data={"variant": "classic", "seats": 1, "bots": 0}
    )
    assert resp.status == 201, resp.text()
    page.goto(f"{url}/matches/{resp.json()['id']}")
    offer = page.locator("#replay-offer")
    expect(offer).to_be_hidden()
    # One Classic turn, played by clicking: Throw, then the first set on offer.
    for _ in range(40):
        action = page.wait_for_function(NEXT_ACTION).json_value()
        if action == "over":
            break
        if action == "throw":
            page.click("#throw")
        elif page.locator(".option").count():
            page.locator(".option").first.click()
        page.wait_for_timeout(50)
    expect(offer).to_be_visible()
    offer.click()
    expect(page.locator("#where")).to_contain_text("Step 1 of")


def test_a_touch_screen_is_not_told_about_keys(browser: Browser, live_server: Any) -> None:
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = ctx.new_page()
    page.goto(live_server.url + "/")
    mid = finished_match(page, live_server.url)
    page.goto(f"{live_server.url}/matches/{mid}/replay")
    expect(page.locator("#where")).to_contain_text("Step 1 of")
    expect(page.locator(".keys-hint")).to_have_count(1)
    expect(page.locator(".keys-hint")).to_be_hidden()
    ctx.close()
