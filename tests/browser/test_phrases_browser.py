"""A few words between two people: a phrase said on an English page reaches the other
player's page in Slovak, in Slovak words, as a fresh load shows it too; the switch
that hides what others say hides it, and stays so after a reload."""

from __future__ import annotations

import secrets

from browser_helpers import account, start_match
from playwright.sync_api import Browser, expect

from jackpot.i18n.catalogs import translations


def sk(text: str) -> str:
    return translations("sk", "js").gettext(text)


def test_a_phrase_reaches_the_other_in_their_language(browser: Browser, live_server) -> None:  # type: ignore[no-untyped-def]
    url = live_server.url
    tag = secrets.token_hex(2)
    ana_ctx = browser.new_context(locale="en-GB", reduced_motion="reduce")
    ben_ctx = browser.new_context(locale="sk-SK", reduced_motion="reduce")
    try:
        ana = account(ana_ctx, url, f"Ana{tag}")
        ben = account(ben_ctx, url, f"Ben{tag}")
        mid = start_match(ana, url, {"seats": 2, "bots": 0, "deadline_seconds": 3600}, (ben,))
        ana.goto(f"{url}/matches/{mid}")
        ben.goto(f"{url}/matches/{mid}")
        expect(ben.locator("html")).to_have_attribute("lang", "sk")
        good_luck = ana.locator("#phrase-buttons button[data-phrase=good_luck]")
        expect(good_luck).to_have_text("Good luck!")
        # Ben's page is listening before Ana speaks.
        expect(ben.locator("#connection")).to_be_hidden()
        expect(ben.locator("#phrase-buttons button[data-phrase=good_luck]")).to_have_text(
            sk("Good luck!")
        )
        assert sk("Good luck!") != "Good luck!"
        good_luck.click()
        expect(ana.locator("#said")).to_contain_text("You said: Good luck!")
        line = ben.locator("#said li")
        expect(line).to_have_count(1)
        expect(line).to_contain_text(sk("Good luck!"))
        expect(line).to_contain_text(f"Ana{tag}")
        # A fresh load shows what the live event showed.
        live_text = line.inner_text()
        ben.reload()
        expect(ben.locator("#said li")).to_have_text(live_text)

        # Hidden: what others say goes; the choice holds after a reload.
        ben.locator("#phrases-hide").check()
        expect(ben.locator("#said li")).to_have_count(0)
        ben.reload()
        expect(ben.locator("#phrases-hide")).to_be_checked()
        expect(ben.locator("#said li")).to_have_count(0)
        expect(ben.locator("#connection")).to_be_hidden()
        # One phrase every 3 s per seat (the server's default): Ana asks until hers goes.
        for _ in range(40):
            r = ana.request.post(f"{url}/api/matches/{mid}/say", data={"phrase": "have_fun"})
            if r.status != 429:
                break
            ana.wait_for_timeout(250)
        assert r.status == 204, r.text()
        # Ben says something himself: his own words show, Ana's still do not.
        ben.locator("#phrase-buttons button[data-phrase=thanks]").click()
        expect(ben.locator("#said li")).to_have_count(1)
        expect(ben.locator("#said li")).to_contain_text(sk("Thanks!"))
        # (Said within one second, two seats' phrases are listed by seat, not arrival.)
        expect(ana.locator("#said li", has_text=f"Ben{tag}")).to_have_count(1)
        ben.locator("#phrases-hide").uncheck()
        expect(ben.locator("#said li")).to_have_count(3)
        expect(ben.locator("#said")).to_contain_text(sk("Have fun!"))
    finally:
        ana_ctx.close()
        ben_ctx.close()
