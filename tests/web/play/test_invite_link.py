"""The invite link on a waiting match's page is made from the configured base URL,
whatever Host the request names, and is shown only to a seated player."""

from __future__ import annotations

import dataclasses
from typing import Any

import httpx
import pytest
from web_helpers import sign_up

# http: an https base URL makes the session cookie Secure, which this http client drops.
BASE = "http://games.example.org"


@pytest.fixture
def settings(settings: Any) -> Any:
    """The site's own address is set; a second host is allowed, as behind a proxy."""
    return dataclasses.replace(
        settings, base_url=BASE, allowed_hosts=("testserver", "other.example.net")
    )


async def test_the_invite_link_comes_from_the_base_url_not_the_host(make_client) -> None:  # type: ignore[no-untyped-def]
    ana, visitor = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    r = await ana.post("/api/matches", json={"seats": 2, "bots": 0})
    assert r.status_code == 201, r.text
    mid = r.json()["id"]
    page = await ana.get(f"/matches/{mid}", headers={"host": "other.example.net"})
    assert page.status_code == 200
    assert f'id="invite-url" type="text" readonly value="{BASE}/matches/{mid}"' in page.text
    assert "other.example.net" not in page.text
    assert 'id="invite-copy"' in page.text
    # A visitor is asked to take the seat, not to invite anyone.
    seen: httpx.Response = await visitor.get(f"/matches/{mid}")
    assert 'id="invite-url"' not in seen.text
