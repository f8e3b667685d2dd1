"""The chance to win the match in Chromium: the live odds panel of a bot match, and the
replay of a match against a bot measuring what each choice gave away in winning chance."""

from __future__ import annotations

import json
from typing import Any

from browser_helpers import NEXT_ACTION, play_the_bot
from playwright.sync_api import Page, expect


def test_the_live_odds_show_the_chance_to_win_a_bot_match(page: Page, live_server: Any) -> None:
    url = live_server.url
    mid = play_the_bot(page, url)
    box = page.locator("#show-odds")
    box.check()
    live = page.locator("#odds-live")
    # Before the throw: the chance to win the match from here, beside the chance to shut.
    before = page.request.get(f"{url}/api/matches/{mid}/odds").json()
    assert before["measure"] == "match" and before["p_win"] is not None
    expect(live).to_contain_text("Chance to win the match from here")
    expect(live.locator(".match-chance")).to_contain_text(before["p_win_text"])
    expect(live.locator(".match-chance")).to_have_attribute("title", f"exactly {before['p_win']}")

    # After throws that offer a choice, every cover has its chance to win as a column.
    for _ in range(40):
        action = page.wait_for_function(NEXT_ACTION).json_value()
        assert action != "over", "the match ended before a throw offered a choice"
        if action == "throw":
            page.click("#throw")
            continue
        if page.locator(".tile.offered").count() > 1:
            break
        page.locator(".tile.offered").first.click()
    odds = page.request.get(f"{url}/api/matches/{mid}/odds").json()
    assert len(odds["options"]) > 1
    heads = live.locator("table.odds thead th")
    expect(heads).to_have_text(
        [
            "Cover",
            "Chance of shutting the box this turn",
            "Chance to win the match",
            "Chance of a draw",
        ]
    )
    rows = live.locator("table.odds tbody tr")
    expect(rows).to_have_count(len(odds["options"]))
    for i, o in enumerate(odds["options"]):
        cells = rows.nth(i).locator("td")
        expect(cells.nth(2)).to_have_text(o["p_win_text"])
        expect(cells.nth(2)).to_have_attribute("title", f"exactly {o['p_win']}")
        expect(cells.nth(3)).to_have_text(o["p_draw_text"])
    expect(live.locator("tr.best")).to_have_count(1)


def bot_match_with_a_costly_choice(page: Page, url: str) -> tuple[str, dict[str, Any]]:
    """A Classic match against the bot played through the API, covering the first option
    on offer each time, until one of the person's choices gave winning chance away."""
    for _ in range(20):
        resp = page.request.post(
            url + "/api/matches", data={"variant": "classic", "seats": 2, "bots": 1}
        )
        assert resp.status == 201, resp.text()
        state = resp.json()
        mid = state["id"]
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
        page.goto(f"{url}/matches/{mid}/replay")
        data = json.loads(page.locator("#replay-data").text_content() or "{}")
        # One of the person's own choices, so that the review names them ("You ..."):
        # the bot's costly choices do not count here.
        me = next(i for i, s in enumerate(state["seats"]) if s.get("you"))
        costly = [
            i
            for i, s in enumerate(data["steps"])
            if s["seat"] == me and s["cover"] and (s["given_away"] or 0) > 0
        ]
        if costly:
            return mid, {"data": data, "step": costly[0]}
    raise AssertionError("twenty matches without a costly choice")


def test_the_replay_measures_given_away_in_winning_chance(page: Page, live_server: Any) -> None:
    url = live_server.url
    page.goto(url + "/")
    _mid, found = bot_match_with_a_costly_choice(page, url)
    data, k = found["data"], found["step"]
    assert data["measure"] == "match"
    step = data["steps"][k]
    page.keyboard.press("Home")
    for _ in range(k):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#where")).to_have_text(f"Step {k + 1} of {len(data['steps'])}")
    expect(page.locator("#odds thead th")).to_have_text(
        [
            "Cover",
            "Chance of shutting the box this turn",
            "Chance to win the match",
            "Chance of a draw",
            "Winning chance, a draw as a share",
            "Expected score",
            "Chosen or best",
        ]
    )
    rows = page.locator("#odds tbody tr")
    expect(rows).to_have_count(len(step["options"]))
    for i, o in enumerate(step["options"]):
        expect(rows.nth(i).locator("td").nth(2)).to_have_text(o["p_win_text"])
        # What "given away" is measured in, so the sentence's figures stand in the table.
        expect(rows.nth(i).locator("td").nth(4)).to_have_text(o["equity_text"])
    chosen = next(o for o in step["options"] if o["tiles"] == step["cover"])
    best = next(o for o in step["options"] if o["tiles"] == step["best"])
    expect(page.locator("#gave-away")).to_have_text(
        f"Gave away {step['given_away_text']} of winning chance: this cover kept "
        f"{chosen['equity_text']}, the best ({' + '.join(map(str, step['best']))}) kept "
        f"{best['equity_text']}."
    )
    # The review says it for the whole match, the reader's own seat first.
    expect(page.locator("#skill-sentence")).to_contain_text("You gave away")
    expect(page.locator("#skill-sentence")).to_contain_text("points of winning chance over")
