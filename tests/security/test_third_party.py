"""Issue 40 item 7: no script of another origin, on any page or in any header.

The attack's finding: ``/api/docs`` (FastAPI's Swagger UI) loaded
``swagger-ui-dist@5`` from a CDN, a floating version without ``integrity``, and
the site widened its Content-Security-Policy for that CDN: whoever controls it
ran script on our origin. The page is gone (the schema is the documentation), the
policy is one for every response, and every page of the site is read here for a
script, a module import or a stylesheet from elsewhere.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from web_helpers import play_out, sign_up

from jackpot.web.app import ROUTERS, STATIC_DIR

#: Page routes with parameters, and how to fill them (the rest take none).
FILL = {
    "{name}": "Ana",
    "{token}": "no-such-token",
    "{day}": datetime.now(UTC).date().isoformat(),
    "{variant}": "jackpot",
    "{tournament_id}": "t_0000000000000000",
}


class Refs(HTMLParser):
    """Every address a page loads code or style from."""

    def __init__(self) -> None:
        super().__init__()
        self.loads: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "script" and a.get("src"):
            self.loads.append(str(a["src"]))
        if tag == "link" and a.get("href") and (a.get("rel") or "") in (
            "stylesheet", "modulepreload", "preload", "icon", "manifest"
        ):
            self.loads.append(str(a["href"]))
        if tag in ("iframe", "object", "embed") and (a.get("src") or a.get("data")):
            self.loads.append(str(a.get("src") or a.get("data")))


def elsewhere(url: str) -> bool:
    """An address on another origin (absolute, or protocol-relative)."""
    return bool(re.match(r"^\s*([a-z][a-z0-9+.-]*:|//|\\\\)", url, re.I)) and not url.startswith(
        "data:"
    )


def csp_sources(policy: str) -> dict[str, list[str]]:
    out = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


async def pages(client: Any) -> list[str]:
    """Every page of the site, parameters filled with things that exist."""
    await sign_up(client, "Ana")
    r = await client.post("/api/matches", json={"seats": 2, "bots": 1})
    state = await play_out([client], r.json())
    paths = []
    for router in ROUTERS:
        for route in router.routes:
            methods = getattr(route, "methods", None) or ()
            if "GET" not in methods or route.path.startswith("/api"):
                continue
            path = route.path.replace("{match_id}", state["id"])
            for hole, value in FILL.items():
                path = path.replace(hole, value)
            assert "{" not in path, path
            paths.append(path)
    return [*paths, "/api/docs"]  # where FastAPI's page with a CDN's scripts was


async def test_no_page_or_header_loads_another_origins_script(client) -> None:  # type: ignore[no-untyped-def]
    checked = 0
    for path in await pages(client):
        r = await client.get(path, follow_redirects=True)
        assert r.status_code < 500, (path, r.status_code)
        policy = csp_sources(r.headers["content-security-policy"])
        for directive in ("default-src", "script-src", "style-src", "connect-src"):
            assert all(s.startswith("'") for s in policy.get(directive, [])), (path, policy)
        assert "'unsafe-inline'" not in policy["script-src"], path
        if "html" in r.headers.get("content-type", ""):
            refs = Refs()
            refs.feed(r.text)
            assert not [u for u in refs.loads if elsewhere(u)], (path, refs.loads)
            checked += 1
    assert checked >= 15


def test_no_static_script_imports_from_another_origin() -> None:
    scripts = sorted(Path(STATIC_DIR).rglob("*.js"))
    assert scripts
    for script in scripts:
        text = script.read_text()
        imports = re.findall(r"""(?:import|from)\s*\(?\s*["']([^"']+)["']""", text)
        assert not [i for i in imports if elsewhere(i)], (script.name, imports)
        assert "importScripts(" not in text or "importScripts(\"/" in text, script.name


async def test_the_docs_page_is_gone_and_points_at_the_schema(client) -> None:  # type: ignore[no-untyped-def]
    r = await client.get("/api/docs")
    assert r.status_code == 308 and r.headers["location"] == "/api/openapi.json"
    r = await client.get("/api/docs", follow_redirects=True)
    assert r.status_code == 200 and r.json()["openapi"].startswith("3.")
    assert "cdn" not in r.headers["content-security-policy"]
