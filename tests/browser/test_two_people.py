"""Two signed-up people play a match to the end in two browser contexts, each
seeing the other's throws appear without reloading."""

from __future__ import annotations

import contextlib
import re
import secrets
import time

import pytest
from browser_helpers import NEXT_ACTION
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout


def sign_up(page: Page, url: str, name: str, autoplay: bool = False) -> None:
    """Sign up through the form; autoplay of forced moves off unless asked for (these
    tests press every move; test_autoplay_page.py shows it)."""
    page.goto(url + "/signup")
    page.fill("input[name=email]", f"{name.lower()}@example.org")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", "correct horse battery")
    page.click("main button[type=submit]")
    # Hashing the password runs on a small thread pool: on a busy machine the first
    # sign-up of a run has taken over 5 s (a fresh-clone CI run), Playwright's default.
    expect(page.locator("header .who")).to_contain_text(name, timeout=20_000)
    if not autoplay:
        r = page.request.put(
            url + "/api/account/autoplay", data={"throws": False, "single_covers": False}
        )
        assert r.ok, r.text()


@pytest.mark.pg
def test_two_people_play_to_the_end(browser: Browser, live_server) -> None:  # type: ignore[no-untyped-def]
    url = live_server.url
    tag = secrets.token_hex(2)
    # Each page shows the other's moves at once (no pacing): the loop below then waits
    # on the server, not on the pages' animation.
    ana_ctx = browser.new_context(reduced_motion="reduce")
    ben_ctx = browser.new_context(reduced_motion="reduce")
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    sign_up(ana, url, f"Ana{tag}")
    sign_up(ben, url, f"Ben{tag}")

    # Ana creates a Classic match (one round: a short game) for two people.
    ana.goto(url + "/matches/new")
    ana.check("input[name=variant][value=classic]")
    ana.select_option("select[name=seats]", "2")
    ana.select_option("select[name=bots]", "0")
    ana.click("#create")
    expect(ana).to_have_url(re.compile(r"/matches/m_[0-9a-f]+$"))
    expect(ana.locator("#status")).to_contain_text("Waiting for 1 more player")
    match_url = ana.url

    # Ben is on the leaderboard, so his name links to his profile once he sits down.
    ben.goto(url + "/account")
    ben.check("input[name=leaderboard]")
    ben.locator("form:has(input[name=leaderboard]) button[type=submit]").click()
    # No rated match yet: the page says when he will be listed, not that he is.
    expect(ben.locator("main")).to_contain_text("You will appear on the leaderboard once")

    # Ben finds it in the lobby and joins; Ana's page starts without reload.
    ben.goto(url + "/lobby")
    ben.locator(f"a[href='{match_url[len(url) :]}']").click()
    ben.click("#join")
    expect(ben.locator("#seats li")).to_have_count(2)
    # The order of play is drawn from the seed as the last seat is taken.
    mid = match_url.rsplit("/", 1)[1]
    seats = ana.request.get(f"{url}/api/matches/{mid}").json()["seats"]
    ana_first = seats[0]["you"]
    first, second = (ana, ben) if ana_first else (ben, ana)
    first_name = f"Ana{tag}" if ana_first else f"Ben{tag}"
    expect(first.locator("#status")).to_contain_text("Your throw")
    expect(second.locator("#status")).to_contain_text(f"{first_name} to throw")
    # Ana sees Ben's name become a link as he joins, as a fresh load would show it.
    expect(ana.locator("#seats a")).to_have_count(2)
    live_links = ana.locator("#seats a").evaluate_all("as => as.map(a => a.href)")
    ana.reload()
    expect(ana.locator("#seats a")).to_have_count(2)
    assert ana.locator("#seats a").evaluate_all("as => as.map(a => a.href)") == live_links
    links = [f"{url}/players/Ana{tag}", f"{url}/players/Ben{tag}"]
    assert live_links == (links if ana_first else links[::-1])

    # The first throw shows up on the other page by itself.
    first.click("#throw")
    expect(second.locator("#log li").first).to_contain_text(f"{first_name} threw")

    pages = {"ana": ana, "ben": ben}
    finished = False
    give_up = time.monotonic() + 120
    while time.monotonic() < give_up:
        for page in pages.values():
            action = page.evaluate(NEXT_ACTION)
            if action == "over":
                finished = True
                break
            if action in ("throw", "cover"):
                # Classic lists each set on offer as a button; a click covers it.
                if action == "throw":
                    target = page.locator("#throw")
                elif page.locator(".option").count():
                    target = page.locator(".option").first
                else:
                    target = page.locator(".tile.offered:not(:disabled)").first
                with contextlib.suppress(PlaywrightTimeout):
                    target.click(timeout=2000)
        if finished:
            break
        ana.wait_for_timeout(50)
    where = {n: (p.evaluate(NEXT_ACTION), p.locator("#status").inner_text())
             for n, p in pages.items()}
    assert finished, f"the match did not end: {where}"
    # Both pages show the result and the published seed without a reload.
    for page in (ana, ben):
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#server-seed")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
    assert ana.locator("#server-seed").inner_text() == ben.locator("#server-seed").inner_text()
    # The second saw the first's throws in the log without reloading.
    assert second.locator("#log li", has_text=f"{first_name} threw").count() >= 1
    ana_ctx.close()
    ben_ctx.close()


def test_new_match_form_offers_only_bots_the_seats_allow(page: Page, live_server) -> None:  # type: ignore[no-untyped-def]
    sign_up(page, live_server.url, f"Form{secrets.token_hex(2)}")
    page.goto(live_server.url + "/matches/new")
    bots = page.locator("select[name=bots]")
    disabled = (
        "[...document.querySelectorAll('select[name=bots] option')]"
        ".filter(o => o.disabled).map(o => o.value)"
    )
    assert page.evaluate(disabled) == ["2", "3"]  # two seats: at most one bot
    page.select_option("select[name=seats]", "4")
    bots.select_option("3")
    assert page.evaluate(disabled) == []
    page.select_option("select[name=seats]", "3")
    expect(bots).to_have_value("2")
    assert page.evaluate(disabled) == ["3"]
