"""Web Push end to end: browsers subscribe with keys the test made, a push service
of our own on 127.0.0.1 receives what the worker sends, and the test decrypts it
with the browser's private key and checks the VAPID token, as a push service and a
browser would. The worker gets its own clock (``now``), as in test_notify.py."""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import time
from datetime import datetime, timedelta
from typing import Any

import http_ece
import pytest
from aiohttp import web
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from sqlalchemy import select, update
from test_notify import DAY, Player, play_turn, player, start_match
from web_helpers import play_out

from jackpot.i18n import gettext, use_locale
from jackpot.web.base.clock import utcnow
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables.core import users
from jackpot.web.base.tables.notify import notices
from jackpot.web.base.tables.push import push_sends
from jackpot.web.notify.notices import GRACE
from jackpot.web.notify.outbox import backoff
from jackpot.web.notify.push.sender import push_step


@pytest.fixture
def settings(settings: Any) -> Any:
    """The push service of these tests listens on http://127.0.0.1."""
    return dataclasses.replace(settings, push_allow_local=True, push_max_subscriptions=3)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    """A push service on 127.0.0.1: keeps every request, answers 201 unless told."""

    def __init__(self) -> None:
        self.got: list[tuple[str, dict[str, str], bytes]] = []
        self.answer: dict[str, int] = {}
        self.origin = ""

    async def handle(self, request: web.Request) -> web.Response:
        self.got.append((request.path, dict(request.headers), await request.read()))
        return web.Response(status=self.answer.get(request.path, 201))

    async def __aenter__(self) -> PushService:
        app = web.Application()
        app.router.add_post("/{tail:.*}", self.handle)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        host, port = self.runner.addresses[0][:2]
        self.origin = f"http://{host}:{port}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.runner.cleanup()

    def to(self, path: str) -> list[tuple[dict[str, str], bytes]]:
        return [(h, b) for p, h, b in self.got if p == path]


class Browser:
    """One browser's push subscription: its own P-256 key pair and auth secret."""

    def __init__(self, service: PushService, name: str) -> None:
        self.path = f"/push/{name}"
        self.endpoint = service.origin + self.path
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.id: int | None = None

    def subscription(self) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64(point), "auth": b64(self.auth)}}

    async def subscribe(self, p: Player) -> None:
        r = await p.client.post("/api/push/subscriptions", json=self.subscription())
        assert r.status_code == 201, r.text
        self.id = r.json()["id"]

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return dict(json.loads(plain))


def check_vapid(headers: dict[str, str], public_key: str, audience: str) -> dict[str, Any]:
    """RFC 8292: ``vapid t=<JWT>, k=<key>``, the JWT signed (ES256) by that key."""
    scheme, _, rest = headers["Authorization"].partition(" ")
    assert scheme == "vapid"
    params = dict(part.strip().split("=", 1) for part in rest.split(","))
    assert params["k"] == public_key
    head, claims_b64, signature = params["t"].split(".")
    assert json.loads(unb64(head)) == {"typ": "JWT", "alg": "ES256"}
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(params["k"]))
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    signed = f"{head}.{claims_b64}".encode()
    key.verify(der, signed, ec.ECDSA(hashes.SHA256()))
    # The check can fail: the same token does not verify under another key.
    other = ec.generate_private_key(ec.SECP256R1()).public_key()
    with pytest.raises(InvalidSignature):
        other.verify(der, signed, ec.ECDSA(hashes.SHA256()))
    claims = dict(json.loads(unb64(claims_b64)))
    assert claims["aud"] == audience
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    assert claims["sub"].startswith("mailto:")
    return claims


def after_grace(t0: datetime) -> datetime:
    return t0 + GRACE + timedelta(seconds=5)


# -- a turn between two people, pushed, decrypted --------------------------------------


async def test_a_turn_is_pushed_encrypted_and_signed(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    db: Database = app.state.db
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    async with PushService() as service:
        phone = Browser(service, "ben-phone")
        await phone.subscribe(ben)
        public_key = (await ben.client.get("/api/push/key")).json()["public_key"]
        state = await start_match(ana, ben)
        t0 = utcnow()
        state = await play_turn(ana, state)  # now it is Ben's throw
        assert state["turn"]["seat"] == 1
        # Within the grace nothing goes: Ben may be on the page.
        assert await push_step(db, settings, t0 + GRACE / 2) == 0
        assert service.got == []
        assert await push_step(db, settings, after_grace(t0)) == 1
        [(headers, body)] = service.to(phone.path)
        assert headers["Content-Encoding"] == "aes128gcm"
        assert int(headers["TTL"]) > 0
        check_vapid(headers, public_key, service.origin)
        message = phone.decrypt(body)
        assert message["title"] == "Your throw"
        assert ana.name in message["body"] and "Jackpot" in message["body"]
        assert message["url"] == f"/matches/{state['id']}"
        # At most one per turn: later passes send nothing more.
        assert await push_step(db, settings, after_grace(t0) + timedelta(minutes=5)) == 0
        assert len(service.got) == 1
        # Ana had no browser registered: nothing for her turn at the start.
        assert all(p == phone.path for p, _, _ in service.got)


async def test_no_push_when_the_player_moved_within_the_grace(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await player(make_client), await player(make_client)
    async with PushService() as service:
        await Browser(service, "ana").subscribe(ana)
        t0 = utcnow()
        state = await start_match(ana, ben)
        r = await ana.client.post(f"/api/matches/{state['id']}/throw", json={})
        assert r.status_code == 200
        assert await push_step(app.state.db, settings, after_grace(t0)) == 0
        assert service.got == []
        async with app.state.db.read() as conn:
            rows = (await conn.execute(select(push_sends.c.status))).scalars().all()
        assert list(rows) == []  # her move deleted the turn's news: nothing to take up


async def test_a_short_deadlines_turn_is_pushed_while_there_is_time(  # type: ignore[no-untyped-def]
    app, make_client, settings
) -> None:
    """A minute a throw: the push waits a fifth of it, not the full grace, even when
    the mail's hourly cap has moved the notice's ``send_after`` on."""
    ana, ben = await player(make_client), await player(make_client)
    async with PushService() as service:
        await Browser(service, "ana").subscribe(ana)
        t0 = utcnow()
        state = await start_match(ana, ben, deadline=60)
        async with app.state.db.write() as conn:
            await conn.execute(
                update(notices)
                .where(notices.c.match_id == state["id"])
                .values(send_after=t0 + timedelta(hours=1))
            )
        assert await push_step(app.state.db, settings, t0 + timedelta(seconds=5)) == 0
        assert await push_step(app.state.db, settings, t0 + timedelta(seconds=20)) == 1
        assert await push_step(app.state.db, settings, t0 + timedelta(seconds=50)) == 0
        assert len(service.got) == 1


async def test_a_410_deletes_the_subscription_and_others_still_get_it(
    app, make_client, settings
) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await player(make_client), await player(make_client)
    async with PushService() as service:
        laptop, old_phone = Browser(service, "laptop"), Browser(service, "old-phone")
        await laptop.subscribe(ana)
        await old_phone.subscribe(ana)
        service.answer[old_phone.path] = 410  # the browser dropped this subscription
        t0 = utcnow()
        await start_match(ana, ben)
        assert await push_step(app.state.db, settings, after_grace(t0)) == 1
        assert len(service.to(laptop.path)) == 1 and len(service.to(old_phone.path)) == 1
        assert laptop.decrypt(service.to(laptop.path)[0][1])["title"] == "Your throw"
        listed = (await ana.client.get("/api/push/subscriptions")).json()["subscriptions"]
        assert [s["id"] for s in listed] == [laptop.id]
        assert listed[0]["last_ok_at"] is not None


async def test_a_failing_push_service_is_retried_with_backoff(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    db: Database = app.state.db
    ana, ben = await player(make_client), await player(make_client)
    async with PushService() as service:
        good, flaky = Browser(service, "good"), Browser(service, "flaky")
        await good.subscribe(ana)
        await flaky.subscribe(ana)
        service.answer[flaky.path] = 503
        t0 = utcnow()
        await start_match(ana, ben)
        now = after_grace(t0)
        assert await push_step(db, settings, now) == 1
        async with db.read() as conn:
            [send] = (await conn.execute(select(push_sends))).all()
        assert send.status == "pending" and send.attempts == 1 and "503" in send.error
        assert send.next_at == now + backoff(1)
        assert await push_step(db, settings, now + backoff(1) / 2) == 0  # backing off
        assert len(service.to(flaky.path)) == 1
        del service.answer[flaky.path]  # the push service is back
        assert await push_step(db, settings, now + backoff(1)) == 1
        # The flaky browser got it on the retry; the good one was not sent it twice.
        assert len(service.to(flaky.path)) == 2 and len(service.to(good.path)) == 1
        assert flaky.decrypt(service.to(flaky.path)[1][1])["title"] == "Your throw"
        async with db.read() as conn:
            [send] = (await conn.execute(select(push_sends))).all()
        assert send.status == "sent"


async def test_the_reminder_at_a_fifth_of_the_time_left(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await player(make_client), await player(make_client)
    async with PushService() as service:
        phone = Browser(service, "ana")
        await phone.subscribe(ana)
        state = await start_match(ana, ben, deadline=DAY)
        due = datetime.fromisoformat(state["turn"]["due_at"].replace("Z", "+00:00"))
        remind_at = due - timedelta(seconds=DAY / 5)
        assert await push_step(app.state.db, settings, remind_at - timedelta(minutes=1)) == 1
        assert [phone.decrypt(b)["title"] for _, b in service.to(phone.path)] == ["Your throw"]
        assert await push_step(app.state.db, settings, remind_at + timedelta(seconds=1)) == 1
        reminder = phone.decrypt(service.to(phone.path)[-1][1])
        assert reminder["title"] == "Time is running out"
        assert reminder["body"] == (
            f"Time left for your throw in Jackpot against {ben.name}: 4 hours 47 minutes. "
            "Miss it and you are out of the match."
        )
        assert service.to(phone.path)[-1][0]["Urgency"] == "high"


async def test_pushes_are_in_the_accounts_language_else_the_browsers(
    app, make_client, settings
) -> None:  # type: ignore[no-untyped-def]
    """As mails: the language the account chose; an account that never chose one
    (from before languages) hears each browser in the page's language at sign-up."""
    db: Database = app.state.db
    ana, ben = await player(make_client), await player(make_client)
    async with PushService() as service:
        english, portuguese = Browser(service, "en"), Browser(service, "pt")
        await english.subscribe(ana)
        r = await ana.client.post(
            "/api/push/subscriptions",
            json=portuguese.subscription(),
            headers={"Accept-Language": "pt-PT,pt;q=0.9"},
        )
        assert r.status_code == 201
        async with db.write() as conn:
            await conn.execute(update(users).where(users.c.id == ana.id).values(locale=None))
        t0 = utcnow()
        await start_match(ana, ben, deadline=DAY)
        assert await push_step(db, settings, after_grace(t0)) == 1
        en = english.decrypt(service.to(english.path)[0][1])
        pt = portuguese.decrypt(service.to(portuguese.path)[0][1])
        assert en["title"] == "Your throw" and pt["title"] == "A sua vez de lançar"
        assert pt["body"].startswith(
            f"É a sua vez de lançar na partida de Jackpot contra {ben.name}."
        )
        assert "Prazo: faltam 23 horas" in pt["body"]
        assert pt["url"] == en["url"]
        # Ana picks Slovak: from now on both browsers hear Slovak, as her mails do.
        r = await ana.client.patch("/api/account", json={"locale": "sk"})
        assert r.status_code == 200, r.text
        t1 = utcnow()
        await start_match(ana, ben, deadline=DAY)
        assert await push_step(db, settings, after_grace(t1)) == 1
        for browser in (english, portuguese):
            message = browser.decrypt(service.to(browser.path)[-1][1])
            with use_locale("sk"):
                assert message["title"] == gettext("Your throw") != "Your throw"


async def test_a_rematch_offer_is_pushed(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await player(make_client), await player(make_client)
    state = (
        await ana.client.post(
            "/api/matches",
            json={"seats": 2, "bots": 0, "variant": "classic", "deadline_seconds": DAY},
        )
    ).json()
    state = (await ben.client.post(f"/api/matches/{state['id']}/join", json={})).json()
    state = await play_out({0: ana.client, 1: ben.client}, state)
    async with PushService() as service:
        phone = Browser(service, "ben")
        await phone.subscribe(ben)
        t0 = utcnow()
        r = await ana.client.post(f"/api/matches/{state['id']}/rematch", json={})
        assert r.status_code == 200, r.text
        # Ben also hears that the match is over unless his own move ended it (the
        # dice say which): one push per notice.
        async with app.state.db.read() as conn:
            ended = (
                await conn.execute(
                    select(notices.c.key).where(
                        notices.c.match_id == state["id"], notices.c.kind == "ended"
                    )
                )
            ).all()
        assert await push_step(app.state.db, settings, after_grace(t0)) == 1 + len(ended)
        pushed = [phone.decrypt(data) for _headers, data in service.to(phone.path)]
        [message] = [m for m in pushed if m["kind"] == "rematch"]
        assert message["title"] == "Rematch offered"
        assert message["body"] == f"{ana.name} offers you a rematch of your Classic match."
        assert message["url"] == f"/matches/{state['id']}"
