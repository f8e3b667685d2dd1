"""The installable site's server side: the manifest (in the reader's language, its icons
all there) and the offline page the service worker keeps (no script, nothing else to
load, in the reader's language and theme)."""

from __future__ import annotations

import re
import struct
from pathlib import Path
from typing import Any

from web_helpers import sign_up

STATIC = Path(__file__).resolve().parents[3] / "src" / "jackpot" / "static"


async def test_the_manifest_names_the_site_and_its_icons(client: Any) -> None:
    r = await client.get("/manifest.webmanifest", headers={"Accept-Language": "et"})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/manifest+json")
    m = r.json()
    assert m["lang"] == "et" and m["description"].startswith("Sulge kast")
    assert m["start_url"] == "/" and m["display"] == "standalone"
    sizes = {(i["sizes"], i.get("purpose", "any")) for i in m["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in m["icons"]:
        path = STATIC / icon["src"].removeprefix("/static/")
        assert path.is_file(), icon["src"]
        served = await client.get(icon["src"])
        assert served.status_code == 200 and served.headers["content-type"] == icon["type"]


async def test_the_offline_page_needs_nothing_more_from_the_server(client: Any) -> None:
    r = await client.get("/offline", headers={"Accept-Language": "ms", "Cookie": "theme=dark"})
    assert r.status_code == 200
    page = r.text
    assert '<html lang="ms" data-theme="dark">' in page
    assert "Anda di luar talian" in page
    assert "<script" not in page
    # Nothing it would have to fetch: no stylesheet, image or script by address.
    assert not re.search(r'<(link|img|script)\b[^>]*(href|src)="/', page)


async def test_the_favicon_is_the_sites_icon(client) -> None:  # type: ignore[no-untyped-def]
    """/favicon.ico, asked for by programs that do not read the page's <head>, was 404:
    it is the 192 px icon, held whole in a one-image .ico."""
    r = await client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"] == "image/x-icon"
    reserved, kind, count = struct.unpack("<HHH", r.content[:6])
    assert (reserved, kind, count) == (0, 1, 1)
    width, height, _colours, _zero, _planes, _bits, size, offset = struct.unpack(
        "<BBBBHHII", r.content[6:22]
    )
    assert (width, height, offset) == (192, 192, 22)
    png = (STATIC / "icons" / "icon-192.png").read_bytes()
    assert r.content[offset:] == png and size == len(png)


async def test_the_api_documentation_is_a_page_to_read(make_client) -> None:  # type: ignore[no-untyped-def]
    """The account page's "the API's documentation" opened raw JSON: it links a page
    that lists every path of the schema with what it does, in the reader's language."""
    ana = await make_client()
    await sign_up(ana, "Ana")
    account = (await ana.get("/account", headers={"accept": "text/html"})).text
    assert '<a href="/api-docs">' in account
    r = await ana.get("/api-docs", headers={"accept": "text/html", "accept-language": "pt"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    schema = (await ana.get("/api/openapi.json")).json()
    row = r"<td><code>(GET|POST|PUT|PATCH|DELETE)</code></td><td><code lang=\"en\">([^<]+)</code>"
    listed = set(re.findall(row, r.text))
    wanted = {
        (method.upper(), path)
        for path, ops in schema["paths"].items()
        for method in ops
        if method in ("get", "post", "put", "patch", "delete")
    }
    assert listed == wanted and ("POST", "/api/matches/{match_id}/throw") in listed
    assert '<html lang="pt"' in r.text and 'href="/api/openapi.json"' in r.text
