"""Issue 11 item 10 (the client's address): X-Forwarded-For counts only from the
proxies in JACKPOT_TRUSTED_PROXIES.

The attack: uvicorn believed X-Forwarded-For from 127.0.0.1, so a local client (or
one behind a careless proxy) wrote a new address on every failed login and the
per-address limit never saw it twice. Now the header is ignored unless the peer is
a trusted proxy, and the attempts all count against the peer's address.
"""

from __future__ import annotations

import httpx


def _fail_logins_until_429(c: httpx.Client, headers_for: object, tries: int = 60) -> int:
    for i in range(tries):
        r = c.post(
            "/api/session",
            json={"email": f"u{i}@example.org", "password": "wrong password"},
            headers=headers_for(i),  # type: ignore[operator]
        )
        if r.status_code == 429:
            return i
        assert r.status_code == 401, r.text
    return tries


def test_a_local_client_cannot_choose_its_address_for_the_limits(serve) -> None:  # type: ignore[no-untyped-def]
    srv = serve()
    with httpx.Client(base_url=srv.url, timeout=30) as c:
        refused_at = _fail_logins_until_429(
            c, lambda i: {"X-Forwarded-For": f"203.0.113.{i}", "X-Real-IP": f"198.51.100.{i}"}
        )
    assert refused_at < 60


def test_behind_a_trusted_proxy_each_client_has_its_own_allowance(serve) -> None:  # type: ignore[no-untyped-def]
    srv = serve(JACKPOT_TRUSTED_PROXIES="127.0.0.1")
    with httpx.Client(base_url=srv.url, timeout=30) as c:
        refused_at = _fail_logins_until_429(c, lambda i: {"X-Forwarded-For": "203.0.113.9"})
        assert refused_at < 60
        # Another client behind the same proxy is not refused.
        r = c.post("/api/session", json={"email": "a@example.org", "password": "wrong password"},
                   headers={"X-Forwarded-For": "203.0.113.10"})
        assert r.status_code == 401
