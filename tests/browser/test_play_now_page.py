"""The play-now page as a new player meets it: what came of an answer is shown, a double
click sends one request, the lists keep the focus through their refreshes, one's own
seek is marked as such, a declined or expired challenge is told, the waiting table fits
a phone in Slovak, a profile's Challenge button lands on the form, and an accepted
challenge is heard on any other page of the site."""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from a11y import assert_axe_clean
from browser_helpers import account
from playwright.sync_api import Browser, BrowserContext, Page, expect

from testdb import execute

#: The page fetches its lists again every 15 seconds (static/play-now.js).
REFRESH_MS = 15_000
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
#: Replaces the Notifications API with a recorder that has permission already; each
#: notification made is kept, so a test can click it.
NOTIFICATION_STUB = """
window.__notes = [];
window.Notification = class {
  static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
  constructor(title, options) {
    this.title = title;
    Object.assign(this, options);
    window.__notes.push(this);
  }
};
"""
STREAM_HEARD = "() => window.jackpotNotify && window.jackpotNotify.received > 0"


def people(
    browser: Browser, url: str, *names: str, **options: Any
) -> tuple[list[BrowserContext], list[Page], list[str]]:
    """A signed-in page for each name (with a random tag), in contexts of its own."""
    tag = secrets.token_hex(2)
    contexts = [browser.new_context(reduced_motion="reduce", **options) for _ in names]
    full = [f"{n}{tag}" for n in names]
    return contexts, [account(c, url, n) for c, n in zip(contexts, full, strict=True)], full


def post(page: Page, url: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
    r = page.request.post(url, data=data or {})
    assert r.ok, r.text()
    return dict(r.json())


def refreshed(page: Page) -> None:
    """Let the page's 15-second timer fire (its clock installed) and wait until a fetch
    started since is done (#people-lists counts them in data-fetched; the seeks' live
    stream may have started one more meanwhile)."""
    before = int(page.locator("#people-lists").get_attribute("data-fetched") or 0)
    page.clock.run_for(REFRESH_MS)
    page.wait_for_function(
        "n => Number(document.getElementById('people-lists').dataset.fetched || 0) > n", arg=before
    )


def test_a_failed_answer_is_shown_beside_the_challenges(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    contexts, (ana, ben), (ana_name, _) = people(browser, url, "Ana", "Ben")
    challenge = post(ben, url + "/api/challenges", {"to": ana_name})["id"]
    ana.goto(url + "/play-now")
    expect(ana.locator("#incoming li")).to_have_count(1)
    # The challenge runs out meanwhile, with no news on its way (the expiry step has
    # not run): accepting fails with 409, which Ana sees.
    stale = f"UPDATE challenges SET expires_at = created_at WHERE id = '{challenge}'"
    execute(live_server.database_url, stale)
    ana.click(f'li[data-challenge="{challenge}"] .challenge-accept')
    error = ana.locator("#challenges-error")
    expect(error).to_be_visible()
    expect(error).to_have_text("this challenge is no longer open")
    expect(error).to_have_attribute("role", "alert")
    # It is in the challenges' box, under their heading.
    assert ana.locator("#challenges #challenges-error").count() == 1
    assert_axe_clean(ana, "play now, an answer refused")
    for ctx in contexts:
        ctx.close()


def test_a_double_click_sends_one_request(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    contexts, (ana, _ben), (_, ben_name) = people(browser, url, "Ana", "Ben")
    posted: list[str] = []
    ana.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
    ana.goto(url + "/play-now")
    ana.fill("#challenge-to", ben_name)
    ana.dblclick("#challenge-send")
    expect(ana.locator("#people-status")).to_have_text("Challenge sent.")
    expect(ana.locator("#outgoing li")).to_have_count(1)
    expect(ana.locator("#challenge-send")).not_to_have_attribute("aria-disabled", "true")
    expect(ana.locator("#challenge-error")).to_be_hidden()
    assert posted.count(url + "/api/challenges") == 1

    ana.select_option("#seek-deadline", "300")
    ana.select_option("#seek-seats", "3")
    ana.dblclick("#seek-start")
    expect(ana.locator("#seek-waiting")).to_be_visible()
    expect(ana.locator("#seek-error")).to_be_hidden()
    assert posted.count(url + "/api/seeks") == 1
    assert len(ana.request.get(url + "/api/seeks").json()["mine"]) == 1
    for ctx in contexts:
        ctx.close()


def test_refreshes_keep_the_focus_and_unchanged_lists(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    contexts, (ana, ben), (ana_name, _) = people(browser, url, "Ana", "Ben")
    # Kinds of their own (the server is shared by the tests): a week's wait each.
    seeks = url + "/api/seeks"
    first = post(ben, seeks, {"variant": "classic", "deadline_seconds": 7777, "seats": 3})
    challenge = post(ben, url + "/api/challenges", {"to": ana_name})["id"]
    ana.clock.install()
    ana.goto(url + "/play-now")
    decline = ana.locator(f'li[data-challenge="{challenge}"] .challenge-decline')
    decline.focus()
    ana.evaluate("document.activeElement.dataset.mark = 'kept'")
    refreshed(ana)
    # Nothing changed: the very same button has the focus, nothing was put in again.
    expect(decline).to_be_focused()
    expect(decline).to_have_attribute("data-mark", "kept")

    join = ana.locator('.join-kind[data-variant="classic"][data-deadline="7777"]')
    join.focus()
    ana.evaluate("document.activeElement.dataset.mark = 'old'")
    second = post(ben, seeks, {"variant": "jackpot", "deadline_seconds": 7777, "seats": 4})
    refreshed(ana)
    # The waiting list changed and was put in again; the focus is on the same control.
    expect(ana.locator('.join-kind[data-variant="jackpot"][data-deadline="7777"]')).to_be_visible()
    expect(join).to_be_focused()
    expect(join).not_to_have_attribute("data-mark", "old")
    # The challenges' part did not change: still the same nodes.
    expect(decline).to_have_attribute("data-mark", "kept")
    for made in (first, second):
        assert ben.request.delete(f"{url}/api/seeks/{made['id']}").ok
    for ctx in contexts:
        ctx.close()


def test_another_persons_seek_shows_at_once(browser: Browser, live_server: Any) -> None:
    """The waiting list follows the seeks' live stream: with the page's clock stopped,
    its 15-second timer cannot be what brings a new seek in."""
    url = live_server.url
    contexts, (ana, ben), _ = people(browser, url, "Ana", "Ben")
    ana.clock.install()
    ana.clock.pause_at(datetime.now(UTC) + timedelta(minutes=1))
    ana.goto(url + "/play-now")
    kind = {"variant": "classic", "deadline_seconds": 6543, "seats": 4}
    listed = ana.locator('.join-kind[data-variant="classic"][data-deadline="6543"]')
    expect(listed).to_have_count(0)
    made = post(ben, url + "/api/seeks", kind)
    expect(listed).to_have_count(1)
    assert ben.request.delete(f"{url}/api/seeks/{made['id']}").ok
    expect(listed).to_have_count(0)
    for ctx in contexts:
        ctx.close()


def test_play_this_while_waiting_switches_to_that_kind(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    contexts, (ana, ben), _ = people(browser, url, "Ana", "Ben")
    ana.goto(url + "/play-now")
    ana.select_option("#seek-variant", "jackpot")
    ana.select_option("#seek-deadline", "86400")
    ana.select_option("#seek-seats", "4")
    ana.click("#seek-start")
    expect(ana.locator("#seek-line")).to_contain_text("Looking for players: Jackpot")
    mine = ana.request.get(url + "/api/seeks").json()["mine"]
    assert [s["status"] for s in mine] == ["waiting"]
    kind = {"variant": "classic", "deadline_seconds": 5432, "seats": 2}
    theirs = post(ben, url + "/api/seeks", kind)
    ana.click('.join-kind[data-variant="classic"][data-deadline="5432"]')
    # Ana's wait gives way to Ben's kind: the two are paired and her page opens the match.
    expect(ana).to_have_url(re.compile(r"/matches/m_"))
    paired = ben.request.get(f"{url}/api/seeks/{theirs['id']}").json()
    assert paired["status"] == "paired" and ana.url.endswith(paired["match"])
    gone = ana.request.get(f"{url}/api/seeks/{mine[0]['id']}").json()
    assert gone["status"] == "cancelled"
    for ctx in contexts:
        ctx.close()


def test_own_seek_is_marked_and_its_kind_said(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    contexts, (ana,), _ = people(browser, url, "Ana")
    ana.goto(url + "/play-now")
    ana.select_option("#seek-variant", "jackpot")
    ana.select_option("#seek-deadline", "60")
    ana.select_option("#seek-seats", "3")
    ana.click("#seek-start")
    said = "Looking for players: Jackpot, 1 minute per throw, 3 seats, 1 spare deadline…"
    expect(ana.locator("#seek-line")).to_have_text(said)
    expect(ana.locator("#people-status")).to_have_text(said)
    row = ana.locator("#open-seeks tbody tr.yours")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("You are waiting")
    expect(row.locator("button")).to_have_count(0)
    assert_axe_clean(ana, "play now, one's own seek listed")
    for ctx in contexts:
        ctx.close()


def test_the_bot_offer_starts_a_bot_match_in_a_new_tab(browser: Browser, live_server: Any) -> None:
    """As the home page's "Play the bot": one click, the match against the bot starts,
    here in a new tab; this page's seek keeps waiting."""
    url = live_server.url
    contexts, (cal,), _ = people(browser, url, "Cal")
    cal.clock.install()
    cal.goto(url + "/play-now")
    cal.select_option("#seek-variant", "classic")
    cal.select_option("#seek-deadline", "300")
    cal.select_option("#seek-seats", "3")
    cal.click("#seek-start")
    expect(cal.locator("#seek-waiting")).to_be_visible()
    expect(cal.locator("#seek-bot")).to_be_hidden()
    cal.clock.run_for(31_000)
    expect(cal.locator("#seek-bot-start")).to_be_visible()
    assert_axe_clean(cal, "play now, seeking, the bot offered")
    with cal.expect_popup() as opened:
        cal.click("#seek-bot-start")
    tab = opened.value
    tab.wait_for_url(re.compile(r"/matches/m_[0-9a-f]+$"))
    state = tab.request.get(url + "/api/matches/" + tab.url.rsplit("/", 1)[1]).json()
    assert state["variant"] == "classic" and len(state["seats"]) == 2
    assert [s["bot"] for s in state["seats"]].count(True) == 1
    # This page is still looking.
    expect(cal.locator("#seek-waiting")).to_be_visible()
    [mine] = cal.request.get(url + "/api/seeks").json()["mine"]
    assert mine["status"] == "waiting"
    for ctx in contexts:
        ctx.close()


def test_a_declined_or_expired_challenge_is_told(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    contexts, (ana, ben, cy), (_, ben_name, cy_name) = people(browser, url, "Ana", "Ben", "Cy")
    ana.clock.install()
    ana.goto(url + "/play-now")
    for name in (ben_name, cy_name):
        ana.fill("#challenge-to", name)
        ana.click("#challenge-send")
        expect(ana.locator("#outgoing li", has_text=name)).to_have_count(1)
    [to_ben] = [c["id"] for c in ben.request.get(url + "/api/challenges").json()["incoming"]]
    [to_cy] = [c["id"] for c in cy.request.get(url + "/api/challenges").json()["incoming"]]
    post(ben, f"{url}/api/challenges/{to_ben}/decline")
    news = ana.locator("#challenges-news")
    expect(news).to_have_text(f"{ben_name} declined your challenge.")
    expect(ana.locator("#people-status")).to_have_text(f"{ben_name} declined your challenge.")
    expect(ana.locator("#outgoing li")).to_have_count(1)

    # Cy never answers: a week later the challenge expires.
    stale = f"UPDATE challenges SET expires_at = created_at WHERE id = '{to_cy}'"
    execute(live_server.database_url, stale)
    ana.clock.set_system_time(datetime.now(UTC) + timedelta(days=8))
    refreshed(ana)
    expect(news).to_have_text(f"Your challenge to {cy_name} expired: it was not answered in time.")
    expect(ana.locator("#outgoing li")).to_have_count(0)
    for ctx in contexts:
        ctx.close()


def test_accepted_challenge_is_heard_on_another_page(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    contexts, (ana, ben), (_, ben_name) = people(browser, url, "Ana", "Ben")
    contexts[0].add_init_script(NOTIFICATION_STUB)
    challenge = post(ana, url + "/api/challenges", {"to": ben_name})["id"]
    ana.goto(url + "/rules")
    ana.wait_for_function(STREAM_HEARD)
    match = post(ben, f"{url}/api/challenges/{challenge}/accept")["match"]
    # Ana may also be told that it is her throw in it (the seeds choose who starts).
    accepted = "window.__notes.filter(n => n.title === 'Challenge accepted')"
    ana.wait_for_function(f"() => {accepted}.length > 0")
    notes = ana.evaluate(f"{accepted}.map(n => ({{body: n.body, tag: n.tag}}))")
    body = "Your match is starting: open it to play."
    assert notes == [{"body": body, "tag": f"jackpot-{match}"}]
    ana.evaluate(f"{accepted}[0].onclick()")
    expect(ana).to_have_url(f"{url}/matches/{match}")
    for ctx in contexts:
        ctx.close()


def test_the_waiting_table_fits_a_phone_in_slovak(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    contexts, (ana, ben), _ = people(browser, url, "Ana", "Ben", locale="sk-SK", **PHONE)
    kind = {"variant": "classic", "deadline_seconds": 8888, "seats": 4}
    made = post(ben, url + "/api/seeks", kind)
    ana.goto(url + "/play-now")
    button = ana.locator(".join-kind").first
    expect(button).to_have_text("Hrať túto")
    assert ana.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    box = button.locator("xpath=ancestor::div[contains(@class,'scroll')][1]")
    assert box.evaluate("el => el.scrollWidth - el.clientWidth") <= 0, "the table scrolls sideways"
    right = button.evaluate("el => el.getBoundingClientRect().right")
    assert right <= 390, right
    assert ben.request.delete(f"{url}/api/seeks/{made['id']}").ok
    for ctx in contexts:
        ctx.close()


def test_a_profiles_challenge_button_lands_on_the_form(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    contexts, (ana, _ben), (_, ben_name) = people(browser, url, "Ana", "Ben", **PHONE)
    ana.goto(f"{url}/play-now?to={ben_name}")
    send = ana.locator("#challenge-send")
    expect(ana.locator("#challenge-to")).to_have_value(ben_name)
    expect(send).to_be_focused()
    expect(send).to_be_in_viewport()
    for ctx in contexts:
        ctx.close()
