"""Web Push, the API and its checks: the server key, registering and removing
browsers, refused subscriptions and endpoints (on registration and again at send
time), and the VAPID key kept in var/. The push service of test_push.py stands in
for the browsers' own."""

from __future__ import annotations

import dataclasses
import stat
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import select, update
from test_notify import player, start_match
from test_push import Browser, PushService, after_grace, b64, unb64

from jackpot.web.base.clock import utcnow
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables.push import push_sends, push_subscriptions
from jackpot.web.notify.outbox import backoff
from jackpot.web.notify.push import endpoints
from jackpot.web.notify.push.keys import KEY_FILE, application_server_key
from jackpot.web.notify.push.sender import push_step

#: Repeated on PostgreSQL (make test): an upsert in each dialect.
pytestmark = pytest.mark.pg


@pytest.fixture
def settings(settings: Any) -> Any:
    """The push service of these tests listens on http://127.0.0.1."""
    return dataclasses.replace(settings, push_allow_local=True, push_max_subscriptions=3)


# -- the API ------------------------------------------------------------------------


async def test_the_key_and_the_subscription_api(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await player(make_client), await player(make_client)
    key = (await ana.client.get("/api/push/key")).json()["public_key"]
    point = unb64(key)
    assert len(point) == 65 and point[0] == 4
    ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)  # on the curve
    async with PushService() as service:
        one, two = Browser(service, "one"), Browser(service, "two")
        await one.subscribe(ana)
        first = one.id
        await one.subscribe(ana)  # the same browser again: the same row
        assert one.id == first
        await two.subscribe(ana)
        listed = (await ana.client.get("/api/push/subscriptions")).json()["subscriptions"]
        assert [s["endpoint"] for s in listed] == [one.endpoint, two.endpoint]
        assert (await ben.client.get("/api/push/subscriptions")).json() == {"subscriptions": []}
        # Nobody removes another account's browser.
        r = await ben.client.delete(f"/api/push/subscriptions/{one.id}")
        assert r.status_code == 404
        r = await ana.client.delete(f"/api/push/subscriptions/{one.id}")
        assert r.status_code == 204 and r.content == b""
        r = await ana.client.delete(f"/api/push/subscriptions/{one.id}")
        assert r.status_code == 404
        listed = (await ana.client.get("/api/push/subscriptions")).json()["subscriptions"]
        assert [s["id"] for s in listed] == [two.id]
        # The cap (3 here): a fourth browser is refused, and nothing is stored.
        for n in range(2):
            await Browser(service, f"more{n}").subscribe(ana)
        r = await ana.client.post(
            "/api/push/subscriptions", json=Browser(service, "extra").subscription()
        )
        assert r.status_code == 409 and r.json()["error"]["code"] == "too_many_browsers"
        listed = (await ana.client.get("/api/push/subscriptions")).json()["subscriptions"]
        assert len(listed) == 3


async def test_bad_subscriptions_get_a_clear_4xx(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    ana = await player(make_client)
    guest = await make_client()
    async with PushService() as service:
        good = Browser(service, "x").subscription()
    point, auth = good["keys"]["p256dh"], good["keys"]["auth"]
    bad: list[tuple[Any, str]] = [
        ({}, "endpoint"),
        ({"endpoint": good["endpoint"]}, "keys"),
        ({"endpoint": good["endpoint"], "keys": {"p256dh": point}}, "auth"),
        ({**good, "keys": {"p256dh": "!!!", "auth": auth}}, "p256dh"),
        ({**good, "keys": {"p256dh": point, "auth": b64(b"short")}}, "auth"),
        ({**good, "keys": {"p256dh": b64(b"\x04" + bytes(64)), "auth": auth}}, "P-256"),
        ({**good, "keys": {"p256dh": point[:-4], "auth": auth}}, "p256dh"),
        ({**good, "endpoint": "https://example.org/" + "x" * 2000}, "endpoint"),
        ({**good, "endpoint": "http://push.example.org/x"}, "https"),
        ({**good, "endpoint": "https://10.1.2.3/x"}, "public"),
        ({**good, "endpoint": "https://169.254.169.254/latest"}, "public"),
        ({**good, "endpoint": "not a url"}, "host"),
        ({**good, "endpoint": 5}, "endpoint"),
        ([1, 2], "body"),
    ]
    for body, said in bad:
        r = await ana.client.post("/api/push/subscriptions", json=body)
        assert r.status_code == 422, (body, r.text)
        assert said.lower() in r.json()["error"]["message"].lower(), (body, r.text)
    r = await ana.client.post(
        "/api/push/subscriptions", content=b"{", headers={"content-type": "application/json"}
    )
    assert r.status_code == 400
    assert (await ana.client.get("/api/push/subscriptions")).json() == {"subscriptions": []}
    assert (await ana.client.delete("/api/push/subscriptions/abc")).status_code == 422
    assert (await ana.client.delete("/api/push/subscriptions/0")).status_code == 422
    # Signing in is needed; another site's page cannot register a browser.
    assert (await guest.post("/api/push/subscriptions", json=good)).status_code == 401
    assert (await guest.get("/api/push/subscriptions")).status_code == 401
    r = await ana.client.post(
        "/api/push/subscriptions", json=good, headers={"Origin": "https://evil.example"}
    )
    assert r.status_code == 403


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://fcm.googleapis.com/fcm/send/x",  # not https
        "https://127.0.0.1/x",
        "https://localhost/x",
        "https://[::1]/x",
        "https://10.0.0.8/x",
        "https://192.168.1.1/x",
        "https://172.16.0.1/x",
        "https://100.64.0.1/x",  # shared address space
        "https://169.254.169.254/latest/meta-data",  # cloud metadata
        "https://[fe80::1]/x",
        "https://[::ffff:10.0.0.1]/x",
        "https://0.0.0.0/x",
        "https://224.0.0.1/x",
        "https://user:pw@8.8.8.8/x",
        "ftp://8.8.8.8/x",
        "https:///x",
        "https://8.8.8.8:99999/x",
        "https://no-such-host.invalid/x",
    ],
)
async def test_only_public_https_endpoints(endpoint: str) -> None:
    with pytest.raises(endpoints.EndpointRefused):
        await endpoints.check(endpoint, allow_local=False)


async def test_public_and_allowed_local_endpoints() -> None:
    await endpoints.check("https://8.8.8.8/push/abc", allow_local=False)
    await endpoints.check("https://[2001:4860:4860::8888]/push", allow_local=False)
    # Tests and demos: http on loopback, only when allowed, and only loopback.
    await endpoints.check("http://127.0.0.1:8123/push", allow_local=True)
    with pytest.raises(endpoints.EndpointRefused):
        await endpoints.check("http://127.0.0.1:8123/push", allow_local=False)
    with pytest.raises(endpoints.EndpointRefused):
        await endpoints.check("http://10.0.0.1/push", allow_local=True)


async def test_an_endpoint_gone_private_is_not_sent_to(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    """Checked again at send time: with local endpoints no longer allowed, the
    stored loopback endpoint is refused, never contacted, and forgotten."""
    ana, ben = await player(make_client), await player(make_client)
    async with PushService() as service:
        phone = Browser(service, "ana")
        await phone.subscribe(ana)
        t0 = utcnow()
        await start_match(ana, ben)
        strict = dataclasses.replace(settings, push_allow_local=False)
        assert await push_step(app.state.db, strict, after_grace(t0)) == 0
        assert service.got == []
        assert (await ana.client.get("/api/push/subscriptions")).json() == {"subscriptions": []}


async def test_a_host_that_does_not_resolve_at_send_time_is_retried_not_forgotten(
    app, make_client, settings
) -> None:  # type: ignore[no-untyped-def]
    """A DNS failure at the sweeper is no reason to drop a player's browser: the
    push waits for the backoff, and the subscription stays."""
    db: Database = app.state.db
    ana, ben = await player(make_client), await player(make_client)
    async with PushService() as service:
        phone = Browser(service, "ana")
        await phone.subscribe(ana)
    # The browser's host stops resolving after it registered.
    async with db.write() as conn:
        await conn.execute(
            update(push_subscriptions)
            .where(push_subscriptions.c.id == phone.id)
            .values(endpoint="https://no-such-host.invalid/push/ana")
        )
    t0 = utcnow()
    await start_match(ana, ben)
    now = after_grace(t0)
    assert await push_step(db, settings, now) == 0
    async with db.read() as conn:
        [send] = (await conn.execute(select(push_sends))).all()
    assert send.status == "pending" and send.attempts == 1
    assert "does not resolve" in send.error and send.next_at == now + backoff(1)
    listed = (await ana.client.get("/api/push/subscriptions")).json()["subscriptions"]
    assert [s["id"] for s in listed] == [phone.id]


# -- the keys -----------------------------------------------------------------------


async def test_the_vapid_key_is_made_once_and_kept(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    key = application_server_key(settings)
    path = settings.var_dir / KEY_FILE
    assert path.exists() and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert application_server_key(settings) == key
    # The same key given by the setting (how several machines share one) is the same.
    given = dataclasses.replace(settings, vapid_private_key=path.read_text())
    assert application_server_key(given) == key
    assert (await (await make_client()).get("/api/push/key")).json() == {"public_key": key}
