"""The watch page lists a public match between people as it is played, from the
header's link; a spectator who opens it is counted, on the match page and the list."""

from __future__ import annotations

import secrets

from browser_helpers import account, open_menu, start_match
from playwright.sync_api import Browser, expect


def test_the_watch_page_lists_a_match_and_counts_its_spectators(
    browser: Browser,
    live_server,  # type: ignore[no-untyped-def]
) -> None:
    url = live_server.url
    tag = secrets.token_hex(2)
    ana_ctx = browser.new_context(reduced_motion="reduce")
    ben_ctx = browser.new_context(reduced_motion="reduce")
    fan_ctx = browser.new_context(reduced_motion="reduce")
    try:
        ana = account(ana_ctx, url, f"Ana{tag}")
        ben = account(ben_ctx, url, f"Ben{tag}")
        mid = start_match(ana, url, {"seats": 2, "bots": 0, "deadline_seconds": 3600}, (ben,))
        fan = fan_ctx.new_page()
        fan.goto(url + "/")
        open_menu(fan)
        fan.locator("header nav a[href='/watch']").click()
        row = fan.locator(f"#watch-matches tr[data-match='{mid}']")
        expect(row).to_contain_text(f"Ana{tag}")
        expect(row).to_contain_text(f"Ben{tag}")
        expect(row.locator("td.watching")).to_have_text("0")
        # The players' own pages do not count.
        ana.goto(f"{url}/matches/{mid}")
        expect(ana.locator("#connection")).to_be_hidden()
        row.get_by_role("link").click()
        expect(fan.locator("#seats li")).to_have_count(2)
        # The spectator counts themselves once their live connection is open.
        expect(fan.locator("#watching")).to_have_text(" · 1 person watching", timeout=20_000)
        fan_list = fan_ctx.new_page()
        fan_list.goto(url + "/watch")
        expect(fan_list.locator(f"tr[data-match='{mid}'] td.watching")).to_have_text("1")
        # Over: the list drops it at its next look.
        r = ben.request.post(f"{url}/api/matches/{mid}/resign", data={})
        assert r.ok, r.text()
        expect(fan_list.locator(f"tr[data-match='{mid}']")).to_have_count(0, timeout=30_000)
    finally:
        for ctx in (ana_ctx, ben_ctx, fan_ctx):
            ctx.close()
