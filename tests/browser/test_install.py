"""The site as an installable app in Chromium: the manifest's fields and its icons, the
service worker every page registers, Chromium's own installability check, and the
offline page the worker shows, in the reader's language, when the network is off."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserType, Page, expect

CONTROLLED = "() => navigator.serviceWorker.controller !== null"
#: Each icon as the browser loads it: its address and its real size.
ICON_SIZES = """async (icons) => Promise.all(icons.map((icon) => new Promise((done) => {
  const img = new Image();
  img.onload = () => done([icon.src, img.naturalWidth, img.naturalHeight]);
  img.onerror = () => done([icon.src, 0, 0]);
  img.src = icon.src;
})))"""


#: The language of the offline page the worker keeps.
KEPT_LANGUAGE = """() => caches.match('/offline')
  .then((r) => (r ? r.headers.get('content-language') : null))"""


def manifest_of(page: Page) -> dict[str, Any]:
    """The manifest the page names, fetched as the browser would (its language too)."""
    got = page.evaluate(
        """async () => {
          const r = await fetch(document.querySelector('link[rel=manifest]').href);
          return { type: r.headers.get('content-type'), body: await r.json() };
        }"""
    )
    assert got["type"].startswith("application/manifest+json")
    return dict(got["body"])


def under_control(page: Page, url: str) -> None:
    """Wait for the service worker to take the page (it claims the pages once active)."""
    page.goto(url + "/")
    page.wait_for_function(CONTROLLED, timeout=15000)


def test_the_manifest_and_its_icons(browser: Browser, live_server: Any) -> None:
    url = live_server.url
    ctx = browser.new_context(locale="pt-PT")
    page = ctx.new_page()
    try:
        page.goto(url + "/")
        m = manifest_of(page)
        assert m["name"] == "peer2peergames' Jackpot" and m["short_name"] == "Jackpot"
        assert m["start_url"] == "/" and m["scope"] == "/" and m["display"] == "standalone"
        assert m["lang"] == "pt" and m["description"].startswith("Feche a caixa")
        assert re.fullmatch(r"#[0-9a-f]{6}", m["theme_color"])
        assert re.fullmatch(r"#[0-9a-f]{6}", m["background_color"])
        pngs = {i["sizes"]: i for i in m["icons"] if i["type"] == "image/png"}
        assert {"192x192", "512x512"} <= set(pngs)
        assert any(i.get("purpose") == "maskable" for i in m["icons"])
        loaded = page.evaluate(ICON_SIZES, [{"src": i["src"]} for i in m["icons"]])
        for (src, width, height), icon in zip(loaded, m["icons"], strict=True):
            assert width > 0, f"{src} did not load"
            if icon["sizes"] != "any":
                assert f"{width}x{height}" == icon["sizes"], src
        # The page names its theme colour and a light and a dark icon.
        assert page.locator("meta[name=theme-color]").count() >= 1
        for scheme in ("light", "dark"):
            icons = page.locator(f"link[rel=icon][media='(prefers-color-scheme: {scheme})']")
            assert icons.count() == 2, scheme  # an SVG and a PNG
            for href in icons.evaluate_all("links => links.map((l) => l.getAttribute('href'))"):
                assert page.request.get(url + href).ok, href
        touch = page.locator("link[rel=apple-touch-icon]").get_attribute("href")
        assert touch is not None and page.request.get(url + touch).ok
    finally:
        ctx.close()


def test_chromium_finds_the_site_installable(
    browser_type: BrowserType,
    browser_type_launch_args: dict[str, Any],
    live_server: Any,
    tmp_path: Path,
) -> None:
    """In a profile of its own: Chromium installs nothing from an incognito context,
    which every other test's context is."""
    url = live_server.url
    profile = str(tmp_path / "profile")
    ctx = browser_type.launch_persistent_context(profile, **browser_type_launch_args)
    page = ctx.pages[0] if ctx.pages else ctx.new_page()
    try:
        under_control(page, url)
        cdp = ctx.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], errors
        state = page.evaluate(
            """async () => { const r = await navigator.serviceWorker.getRegistration('/');
                return { scope: r.scope, script: r.active && r.active.scriptURL }; }"""
        )
        assert state == {"scope": url + "/", "script": url + "/sw.js"}
    finally:
        ctx.close()


def test_offline_a_page_says_so_in_the_reader_s_language(
    browser: Browser, live_server: Any
) -> None:
    url = live_server.url
    ctx = browser.new_context(locale="pt-PT")
    page = ctx.new_page()
    try:
        under_control(page, url)
        ctx.set_offline(True)
        page.goto(url + "/lobby")
        expect(page.locator("html")).to_have_attribute("lang", "pt")
        expect(page.locator("h1")).to_have_text("Está sem ligação")
        expect(page.locator("main")).to_contain_text("As suas partidas esperam por si")
        assert page.url == url + "/lobby"  # the address asked for, to try again
        # The API is never answered from a cache: offline it fails, as it should.
        assert page.evaluate(
            "fetch('/api/health').then(() => 'answered', () => 'failed')"
        ) == "failed"
        ctx.set_offline(False)
        page.get_by_role("link", name="Tentar de novo").click()
        expect(page.locator("h1")).to_have_text("Salão")

        # A new language is followed: the worker fetches its offline page again.
        page.locator("#language-pick summary").click()
        page.get_by_role("button", name="Slovenčina").click()
        expect(page.locator("html")).to_have_attribute("lang", "sk")
        for _ in range(75):
            if page.evaluate(KEPT_LANGUAGE) == "sk":
                break
            page.wait_for_timeout(200)
        assert page.evaluate(KEPT_LANGUAGE) == "sk"
        ctx.set_offline(True)
        page.goto(url + "/rules")
        expect(page.locator("h1")).to_have_text("Nie ste pripojení")
        ctx.set_offline(False)
    finally:
        ctx.close()
