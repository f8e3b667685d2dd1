"""The installable site's server side: the manifest (in the reader's language, its icons
all there) and the offline page the service worker keeps (no script, nothing else to
load, in the reader's language and theme)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

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
