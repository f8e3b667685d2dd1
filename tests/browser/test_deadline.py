"""A missed throw deadline, applied by the sweeper inside `jackpot serve`, shows up
on the other player's open page without a reload."""

from __future__ import annotations

import re
import secrets

import pytest
from browser_helpers import NEXT_ACTION, account, start_match
from playwright.sync_api import Browser, expect


@pytest.mark.pg
def test_a_timeout_reaches_the_other_page_live(browser: Browser, live_server) -> None:  # type: ignore[no-untyped-def]
    url = live_server.url
    tag = secrets.token_hex(3)
    ana_ctx, ben_ctx = browser.new_context(), browser.new_context()
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    for page, name in ((ana, f"Slow{tag}"), (ben, f"Quick{tag}")):
        r = page.request.post(
            url + "/api/account",
            data={
                "email": f"{name.lower()}@example.org",
                "password": "long enough pw",
                "name": name,
            },
        )
        assert r.status == 201, r.text()
    # The test server allows deadlines down to 2 seconds.
    r = ana.request.post(url + "/api/matches", data={"seats": 2, "bots": 0, "deadline_seconds": 2})
    assert r.status == 201, r.text()
    mid = r.json()["id"]
    # Both pages are open before the start: the order of play is drawn as Ben joins,
    # and whoever throws first is the slow one, the other watches.
    ana.goto(f"{url}/matches/{mid}")
    ben.goto(f"{url}/matches/{mid}")
    ben.click("#join")
    state = ana.request.get(f"{url}/api/matches/{mid}").json()
    for _ in range(50):
        if state["status"] != "waiting":
            break
        ana.wait_for_timeout(100)
        state = ana.request.get(f"{url}/api/matches/{mid}").json()
    ana_first = state["seats"][0]["you"]
    slow_name = f"Slow{tag}" if ana_first else f"Quick{tag}"
    watcher = ben if ana_first else ana
    expect(watcher.locator("#status")).to_contain_text(f"{slow_name} to throw")
    expect(watcher.locator("#deadline")).to_contain_text("left")
    # Nobody touches anything: the sweeper puts the slow seat out, the other page says so.
    expect(watcher.locator("#result h2")).to_have_text("You win!", timeout=15000)
    expect(watcher.locator("#log")).to_contain_text(re.compile(f"{slow_name} ran out of time"))
    expect(watcher.locator("#seats li").first).to_contain_text("out: time")
    ana_ctx.close()
    ben_ctx.close()


def test_the_last_stretch_of_my_time_is_urgent_and_said_once(browser: Browser, live_server) -> None:  # type: ignore[no-untyped-def]
    """The countdown looks the same for a day and for nine seconds unless it says so:
    near the end it is bold and boxed, and the live region says once that my time is
    nearly up. The page's clock is moved on, the server's is not."""
    url = live_server.url
    ctx = browser.new_context()
    page = account(ctx, url, f"Hurry{secrets.token_hex(3)}", autoplay=False)
    try:
        mid = start_match(page, url, {"seats": 2, "bots": 1, "deadline_seconds": 600})
        page.clock.install()
        page.goto(f"{url}/matches/{mid}")
        page.wait_for_function(NEXT_ACTION, timeout=30000)
        deadline = page.locator("#deadline")
        expect(deadline).to_contain_text("You have")
        expect(deadline).not_to_have_class(re.compile("urgent"))
        assert "nearly up" not in page.locator("#announce").inner_text()
        # A fifth of ten minutes is two: with 1:50 left the line is urgent. The clock
        # started once the bot's turn had been played out, so it is read, not assumed.
        due = page.request.get(f"{url}/api/matches/{mid}").json()["turn"]["due_at"]
        left = page.evaluate("(due) => (Date.parse(due) - Date.now()) / 1000", due)
        page.clock.fast_forward(int((left - 110) * 1000))
        expect(deadline).to_have_class(re.compile(r"\burgent\b"))
        said = page.locator("#announce p", has_text="Time is nearly up")
        expect(said).to_have_count(1)
        expect(said).to_contain_text(re.compile(r"nearly up: 1:[45]\d left for your move"))
        assert deadline.evaluate("e => getComputedStyle(e).fontWeight") == "700"
        # Said once: the seconds go on ticking, nothing more is announced.
        page.clock.fast_forward("01:25")
        expect(deadline).to_contain_text(re.compile(r"(?<![\d:])0:[0-2]\d left"))
        page.wait_for_timeout(300)
        expect(said).to_have_count(1)
    finally:
        ctx.close()
