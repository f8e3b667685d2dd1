"""A spare deadline used, applied by the sweeper inside `jackpot serve`, shows on
every page of the match without a reload: the log says "used a spare, 0 left", the
seat list the spares left; one deadline later the seat is out as before. The page
of the one who missed it speaks its own language."""

from __future__ import annotations

import re
import secrets

from a11y import assert_axe_clean
from playwright.sync_api import Browser, expect


def test_a_spare_used_reaches_every_page_live(browser: Browser, live_server) -> None:  # type: ignore[no-untyped-def]
    url = live_server.url
    tag = secrets.token_hex(3)
    ana_ctx, ben_ctx = browser.new_context(), browser.new_context()
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    for page, name in ((ana, f"Ana{tag}"), (ben, f"Ben{tag}")):
        r = page.request.post(
            url + "/api/account",
            data={"email": f"{name.lower()}@example.org", "password": "long enough pw",
                  "name": name},
        )
        assert r.status == 201, r.text()
        r = page.request.put(url + "/api/account/autoplay",
                             data={"throws": False, "single_covers": False})
        assert r.ok, r.text()
    # Three seconds a throw (the test server allows two), and one spare each.
    body = {"seats": 2, "bots": 0, "deadline_seconds": 3, "spares": 1}
    r = ana.request.post(url + "/api/matches", data=body)
    assert r.status == 201, r.text()
    mid = r.json()["id"]
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
    slow, watcher = (ana, ben) if ana_first else (ben, ana)
    slow_name = f"Ana{tag}" if ana_first else f"Ben{tag}"
    # The one who will miss reads the site in Portuguese.
    assert slow.request.patch(url + "/api/account", data={"locale": "pt"}).ok
    slow.context.add_cookies([{"name": "lang", "value": "pt", "url": url}])
    slow.goto(f"{url}/matches/{mid}")
    expect(watcher.locator("#seats li").first).to_contain_text("1 spare deadline left")
    # Nobody moves: the deadline passes and the sweeper uses the slow seat's spare.
    expect(watcher.locator("#log")).to_contain_text(
        f"{slow_name} missed the deadline and used a spare, 0 left", timeout=15000
    )
    expect(watcher.locator("#seats li").first).to_contain_text("0 spare deadlines left")
    expect(slow.locator("#log")).to_contain_text("foi gasto um prazo de reserva, restam 0")
    assert_axe_clean(watcher, "the match page after a spare was used")
    # With none left, the next passed deadline puts the seat out, as without spares.
    expect(watcher.locator("#result h2")).to_have_text("You win!", timeout=15000)
    expect(watcher.locator("#log")).to_contain_text(re.compile(f"{slow_name} ran out of time"))
    expect(watcher.locator("#seats li").first).to_contain_text("out: time")
    # A fresh load says what the live page says.
    live_log = watcher.locator("#log").inner_text()
    watcher.reload()
    expect(watcher.locator("#log")).to_contain_text(
        f"{slow_name} missed the deadline and used a spare, 0 left"
    )
    assert "used a spare" in live_log
    ana_ctx.close()
    ben_ctx.close()
