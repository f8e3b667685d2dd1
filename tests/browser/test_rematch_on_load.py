"""A rematch offered before the page was opened is said in the live region on load,
as a change is while the page watches."""

from __future__ import annotations

import secrets
from typing import Any

from browser_helpers import account
from playwright.sync_api import Browser, expect


def test_an_open_offer_is_said_when_the_page_loads(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    tag = secrets.token_hex(2)
    ana_ctx, ben_ctx = browser.new_context(), browser.new_context()
    try:
        ana = account(ana_ctx, url, f"Ana{tag}")
        ben = account(ben_ctx, url, f"Ben{tag}")
        r = ana.request.post(url + "/api/matches", data={"seats": 2, "bots": 0})
        assert r.status == 201, r.text()
        mid = r.json()["id"]
        assert ben.request.post(f"{url}/api/matches/{mid}/join", data={}).ok
        assert ana.request.post(f"{url}/api/matches/{mid}/resign", data={}).ok
        offer = ben.request.post(f"{url}/api/matches/{mid}/rematch", data={"client_seed": "b1"})
        assert offer.ok, offer.text()

        ana.goto(f"{url}/matches/{mid}")
        expect(ana.locator("#rematch-status")).to_contain_text(f"Ben{tag} offers a rematch")
        expect(ana.locator("#announce")).to_contain_text(f"Ben{tag} offers a rematch")
        ana.wait_for_timeout(2500)  # a poll later: still said once
        said = ana.locator("#announce p").all_inner_texts()
        assert sum("offers a rematch" in line for line in said) == 1, said
    finally:
        ana_ctx.close()
        ben_ctx.close()
