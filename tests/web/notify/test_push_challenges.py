"""A challenge reaches the challenged player's browsers by push, through the worker the
site runs (the background steps web/wiring.py plugs together), encrypted and signed
as a turn's push is; one answered before its push went, or retried after, sends
nothing."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from sqlalchemy import select, update
from test_notify import player
from test_push import Browser, PushService, check_vapid

from jackpot.i18n import gettext, use_locale
from jackpot.i18n.formats import duration
from jackpot.web.base.clock import utcnow
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables.core import users
from jackpot.web.base.tables.push import push_sends
from jackpot.web.notify.outbox import backoff
from jackpot.web.notify.push.sender import push_step
from jackpot.web.people.push import CHALLENGE_PUSHES
from jackpot.web.wiring import background_steps

HOUR = 3600


@pytest.fixture
def settings(settings: Any) -> Any:
    """The push service of these tests listens on http://127.0.0.1."""
    return dataclasses.replace(settings, push_allow_local=True)


def wired_push(db: Database, settings: Any) -> Any:
    """The push step as the site runs it, with every source web/wiring.py gives it."""
    [step] = [s for s in background_steps(db, settings) if s.name == "push"]
    return step.run


async def test_a_challenge_is_pushed_to_the_challenged_player(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    db: Database = app.state.db
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    push = wired_push(db, settings)
    async with PushService() as service:
        phone = Browser(service, "ben-phone")
        await phone.subscribe(ben)
        public_key = (await ben.client.get("/api/push/key")).json()["public_key"]
        body = {"to": ben.name, "variant": "classic", "deadline_seconds": HOUR}
        r = await ana.client.post("/api/challenges", json=body)
        assert r.status_code == 201, r.text
        # No grace: the challenge goes on the worker's next pass.
        assert await push() == 1
        [(headers, sent)] = service.to(phone.path)
        check_vapid(headers, public_key, service.origin)
        assert headers["Topic"] == r.json()["id"].replace("_", "-")[:32]
        message = phone.decrypt(sent)
        assert message["title"] == "You are challenged"
        assert message["body"] == (
            f"{ana.name} challenges you to a match of Classic, 1 hour per throw. "
            "Accept or decline it on Play now."
        )
        assert (message["url"], message["kind"]) == ("/play-now", "challenge")
        # Once: later passes send nothing more; Ana, who has no browser, hears nothing.
        assert await push() == 0
        assert len(service.got) == 1


async def test_a_challenge_is_pushed_in_the_players_language(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    db: Database = app.state.db
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    async with db.write() as conn:
        await conn.execute(update(users).where(users.c.id == ben.id).values(locale="sk"))
    async with PushService() as service:
        phone = Browser(service, "ben")
        await phone.subscribe(ben)
        body = {"to": ben.name, "variant": "jackpot", "deadline_seconds": 2 * HOUR}
        assert (await ana.client.post("/api/challenges", json=body)).status_code == 201
        assert await push_step(db, settings, sources=[CHALLENGE_PUSHES]) == 1
        message = phone.decrypt(service.to(phone.path)[0][1])
    with use_locale("sk"):
        title = gettext("You are challenged")
        opening = gettext(
            "%(name)s challenges you to a match of Jackpot, %(time)s per throw.",
            name=ana.name,
            time=duration(2 * HOUR),
        )
    assert title != "You are challenged" and message["title"] == title
    assert message["body"].startswith(opening) and ana.name in opening


async def test_a_challenge_answered_before_a_retry_is_dropped(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    db: Database = app.state.db
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    async with PushService() as service:
        phone = Browser(service, "ben")
        await phone.subscribe(ben)
        service.answer[phone.path] = 503  # the push service is down
        body = {"to": ben.name, "variant": "jackpot", "deadline_seconds": HOUR}
        cid = (await ana.client.post("/api/challenges", json=body)).json()["id"]
        now = utcnow()
        assert await push_step(db, settings, now, sources=[CHALLENGE_PUSHES]) == 0
        async with db.read() as conn:
            [send] = (await conn.execute(select(push_sends))).all()
        assert (send.key, send.status, send.attempts) == (f"challenge:{cid}", "pending", 1)
        assert send.next_at == now + backoff(1)
        # Ana withdraws it; the service is back, but there is no news left to give.
        assert (await ana.client.delete(f"/api/challenges/{cid}")).status_code == 200
        del service.answer[phone.path]
        assert await push_step(db, settings, now + backoff(1), sources=[CHALLENGE_PUSHES]) == 0
        assert len(service.to(phone.path)) == 1
        async with db.read() as conn:
            [send] = (await conn.execute(select(push_sends))).all()
        assert send.status == "dropped"
        # A challenge withdrawn before its first push sends nothing at all.
        cid = (await ana.client.post("/api/challenges", json=body)).json()["id"]
        assert (await ana.client.delete(f"/api/challenges/{cid}")).status_code == 200
        assert await push_step(db, settings, sources=[CHALLENGE_PUSHES]) == 0
        assert len(service.got) == 1
