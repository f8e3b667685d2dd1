"""The account page's "Turn on push notifications on this device" (the permission asked
for once, the service worker the site registers showing what is pushed), and the
player's live stream changing the tab title on another page without any polling."""

from __future__ import annotations

import json
import re
import secrets
from typing import Any

from playwright.sync_api import Browser, Page, Request, expect
from test_rematch import STREAM_HEARD
from test_two_people import sign_up

from jackpot.web.base.clock import utcnow
from jackpot.web.notify.push.messages import About, payload

#: Counts the page's calls to Notification.requestPermission (the real one runs).
COUNT_ASKS = """
window.__asked = 0;
const ask = Notification.requestPermission.bind(Notification);
Notification.requestPermission = (...args) => { window.__asked += 1; return ask(...args); };
"""

ACTIVE = "navigator.serviceWorker.getRegistration('/').then(r => !!(r && r.active))"
SUBSCRIBED = """navigator.serviceWorker.getRegistration('/')
  .then(r => r.pushManager.getSubscription()).then(s => s !== null)"""

#: Run in the service worker: records what it asks to show.
RECORD_SHOWN = """() => {
  self.__shown = [];
  const show = self.registration.showNotification.bind(self.registration);
  self.registration.showNotification = (title, options) => {
    self.__shown.push({ title, body: options.body, tag: options.tag, data: options.data });
    return show(title, options);
  };
}"""

SW_STATE = """async () => {
  const reg = await navigator.serviceWorker.getRegistration('/');
  if (!reg) return null;
  const sw = reg.active || reg.waiting || reg.installing;
  return { scope: reg.scope, script: sw ? sw.scriptURL : null };
}"""


def until(page: Page, script: str) -> Any:
    """What ``script`` (which may answer with a promise) gives, asked every 50 ms
    until it is truthy. wait_for_function does not wait on a promise: one is truthy
    at once."""
    for _ in range(200):
        value = page.evaluate(script)
        if value:
            return value
        page.wait_for_timeout(50)
    raise AssertionError(f"never true: {script}")


def test_the_account_page_registers_the_service_worker(browser: Browser, live_server) -> None:  # type: ignore[no-untyped-def]
    url = live_server.url
    ctx = browser.new_context()
    ctx.grant_permissions(["notifications"], origin=url)
    ctx.add_init_script(COUNT_ASKS)
    page = ctx.new_page()
    sign_up(page, url, f"Pia{secrets.token_hex(2)}")
    page.goto(url + "/account")
    button = page.locator("#push-toggle")
    expect(button).to_be_visible()
    expect(button).to_have_text("Turn on push notifications on this device")
    # Every page registers the service worker (the offline page); nothing has been
    # subscribed to a push service before the press.
    until(page, ACTIVE)
    assert page.evaluate(SUBSCRIBED) is False
    button.click()
    # The page said what came of it (a headless browser may have no push service).
    expect(page.locator("#push-status")).not_to_be_empty()
    assert page.evaluate("window.__asked") == 1
    assert page.evaluate("Notification.permission") == "granted"
    state = page.evaluate(SW_STATE)
    assert state == {"scope": url + "/", "script": url + "/sw.js"}

    # A push as the worker writes it, handed to the service worker as a push service
    # would (DevTools protocol): the worker asks to show the notification, with the
    # match's address. What it asks is recorded in the worker itself: headless Chromium
    # may close a shown notification before getNotifications() sees it. As a push
    # service would, the push is sent again if the worker did not take it.
    cdp = ctx.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda ev: registrations.extend(ev["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    until(page, ACTIVE)
    assert registrations
    worker = ctx.service_workers[0] if ctx.service_workers else ctx.wait_for_event("serviceworker")
    worker.evaluate(RECORD_SHOWN)
    message = payload(About("turn", "m_0123456789abcdef", "jackpot", ["Ana"], None), utcnow())
    shown: list[dict[str, Any]] = []
    for _ in range(5):
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": url,
                "registrationId": registrations[-1]["registrationId"],
                "data": json.dumps(message),
            },
        )
        for _ in range(40):
            shown = worker.evaluate("() => self.__shown")
            if shown:
                break
            page.wait_for_timeout(50)
        if shown:
            break
    assert shown == [
        {
            "title": "Your throw",
            "body": "It is your throw in Jackpot against Ana.",
            "tag": "jackpot-m_0123456789abcdef",
            "data": {"url": "/matches/m_0123456789abcdef"},
        }
    ]
    ctx.close()


def test_the_live_stream_sets_the_tab_title_without_polling(browser: Browser, live_server) -> None:  # type: ignore[no-untyped-def]
    url = live_server.url
    tag = secrets.token_hex(2)
    ana_ctx, ben_ctx = browser.new_context(), browser.new_context()
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    sign_up(ana, url, f"Ana{tag}")
    sign_up(ben, url, f"Ben{tag}")
    # The page after signing up has opened its stream already: counted from here,
    # the lobby's is the only one.
    ben.wait_for_function(STREAM_HEARD)
    asked: list[str] = []

    def note(request: Request) -> None:
        asked.append(request.url)

    ben.on("request", note)
    ben.goto(url + "/lobby")
    ben.wait_for_function(STREAM_HEARD)
    assert not ben.title().startswith("(Your throw)")

    # Ana makes a match for two people and Ben joins it, both through the API.
    r = ana_ctx.request.post(
        url + "/api/matches", data={"seats": 2, "bots": 0, "deadline_seconds": 3600}
    )
    assert r.ok, r.text()
    mid = r.json()["id"]
    r = ben_ctx.request.post(f"{url}/api/matches/{mid}/join", data={})
    assert r.ok, r.text()
    state = r.json()
    ben_seat = next(i for i, seat in enumerate(state["seats"]) if seat["you"])
    # The order of play is drawn at the join: if Ana throws first, she plays her
    # turn; then (or at once) it is Ben's, and his lobby tab says so by itself.
    for _ in range(50):
        if state["turn"]["seat"] == ben_seat:
            break
        turn = state["turn"]
        if turn["dice"] is None:
            r = ana_ctx.request.post(f"{url}/api/matches/{mid}/throw", data={})
        else:
            r = ana_ctx.request.post(
                f"{url}/api/matches/{mid}/cover", data={"tiles": turn["options"][-1]}
            )
        assert r.ok, r.text()
        state = r.json()
    assert state["status"] == "playing" and state["turn"]["seat"] == ben_seat
    expect(ben).to_have_title(re.compile(r"^\(Your throw\) "))
    assert ben.url == url + "/lobby"  # no reload
    # One stream, and no request to the old polling route.
    assert [u for u in asked if "/api/my/" in u] == [url + "/api/my/events"]
    ana_ctx.close()
    ben_ctx.close()
