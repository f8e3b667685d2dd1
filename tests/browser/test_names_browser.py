"""Display names in the browser: any script signs up; a lookalike of a taken name is
refused on the form in the page's language; a long name is cut short with an
ellipsis where space is tight, and nothing spills past a phone's width."""

from __future__ import annotations

import secrets
from typing import Any

from a11y import axe_violations, describe
from browser_helpers import account, open_menu
from playwright.sync_api import Browser, Page, expect

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
#: 24 letters, the most a name may have, with no space to wrap at.
LONG = "Wolfeschlegelsteinhausen"

CUT_SHORT = "el => el.scrollWidth > el.clientWidth"


def sign_up(page: Page, url: str, name: str) -> None:
    page.goto(url + "/signup")
    page.get_by_label("Email").fill(f"{secrets.token_hex(4)}@example.org")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_label("Display name").fill(name)
    page.get_by_role("button", name="Sign up").click()


#: What sticks out past the phone's right edge, to say which element broke the layout.
STICKING_OUT = """() => [document.body, ...document.querySelectorAll('body *')]
  .filter(e => !e.parentElement.closest('.scroll') && (e.getBoundingClientRect().right > 390.5
               || e.scrollWidth > Math.max(e.clientWidth, 390)))
  .slice(0, 8)
  .map(e => `${e.tagName}.${e.className} right=${Math.round(e.getBoundingClientRect().right)}`
            + ` scroll=${e.scrollWidth} "${(e.textContent || '').trim().slice(0, 50)}"`)"""


def fits(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, (page.url, width, page.evaluate(STICKING_OUT))


def test_a_name_in_any_script_and_a_lookalike_refused(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    tag = secrets.token_hex(2)
    first = browser.new_context()
    page = first.new_page()
    sign_up(page, url, f"Zoë Ñandú {tag}")
    expect(page.locator("header .me")).to_have_text(f"Zoë Ñandú {tag}")
    first.close()

    # The same name with a Cyrillic "о" for the "o", in Portuguese.
    second = browser.new_context(locale="pt-PT")
    page = second.new_page()
    sign_up_pt(page, url, f"Zоë Ñandú {tag}")
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text(f"parece-se com Zoë Ñandú {tag}")
    expect(page.get_by_label("Nome visível")).to_have_value(f"Zоë Ñandú {tag}")
    bad = [v for v in axe_violations(page) if v["impact"] in ("serious", "critical")]
    assert not bad, describe(bad)
    second.close()


def sign_up_pt(page: Page, url: str, name: str) -> None:
    page.goto(url + "/signup")
    page.get_by_label("E-mail").fill(f"{secrets.token_hex(4)}@example.org")
    page.get_by_label("Palavra-passe").fill("correct horse battery")
    page.get_by_label("Nome visível").fill(name)
    page.locator("form.stack button[type=submit]").click()


def test_a_long_name_on_a_phone(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    name = LONG[:-4] + secrets.token_hex(2)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        sign_up(page, url, name)
        me = page.locator("header .me")
        expect(me).to_have_attribute("title", name)
        open_menu(page)
        assert me.evaluate(CUT_SHORT), "the header shows the whole long name"
        fits(page)
        # The match page's seat list: cut short there too, whole on hover.
        page.request.patch(url + "/api/account", data={"leaderboard": True})
        r = page.request.post(url + "/api/matches", data={"seats": 4, "bots": 3})
        assert r.status == 201, r.text()
        page.goto(f"{url}/matches/{r.json()['id']}")
        seat = page.locator("#seats .seat.you .name")
        expect(seat).to_have_attribute("title", name)
        # The seat list is drawn again as bots play: wait for the one that stays.
        page.wait_for_function(
            """() => {
              const el = document.querySelector('#seats .seat.you .name');
              return el !== null && el.scrollWidth > el.clientWidth;
            }"""
        )
        fits(page)
        # The lobby, my matches, the leaderboard and the profile stay within the phone.
        r = page.request.post(url + "/api/matches", data={"seats": 3, "bots": 0})
        assert r.status == 201, r.text()
        for path in ("/lobby", "/my", "/leaderboard", "/account", f"/players/{name}"):
            page.goto(url + path)
            fits(page)
        page.goto(url + "/lobby")
        lobby_name = page.locator("#lobby-matches .pname", has_text=name[:6]).first
        expect(lobby_name).to_have_attribute("title", name)
    finally:
        context.close()


#: A narrow phone, in Slovak (long words in the header): a five-letter name shows whole.
NARROW = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


def test_a_normal_name_shows_whole_in_a_narrow_phone_header(
    browser: Browser, live_server: Any
) -> None:
    url = live_server.url
    context = browser.new_context(locale="sk-SK", **NARROW)
    try:
        page = account(context, url, "Zuzka" + secrets.token_hex(2)[:1])
        for path in ("/", "/lobby", "/my", "/account"):
            page.goto(url + path)
            open_menu(page)
            me = page.locator("header .me")
            expect(me).to_be_visible()
            assert not me.evaluate(CUT_SHORT), (path, me.evaluate("el => el.clientWidth"))
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, (path, width)
    finally:
        context.close()
