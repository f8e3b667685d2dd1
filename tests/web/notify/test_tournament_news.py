"""A tournament table ready is told to its players: on their own stream, by mail under
their mail setting, and by push to their browsers, once each; a table already over
when the news would go sends nothing."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from test_notify import player
from test_push import Browser, PushService
from web_helpers import sign_up

from jackpot.web.base.clock import iso, utcnow
from jackpot.web.base.storage.db import Database
from jackpot.web.tournaments.news import send_table_mails
from jackpot.web.wiring import background_steps


@pytest.fixture
def settings(settings: Any) -> Any:
    """The push service of these tests listens on http://127.0.0.1."""
    return dataclasses.replace(settings, push_allow_local=True)


def outbox(settings: Any) -> list[EmailMessage]:
    box: Path = settings.outbox_dir
    if not box.exists():
        return []
    return [
        message_from_bytes(p.read_bytes(), policy=policy.default)  # type: ignore[misc]
        for p in sorted(box.glob("*.eml"))
    ]


async def started(make_client: Any, *players: Any) -> tuple[str, dict[str, Any]]:
    """A tournament of ``players`` at tables of 2, started: its id and round 1."""
    maker = await make_client()
    await sign_up(maker, "Maker")
    body = {
        "name": "Winter Swiss",
        "table_size": 2,
        "rounds": 1,
        "deadline_seconds": 3600,
        "round_seconds": 86400,
        "starts_at": iso(utcnow() + timedelta(hours=1)),
        "spares": 0,
    }
    tid = (await maker.post("/api/tournaments", json=body)).json()["id"]
    for p in players:
        shown = (await p.client.post("/api/commitments")).json()["commitment"]
        r = await p.client.post(f"/api/tournaments/{tid}/entries", json={"commitment": shown})
        assert r.status_code == 201, r.text
    r = await maker.post(f"/api/tournaments/{tid}/start")
    assert r.status_code == 200, r.text
    return tid, r.json()["pairings"][0]


async def test_the_players_are_mailed_their_table(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    off = await ben.client.put("/api/account/notifications", json={"turn_mail": "off"})
    assert off.status_code == 200
    tid, first = await started(make_client, ana, ben)
    match = first["tables"][0]["match"]
    assert await send_table_mails(app.state.db, settings) == 1
    [mail] = outbox(settings)
    assert mail["To"] == ana.email
    assert mail["Subject"] == "Winter Swiss: your table is ready"
    text = mail.get_content()
    assert "Round 1 of Winter Swiss is paired: your table of Jackpot is ready." in text
    assert f"/matches/{match}" in text and f"/tournaments/{tid}" in text
    assert await send_table_mails(app.state.db, settings) == 0  # each goes once


async def test_the_players_browsers_hear_of_their_table(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    db: Database = app.state.db
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    [push] = [s.run for s in background_steps(db, settings) if s.name == "push"]
    async with PushService() as service:
        phone = Browser(service, "ana-phone")
        await phone.subscribe(ana)
        _tid, first = await started(make_client, ana, ben)
        match = first["tables"][0]["match"]
        assert await push() >= 1
        got = [phone.decrypt(sent) for _headers, sent in service.to(phone.path)]
        tables = [m for m in got if m["kind"] == "table"]
        assert len(tables) == 1
        assert tables[0]["title"] == "Your table is ready"
        assert tables[0]["body"] == f"Winter Swiss: your Jackpot table against {ben.name} is ready."
        assert tables[0]["url"] == f"/matches/{match}"
        before = len(service.got)
        assert await push() == 0
        assert len(service.got) == before
