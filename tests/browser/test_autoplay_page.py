"""Two people play Classic (one round) with autoplay of forced moves on (the default
between people with a day a throw): each throws only when one die or two is theirs to
choose, covers only where two options or more are on offer, and the log says what was
done for them. The switch on the match page turns it off for that match."""

from __future__ import annotations

import contextlib
import re
import secrets

from browser_helpers import NEXT_ACTION
from playwright.sync_api import Browser, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from test_two_people import sign_up


def test_two_people_are_asked_only_for_real_choices(browser: Browser, live_server) -> None:  # type: ignore[no-untyped-def]
    url = live_server.url
    tag = secrets.token_hex(2)
    ana_ctx, ben_ctx = browser.new_context(), browser.new_context()
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    sign_up(ana, url, f"Ana{tag}", autoplay=True)
    sign_up(ben, url, f"Ben{tag}", autoplay=True)
    r = ana.request.post(
        url + "/api/matches",
        data={"variant": "classic", "seats": 2, "bots": 0, "deadline_seconds": 86400},
    )
    assert r.ok, r.text()
    mid = r.json()["id"]
    ana.goto(f"{url}/matches/{mid}")
    ben.goto(f"{url}/matches/{mid}")
    ben.click("#join")
    for page in (ana, ben):
        expect(page.locator("#autoplay-box")).to_be_visible()
        expect(page.locator("#autoplay-throws")).to_be_checked()
        expect(page.locator("#autoplay-covers")).to_be_checked()

    pages = [ana, ben]
    finished = False
    for _ in range(400):
        for page in pages:
            action = page.evaluate(NEXT_ACTION)
            if action == "over":
                finished = True
                break
            if action == "throw":
                state = page.request.get(f"{url}/api/matches/{mid}").json()
                assert state["turn"]["one_die"], "a throw with no choice is autoplay's"
                with contextlib.suppress(PlaywrightTimeout):
                    page.locator("#throw").click(timeout=2000)
            if action == "cover":
                state = page.request.get(f"{url}/api/matches/{mid}").json()
                if state["turn"] is None or state["turn"]["dice"] is None:
                    continue
                assert len(state["turn"]["options"]) >= 2, "one option is autoplay's to cover"
                # Classic lists each set on offer as a button; a click covers it.
                with contextlib.suppress(PlaywrightTimeout):
                    page.locator(".option").first.click(timeout=2000)
        if finished:
            break
        ana.wait_for_timeout(50)
    assert finished, "the match did not end"
    # The log says what autoplay did for its reader (Classic's first throw is always
    # two dice: the first to play had theirs made for them; the other's log does not
    # say it of them).
    first = ana if ana.request.get(f"{url}/api/matches/{mid}").json()["seats"][0]["you"] else ben
    for page in pages:  # the other page may still be showing the last moves
        expect(page.locator("#result")).to_be_visible(timeout=20000)
    expect(first.locator("#log")).to_contain_text("thrown for you")
    ana_ctx.close()
    ben_ctx.close()


def test_the_match_switch_turns_it_off_for_this_match(browser: Browser, live_server) -> None:  # type: ignore[no-untyped-def]
    url = live_server.url
    tag = secrets.token_hex(2)
    ana_ctx, ben_ctx = browser.new_context(), browser.new_context()
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    sign_up(ana, url, f"Ana{tag}", autoplay=True)
    sign_up(ben, url, f"Ben{tag}", autoplay=True)
    mid = ana.request.post(
        url + "/api/matches", data={"seats": 2, "bots": 0, "deadline_seconds": 86400}
    ).json()["id"]
    ben.request.post(f"{url}/api/matches/{mid}/join", data={})
    ana.goto(f"{url}/matches/{mid}")
    expect(ana.locator("#autoplay-throws")).to_be_checked()
    ana.locator("#autoplay-throws").uncheck()
    ana.locator("#autoplay-covers").uncheck()
    seats = ana.request.get(f"{url}/api/matches/{mid}").json()["seats"]
    mine = next(s for s in seats if s["you"])
    for _ in range(50):
        if mine["autoplay"] == {"throws": False, "single_covers": False}:
            break
        ana.wait_for_timeout(100)
        seats = ana.request.get(f"{url}/api/matches/{mid}").json()["seats"]
        mine = next(s for s in seats if s["you"])
    assert mine["autoplay"] == {"throws": False, "single_covers": False}
    # A reload shows the switch as the match has it; Ben's stays on.
    ana.reload()
    expect(ana.locator("#autoplay-throws")).not_to_be_checked()
    ben.goto(f"{url}/matches/{mid}")
    expect(ben.locator("#autoplay-throws")).to_be_checked()
    expect(ana.locator("#status")).to_have_text(re.compile(r"\S"))
    ana_ctx.close()
    ben_ctx.close()
