"""Issue 40 items 3 and 4: push endpoints that wrap an IPv4 address, port 0, and one
bad subscription stopping a player's others.

The attacks: ``https://[64:ff9b::a9fe:a9fe]/latest/meta-data/`` was accepted (201):
``is_global`` is true for NAT64, local-use NAT64, 6to4 and IPv4-compatible
addresses, and behind a NAT64 gateway that one is the cloud's metadata service. A
DNS name whose AAAA pointed into ``64:ff9b::/96`` passed the check at registration
and the sender's resolver. ``:0`` was taken for 443. And a subscription whose
request could not be signed (an IPv6-literal endpoint: py-vapid raised "Missing
'aud'") ended the notice's pass, so the player's later browsers were never tried.
"""

from __future__ import annotations

import base64
import os
import socket
from datetime import timedelta
from typing import Any

import pytest
from aiohttp import web
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import select
from web_helpers import join_in_joining_order, sign_up

from jackpot.web.base.clock import utcnow
from jackpot.web.base.tables.push import push_sends, push_subscriptions
from jackpot.web.notify.notices import GRACE
from jackpot.web.notify.push import endpoints
from jackpot.web.notify.push.sender import push_step

#: Each special-purpose range that carries an IPv4 address, with 169.254.169.254 (or
#: 10.0.0.1) inside, as a literal endpoint.
WRAPPED = {
    "NAT64": "64:ff9b::a9fe:a9fe",
    "local-use NAT64": "64:ff9b:1::a9fe:a9fe",
    "6to4": "2002:a9fe:a9fe::1",
    "IPv4-compatible": "::a9fe:a9fe",
    "IPv4-mapped": "::ffff:a9fe:a9fe",
    "IPv4-translated": "::ffff:0:a9fe:a9fe",
    "Teredo": "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    "mapped private": "::ffff:10.0.0.1",
}
#: A name only these tests resolve, and what it resolves to (set per test).
FAKE_HOST = "push.nat64-test.example"
PUBLIC_V6 = "2001:4860:4860::8888"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def subscription(endpoint: str) -> dict[str, Any]:
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    point = key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return {"endpoint": endpoint, "keys": {"p256dh": b64(point), "auth": b64(os.urandom(16))}}


@pytest.fixture
def fake_dns(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """``FAKE_HOST`` resolves (AAAA only) to whatever ``answer["v6"]`` holds; other
    names resolve as usual. Both the check's ``loop.getaddrinfo`` and aiohttp's
    threaded resolver end in ``socket.getaddrinfo``."""
    answer = {"v6": PUBLIC_V6}
    real = socket.getaddrinfo

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host == FAKE_HOST:
            return [(socket.AF_INET6, socket.SOCK_STREAM, 6, "", (answer["v6"], int(port or 0),
                                                                   0, 0))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return answer


@pytest.mark.parametrize("kind", sorted(WRAPPED))
async def test_an_ipv6_address_wrapping_ipv4_is_refused(client, kind: str) -> None:  # type: ignore[no-untyped-def]
    await sign_up(client, "Ana")
    endpoint = f"https://[{WRAPPED[kind]}]/latest/meta-data/"
    r = await client.post("/api/push/subscriptions", json=subscription(endpoint))
    assert r.status_code == 422, (kind, r.status_code, r.text)
    assert r.json()["error"]["code"] == "bad_endpoint"
    assert "public internet" in r.json()["error"]["message"]
    # The sender's own resolver refuses it too, whatever the check said.
    resolver = endpoints.PublicResolver(allow_local=False)
    with pytest.raises(OSError):
        await resolver.resolve(WRAPPED[kind], 443, socket.AF_INET6)


async def test_the_ietf_protocol_assignments_are_refused(client) -> None:  # type: ignore[no-untyped-def]
    """192.0.0.0/24 (RFC 6890): Python's ``is_global`` calls 192.0.0.8 public."""
    await sign_up(client, "Ana")
    for address in ("192.0.0.8", "192.0.0.9", "192.0.0.170"):
        r = await client.post("/api/push/subscriptions",
                              json=subscription(f"https://{address}/push"))
        assert r.status_code == 422, (address, r.text)
        assert r.json()["error"]["code"] == "bad_endpoint"
    with pytest.raises(OSError):
        await endpoints.PublicResolver(allow_local=False).resolve("192.0.0.8", 443)


async def test_port_zero_is_refused(client) -> None:  # type: ignore[no-untyped-def]
    await sign_up(client, "Ana")
    for endpoint in ("https://8.8.8.8:0/push", "https://[2001:4860:4860::8888]:0/push"):
        r = await client.post("/api/push/subscriptions", json=subscription(endpoint))
        assert r.status_code == 422, (endpoint, r.text)
        assert "port" in r.json()["error"]["message"]
    # A public address on its ordinary port still passes.
    await endpoints.check("https://8.8.8.8/push", allow_local=False)


async def test_a_name_whose_aaaa_points_into_nat64_is_refused_when_registered(  # type: ignore[no-untyped-def]
    client, fake_dns
) -> None:
    await sign_up(client, "Ana")
    fake_dns["v6"] = "64:ff9b::a9fe:a9fe"
    r = await client.post("/api/push/subscriptions", json=subscription(f"https://{FAKE_HOST}/p"))
    assert r.status_code == 422, r.text
    assert "64:ff9b::a9fe:a9fe" in r.json()["error"]["message"]


async def test_a_name_that_moves_into_nat64_is_refused_at_send_time(  # type: ignore[no-untyped-def]
    app, make_client, fake_dns
) -> None:
    """Registered while the name pointed at a public address; by the time of the
    push its AAAA is in 64:ff9b::/96: nothing is sent, and the subscription goes."""
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    r = await ana.post("/api/push/subscriptions", json=subscription(f"https://{FAKE_HOST}/p"))
    assert r.status_code == 201, r.text
    fake_dns["v6"] = "64:ff9b::a00:1"  # 10.0.0.1 behind the gateway
    resolver = endpoints.PublicResolver(allow_local=False)
    with pytest.raises(OSError):
        await resolver.resolve(FAKE_HOST, 443, socket.AF_INET6)
    t0 = utcnow()
    state = (await ana.post("/api/matches", json={"seats": 2, "bots": 0,
                                                   "deadline_seconds": 86400})).json()
    assert (await join_in_joining_order(ben, state["id"])).status_code == 200
    assert await push_step(app.state.db, app.state.settings, t0 + GRACE + timedelta(seconds=5)) == 0
    async with app.state.db.read() as conn:
        assert (await conn.execute(select(push_subscriptions))).all() == []
        [send] = (await conn.execute(select(push_sends))).all()
    assert send.status == "sent"  # refused for good: nothing left to try


class PushService:
    """A push service on 127.0.0.1 that keeps the paths it was sent to."""

    def __init__(self) -> None:
        self.paths: list[str] = []

    async def handle(self, request: web.Request) -> web.Response:
        self.paths.append(request.path)
        return web.Response(status=201)

    async def __aenter__(self) -> str:
        app = web.Application()
        app.router.add_post("/{tail:.*}", self.handle)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        host, port = self.runner.addresses[0][:2]
        return f"http://{host}:{port}"

    async def __aexit__(self, *exc: object) -> None:
        await self.runner.cleanup()


async def test_one_subscription_that_cannot_be_signed_does_not_stop_the_others(  # type: ignore[no-untyped-def]
    app_with,
) -> None:
    clients = await app_with(push_allow_local=True)
    ana, ben = clients("10.0.0.1"), clients("10.0.0.2")
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    service = PushService()
    async with service as origin:
        # First an IPv6-literal endpoint (on loopback, allowed here): building its
        # VAPID token fails. Then two ordinary ones.
        v6 = subscription("http://[::1]:9/v6")
        assert (await ana.post("/api/push/subscriptions", json=v6)).status_code == 201
        for name in ("laptop", "phone"):
            sub = subscription(f"{origin}/{name}")
            assert (await ana.post("/api/push/subscriptions", json=sub)).status_code == 201
        app = ana._transport.app
        t0 = utcnow()
        state = (await ana.post("/api/matches", json={"seats": 2, "bots": 0,
                                                       "deadline_seconds": 86400})).json()
        assert (await join_in_joining_order(ben, state["id"])).status_code == 200
        pushed = await push_step(app.state.db, app.state.settings,
                                 t0 + GRACE + timedelta(seconds=5))
    assert pushed == 1
    assert sorted(service.paths) == ["/laptop", "/phone"]
    async with app.state.db.read() as conn:
        [send] = (await conn.execute(select(push_sends))).all()
        listed = (await conn.execute(select(push_subscriptions))).all()
    by_endpoint = {s.endpoint: s for s in listed}
    assert by_endpoint[f"{origin}/laptop"].last_ok_at is not None
    assert by_endpoint[f"{origin}/phone"].last_ok_at is not None
    # The one that failed stays, to be tried again with backoff.
    assert send.status == "pending" and send.attempts == 1
    assert "aud" in send.error
    assert by_endpoint["http://[::1]:9/v6"].last_ok_at is None
