"""Three holes found by an attacker's pass: an http page could act on the https site,
IPv6 clients had a fresh allowance per address, and typing weak passwords used up the
sign-up allowance.

* An Origin is the same site only with the scheme the request came over (an http
  page, which anyone on the path can write, may not post to the https site), and
  only a web page's scheme at all.
* Per-address limits count an IPv6 client's /64 network as one address: a host is
  commonly given the whole /64.
* Sign-up counts every attempt (generously) and, apart, the attempts that pass the
  checks: one weak password after another no longer locks a person out.
"""

from __future__ import annotations

from jackpot.web.base.edge.client import address_bucket
from jackpot.web.base.env_values import Rate

STRONG = "correct horse battery"


async def test_an_http_page_may_not_act_on_the_https_site(app_with) -> None:  # type: ignore[no-untyped-def]
    clients = await app_with()
    secure = clients(scheme="https")
    for origin in ("http://testserver", "chrome-extension://testserver"):
        r = await secure.post("/api/matches", json={"seats": 1, "bots": 0},
                              headers={"origin": origin})
        assert r.status_code == 403 and r.json()["error"]["code"] == "cross_site", origin
    r = await secure.post("/api/matches", json={"seats": 1, "bots": 0},
                          headers={"origin": "https://testserver"})
    assert r.status_code == 201, r.text
    plain = clients()
    r = await plain.post("/api/matches", json={"seats": 1, "bots": 0},
                         headers={"origin": "ftp://testserver"})
    assert r.status_code == 403
    # Over http an https Origin still counts: a TLS proxy in front, not yet named in
    # JACKPOT_TRUSTED_PROXIES, must not stop every form.
    r = await plain.post("/api/matches", json={"seats": 1, "bots": 0},
                         headers={"origin": "https://testserver"})
    assert r.status_code == 201, r.text


def test_an_ipv6_client_counts_as_its_64() -> None:
    assert address_bucket("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64"
    assert address_bucket("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert address_bucket("::ffff:192.0.2.7") == "192.0.2.7"
    assert address_bucket("192.0.2.7") == "192.0.2.7"


async def test_addresses_of_one_64_share_an_allowance(app_with) -> None:  # type: ignore[no-untyped-def]
    clients = await app_with(address_failure_limit=Rate(3, 900))
    for i in range(3):
        r = await clients(f"2001:db8:1:2::{i + 1:x}").post(
            "/api/session", json={"email": f"u{i}@example.org", "password": "wrong password"}
        )
        assert r.status_code == 401
    r = await clients("2001:db8:1:2::99").post(
        "/api/session", json={"email": "u9@example.org", "password": "wrong password"}
    )
    assert r.status_code == 429
    r = await clients("2001:db8:1:3::1").post(
        "/api/session", json={"email": "u9@example.org", "password": "wrong password"}
    )
    assert r.status_code == 401


async def _sign_up(clients, email: str, password: str, name: str = "Ana") -> int:  # type: ignore[no-untyped-def]
    r = await clients().post(
        "/api/account", json={"email": email, "password": password, "name": name}
    )
    return int(r.status_code)


async def test_refused_sign_ups_do_not_use_up_the_sign_up_allowance(app_with) -> None:  # type: ignore[no-untyped-def]
    """A weak password, a taken name or a taken address is refused without costing one
    of the address's sign-ups; asking whether an address has an account has a count
    of its own, as low, so finding out which addresses have one stays slow."""
    clients = await app_with(signup_limit=Rate(2, 3600), signup_try_limit=Rate(11, 3600))
    for weak in ("password", "12345678", "qwertyuiop", "jackpot2026"):
        assert await _sign_up(clients, "ana@example.org", weak) == 422
    assert await _sign_up(clients, "ana@example.org", STRONG) == 201
    assert await _sign_up(clients, "ana@example.org", STRONG, "Ann") == 409
    assert await _sign_up(clients, "ann@example.org", STRONG, "Ana") == 409  # the name
    assert await _sign_up(clients, "ana@example.org", STRONG, "Ann") == 409
    assert await _sign_up(clients, "ana@example.org", STRONG, "Ann") == 429  # lookups
    # The 409s cost no sign-up: the second is made, and only then is the allowance out.
    assert await _sign_up(clients, "bea@example.org", STRONG, "Bea") == 201
    assert await _sign_up(clients, "cy@example.org", STRONG, "Cy") == 429
    # Every attempt counts against the wider limit, the refused ones included.
    assert await _sign_up(clients, "dee@example.org", "password", "Dee") == 429
