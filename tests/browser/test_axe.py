"""axe-core on every page of the site, in the light and the dark colour scheme:
no violation of impact serious or critical anywhere (tests/browser/a11y.py)."""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from a11y import axe_violations, describe
from browser_helpers import account, confirm_address, play_the_bot, start_match
from playwright.sync_api import Browser, Page, expect


def post(page: Page, url: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
    r = page.request.post(url, data=data or {})
    assert r.status in (200, 201), r.text()
    return dict(r.json())


def play_turn_of(page: Page, url: str, mid: str) -> dict[str, Any]:
    """The seat of ``page`` throws and covers until its turn ends (highest option)."""
    state = page.request.get(f"{url}/api/matches/{mid}").json()
    me = next(i for i, s in enumerate(state["seats"]) if s["you"])
    while state["status"] == "playing" and state["turn"]["seat"] == me:
        if state["turn"]["dice"] is None:
            state = post(page, f"{url}/api/matches/{mid}/throw")
        else:
            state = post(
                page, f"{url}/api/matches/{mid}/cover", {"tiles": state["turn"]["options"][-1]}
            )
    return state


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_is_axe_clean(browser: Browser, live_server: Any, scheme: str) -> None:
    url = live_server.url
    tag = secrets.token_hex(2)
    ana_ctx = browser.new_context(color_scheme=scheme, reduced_motion="reduce")
    ben_ctx = browser.new_context(color_scheme=scheme, reduced_motion="reduce")
    guest_ctx = browser.new_context(color_scheme=scheme, reduced_motion="reduce")
    ana = account(ana_ctx, url, f"Ana{tag}")
    ben = account(ben_ctx, url, f"Ben{tag}")
    confirm_address(ana, url, live_server.var_dir / "outbox", f"Ana{tag}")
    guest = guest_ctx.new_page()
    failures: list[str] = []

    def check(page: Page, where: str, strict: bool = False) -> None:
        """``strict``: no violation of any impact (the daily pages, the API's page)."""
        found = axe_violations(page)
        bad = found if strict else [v for v in found if v["impact"] in ("serious", "critical")]
        if bad:
            failures.append(f"{where} ({page.url}):\n{describe(bad)}")

    # Pages anyone sees.
    for path in (
        "/",
        "/rules",
        "/fair-play",
        "/verify",
        "/signup",
        "/login",
        "/reset",
        "/reset/not-a-real-token",
        "/leaderboard",
        "/leaderboard?sort=skill",
    ):
        guest.goto(url + path)
        check(guest, path)
    guest.goto(url + "/api-docs")
    check(guest, "the API's documentation", strict=True)

    # The analysis board, held to no violation of any impact: alone, facing a score
    # with the one-die choice, a Jackpot round with covers, a refused field.
    for path in (
        "/analysis",
        "/analysis?variant=classic&open=1,2,3,4,5,6&beat=20&holders=1&after=1",
        "/analysis?variant=jackpot&open=1,2,4,6,8&dice=2,4&seats=3&shut=1&after=1",
        "/analysis?variant=jackpot&open=1,2&dice=3",
    ):
        guest.goto(url + path)
        found = axe_violations(guest)
        if found:
            failures.append(f"{path} ({guest.url}):\n{describe(found)}")

    # A waiting match in the lobby; the new-match form.
    waiting = post(ana, url + "/api/matches", {"seats": 2, "bots": 0})["id"]
    ana.goto(url + "/lobby")
    expect(ana.locator(f"a[href='/matches/{waiting}']")).to_be_visible()
    check(ana, "lobby")
    ana.goto(url + "/matches/new")
    check(ana, "new match")
    ana.goto(f"{url}/matches/{waiting}")
    check(ana, "a match waiting for players")

    # Two seats in progress: the guest against the bot, after a throw (tiles on offer).
    play_the_bot(guest, url)
    expect(guest.locator("#status")).to_contain_text("Your throw")
    guest.click("#throw")
    expect(guest.locator("#dice .die")).not_to_have_count(0)
    check(guest, "a 2-seat match in progress")
    # The same with its odds shown: the chance to win the match beside each choice.
    guest.check("#show-odds")
    expect(guest.locator("#odds-live .match-chance")).to_be_visible()
    check(guest, "a 2-seat match in progress with its odds shown")

    # Four seats in progress, Ana with three bots, part way through.
    four = start_match(ana, url, {"seats": 4, "bots": 3})
    play_turn_of(ana, url, four)
    ana.goto(f"{url}/matches/{four}")
    expect(ana.locator("#seats li")).to_have_count(4)
    check(ana, "a 4-seat match in progress")

    # Two people under way, a phrase said: the match page with its words and the
    # people's ratings, and the watch list that shows the match to anyone.
    people = start_match(ana, url, {"seats": 2, "bots": 0}, joiners=(ben,))
    assert ana.request.post(f"{url}/api/matches/{people}/say", data={"phrase": "good_luck"}).ok
    ben.goto(f"{url}/matches/{people}")
    expect(ben.locator("#said li")).to_have_count(1)
    check(ben, "a match between people with a phrase said")
    guest.goto(url + "/watch")
    expect(guest.locator(f"tr[data-match='{people}']")).to_be_visible()
    check(guest, "watch")
    post(ben, f"{url}/api/matches/{people}/resign")

    # Three seats, Ana out while it goes on; then Ben out too: the bot wins.
    three = start_match(ana, url, {"seats": 3, "bots": 1}, joiners=(ben,))
    play_turn_of(ana, url, three)
    post(ana, f"{url}/api/matches/{three}/resign")
    ana.goto(f"{url}/matches/{three}")
    expect(ana.locator("#seats li.out")).to_have_count(1)
    check(ana, "a 3-seat match going on with a seat out")
    post(ben, f"{url}/api/matches/{three}/resign")
    ana.goto(f"{url}/matches/{three}")
    expect(ana.locator("#result")).to_be_visible()
    check(ana, "a finished match with seats out")
    ana.goto(f"{url}/matches/{three}/replay")
    expect(ana.locator("#where")).to_contain_text(re.compile(r"Step \d+ of"))
    check(ana, "replay")
    ana.goto(f"{url}/verify?match={three}")
    expect(ana.locator("#verify-summary")).to_contain_text("✓", timeout=30000)
    check(ana, "verify with a record checked")

    # The daily deal: today's deals for a guest and for an account, an entry under
    # way, one given up (its result, place and share box), and a day's board.
    guest.goto(url + "/daily")
    check(guest, "daily deals, a guest", strict=True)
    entry = post(ana, url + "/api/daily/jackpot")["match"]
    ana.goto(f"{url}/matches/{entry}")
    expect(ana.locator("#round")).to_have_text("Turn 1 of 10")
    check(ana, "a daily entry in play", strict=True)
    given_up = post(ana, url + "/api/daily/classic")["match"]
    post(ana, f"{url}/api/matches/{given_up}/resign")
    ana.goto(f"{url}/matches/{given_up}")
    expect(ana.locator("#daily-place")).to_contain_text("Your place so far")
    check(ana, "a daily entry given up", strict=True)
    ana.goto(url + "/daily")
    expect(ana.locator("#deal-classic .daily-board")).to_contain_text(f"Ana{tag}")
    check(ana, "daily deals, entered", strict=True)
    ana.goto(url + ana.locator("#deal-jackpot a", has_text="The whole board").get_attribute("href"))
    check(ana, "a day's board", strict=True)

    # Finding people: the page for a guest, and with a seek waiting and a
    # challenge to answer.
    guest.goto(url + "/play-now")
    check(guest, "play now, a guest")
    kind = {"variant": "jackpot", "deadline_seconds": 259200, "seats": 3}
    post(ben, url + "/api/seeks", kind)
    post(ben, url + "/api/challenges", {"to": f"Ana{tag}"})
    ana.goto(url + "/play-now")
    expect(ana.locator("#incoming li")).to_have_count(1)
    expect(ana.locator("#open-seeks tbody tr")).not_to_have_count(0)
    check(ana, "play now, a seek waiting and a challenge")
    ana.request.put(f"{url}/api/blocks/Ben{tag}")
    ana.goto(url + "/account")
    expect(ana.locator("#blocks li")).to_have_count(1)
    check(ana, "account with a player blocked")

    # A player's pages.
    for path in (f"/players/Ana{tag}", f"/players/Ana{tag}/history", "/account", "/my"):
        ana.goto(url + path)
        check(ana, path)

    for ctx in (ana_ctx, ben_ctx, guest_ctx):
        ctx.close()
    assert not failures, "axe-core found serious or critical violations:\n\n" + "\n\n".join(
        failures
    )
