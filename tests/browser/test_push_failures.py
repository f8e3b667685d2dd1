"""What the account page's push switch says when push cannot be had: in the reader's
language (Portuguese here), never the browser's own English message, and a window
that cannot have push at all (a private window, site data blocked) told apart from a
person's refusal. The browser's side of each case is staged by replacing the API that
fails; the page's reading of it is what runs."""

from __future__ import annotations

import secrets
from typing import Any

from browser_helpers import account
from playwright.sync_api import Browser, Page, expect

#: The browser's own message in each staged failure: never shown.
RAW = "Registration failed - permission denied"

SUBSCRIBE_REFUSED = f"""
PushManager.prototype.subscribe = function () {{
  return Promise.reject(new DOMException({RAW!r}, "NotAllowedError"));
}};
"""
PUSH_SERVICE_DOWN = """
PushManager.prototype.subscribe = function () {
  return Promise.reject(new DOMException("Registration failed - push service error", "AbortError"));
};
"""
NO_SITE_DATA = """
ServiceWorkerContainer.prototype.register = function () {
  return Promise.reject(new DOMException("The operation is insecure.", "SecurityError"));
};
"""
NO_PUSH_AT_ALL = "delete window.PushManager;"


def declined(stored: str) -> str:
    """The permission request answered "denied", with ``stored`` the state the browser
    keeps afterwards: "denied" when a person said no, "prompt" when a private window
    turned it down by itself."""
    return f"""
Notification.requestPermission = () => Promise.resolve("denied");
const query = navigator.permissions.query.bind(navigator.permissions);
navigator.permissions.query = (what) =>
  what && what.name === "notifications" ? Promise.resolve({{ state: {stored!r} }}) : query(what);
"""


def push_page(browser: Browser, url: str, script: str, grant: bool = True) -> tuple[Any, Page]:
    ctx = browser.new_context(locale="pt-PT")
    if grant:
        ctx.grant_permissions(["notifications"], origin=url)
    ctx.add_init_script(script)
    page = account(ctx, url, f"Rui{secrets.token_hex(3)}")
    page.goto(url + "/account")
    expect(page.locator("html")).to_have_attribute("lang", "pt")
    return ctx, page


def said_after_pressing(browser: Browser, url: str, script: str, grant: bool = True) -> str:
    ctx, page = push_page(browser, url, script, grant)
    try:
        button = page.locator("#push-toggle")
        expect(button).to_have_text("Ativar as notificações push neste dispositivo")
        button.click()
        status = page.locator("#push-status")
        expect(status).not_to_be_empty()
        expect(button).to_be_enabled()
        return status.inner_text()
    finally:
        ctx.close()


def test_a_refused_subscription_is_said_in_portuguese(browser: Browser, live_server: Any) -> None:
    said = said_after_pressing(browser, live_server.url, SUBSCRIBE_REFUSED)
    assert RAW not in said
    assert said.startswith("Este navegador não permite notificações push nesta janela")


def test_a_failing_push_service_is_said_in_portuguese(browser: Browser, live_server: Any) -> None:
    said = said_after_pressing(browser, live_server.url, PUSH_SERVICE_DOWN)
    assert "Registration failed" not in said
    assert said.startswith("Não foi possível contactar o serviço de notificações")


def test_a_window_without_site_data_is_told_apart(browser: Browser, live_server: Any) -> None:
    said = said_after_pressing(browser, live_server.url, NO_SITE_DATA)
    assert "insecure" not in said
    assert said.startswith("Esta janela não guarda dados deste site")


def test_a_private_window_is_told_apart_from_a_refusal(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    private = said_after_pressing(browser, url, declined("prompt"), grant=False)
    refused = said_after_pressing(browser, url, declined("denied"), grant=False)
    assert private.startswith("O navegador recusou sem lhe perguntar, como faz numa janela privada")
    assert refused.startswith("As notificações estão bloqueadas para este site")


def test_a_window_with_no_push_says_so_before_any_press(browser: Browser, live_server: Any) -> None:
    ctx, page = push_page(browser, live_server.url, NO_PUSH_AT_ALL)
    try:
        expect(page.locator("#push-status")).to_contain_text(
            "As notificações push não estão disponíveis nesta janela"
        )
        expect(page.locator("#push-toggle")).to_be_hidden()
    finally:
        ctx.close()
