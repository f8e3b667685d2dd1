"""Issue 11 item 10 (headers): a Content-Security-Policy that allows only our own
scripts, no inline script left in any page, and HSTS and Secure cookies over https.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from jackpot.web.app import create_app
from web.web_helpers import PASSWORD, sign_up

PAGES = ["/", "/rules", "/fair-play", "/verify", "/lobby", "/watch", "/leaderboard", "/signup",
         "/login", "/reset", "/matches/new", "/my", "/account"]


def csp_of(r: httpx.Response) -> dict[str, str]:
    policy = r.headers["content-security-policy"]
    return {
        part.split()[0]: " ".join(part.split()[1:])
        for part in policy.split(";")
        if part.strip()
    }


async def test_every_page_has_a_policy_allowing_only_our_scripts(
    client: httpx.AsyncClient,
) -> None:
    await sign_up(client, "Ana")
    state = (await client.post("/api/matches", json={"seats": 2, "bots": 1})).json()
    for path in [*PAGES, f"/matches/{state['id']}", "/players/Ana", "/api/health"]:
        r = await client.get(path, headers={"accept": "text/html"})
        assert r.status_code == 200, (path, r.status_code)
        csp = csp_of(r)
        assert csp["script-src"] == "'self'", path
        assert csp["object-src"] == "'none'" and csp["frame-ancestors"] == "'none'"
        assert "strict-transport-security" not in r.headers  # plain http here
        if "text/html" in r.headers["content-type"]:
            # Nothing the policy would block: no inline script, no handler attribute.
            for tag in re.findall(r"<script\b[^>]*>", r.text):
                assert "src=" in tag or 'type="application/json"' in tag, (path, tag)
            assert not re.search(r"<[^>]+\son[a-z]+\s*=", r.text), path
            assert "javascript:" not in r.text, path


@pytest.fixture
async def https_app(settings: Any) -> AsyncIterator[Any]:
    application = create_app(dataclasses.replace(settings, base_url="https://jackpot.example"))
    async with application.router.lifespan_context(application):
        yield application


def cookies_of(r: httpx.Response) -> list[str]:
    return [v for k, v in r.headers.multi_items() if k == "set-cookie"]


async def test_https_base_url_brings_hsts_and_secure_cookies(https_app: Any) -> None:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=https_app), base_url="http://testserver"
    ) as c:
        r = await c.get("/login")
        assert r.headers["strict-transport-security"].startswith("max-age=")
        assert cookies_of(r) and all("; Secure" in v for v in cookies_of(r))
        r = await c.post(
            "/api/account", json={"email": "a@example.org", "password": PASSWORD, "name": "Ana"}
        )
        assert r.status_code == 201
        assert cookies_of(r) and all("; Secure" in v for v in cookies_of(r))


async def test_a_request_over_https_brings_hsts_and_secure_cookies(app: Any) -> None:
    """The scheme the server saw (uvicorn sets it from a trusted proxy's
    X-Forwarded-Proto) is enough, without a base URL."""
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="https://testserver"
    ) as c:
        r = await c.post("/api/matches", json={"seats": 2, "bots": 1})
        assert r.status_code == 201
        assert "strict-transport-security" in r.headers
        assert cookies_of(r) and all("; Secure" in v for v in cookies_of(r))


async def test_plain_http_cookies_are_not_marked_secure(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/matches", json={"seats": 2, "bots": 1})
    assert cookies_of(r) and not any("secure" in v.lower() for v in cookies_of(r))
