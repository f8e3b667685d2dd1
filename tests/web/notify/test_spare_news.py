"""A spare deadline used is news for its seat, by mail and by push, in the seat's
language, like a turn notice but saying a spare went; with none left the seat goes
out and is told so, as without spares."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta
from typing import Any

import pytest
from test_match_end import due_of, text_of, to
from test_notify import DAY, Player, body, mails_to, notice_rows, player
from test_push import Browser, PushService
from web_helpers import join_in_joining_order

from jackpot.i18n import gettext, ngettext, use_locale
from jackpot.i18n.formats import variant_name
from jackpot.web.base.storage.db import Database
from jackpot.web.notify.mailer import mail_step
from jackpot.web.notify.notices import GRACE
from jackpot.web.notify.push.sender import push_step
from jackpot.web.play.sweeper import sweep_once


@pytest.fixture
def settings(settings: Any) -> Any:
    """The push service of these tests listens on http://127.0.0.1 (test_push.py)."""
    return dataclasses.replace(settings, push_allow_local=True)


async def spare_match(first: Player, *others: Player, spares: int = 1) -> dict[str, Any]:
    """A match with ``spares`` in which ``first`` throws first."""
    body = {"seats": 1 + len(others), "bots": 0, "deadline_seconds": DAY, "spares": spares}
    state = (await first.client.post("/api/matches", json=body)).json()
    for p in others[:-1]:
        assert (await p.client.post(f"/api/matches/{state['id']}/join", json={})).status_code == 200
    state = (await join_in_joining_order(others[-1].client, state["id"])).json()
    assert state["status"] == "playing" and state["turn"]["seat"] == 0
    return state


async def pass_deadline(app: Any, state: dict[str, Any]) -> datetime:
    late = due_of(state) + timedelta(seconds=1)
    assert await sweep_once(app.state.db, late) == 1
    return late


async def test_a_spare_used_is_mailed_and_then_the_time_out(app, make_client, smtp) -> None:  # type: ignore[no-untyped-def]
    settings, received = smtp
    db: Database = app.state.db
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    state = await spare_match(ana, ben)
    # The turn mail at the start goes first.
    assert await mail_step(db, settings, datetime.fromisoformat(
        state["turn"]["due_at"].replace("Z", "+00:00")) - timedelta(hours=23)) == 1
    late = await pass_deadline(app, state)
    rows = await notice_rows(db, state["id"])
    assert [(r.kind, r.seat) for r in rows if r.kind == "spare"] == [("spare", 0)]
    assert await mail_step(db, settings, late + GRACE + timedelta(seconds=1)) == 1
    spare = to(received, ana)[-1]
    subject = f"You missed a deadline against {ben.name}: a spare deadline was used"
    assert spare["Subject"] == subject
    text = text_of(spare)
    assert "a spare deadline was used and the deadline started again" in text
    assert "You have 0 spares left." in text and "Miss it and you are out" in text
    assert all("spare" not in m["Subject"] for m in to(received, ben))
    # One deadline later the seat, with no spare left, is out and told so.
    fresh = (await ben.client.get(f"/api/matches/{state['id']}")).json()
    out_at = await pass_deadline(app, fresh)
    assert await mail_step(db, settings, out_at + GRACE + timedelta(seconds=1)) >= 1
    last = to(received, ana)[-1]
    assert last["Subject"] == f"You ran out of time in Jackpot against {ben.name}"


@pytest.mark.parametrize("lang", ["pt", "ms", "et", "sk"])
async def test_the_spare_news_is_in_the_seat_s_language(app, make_client, settings, lang) -> None:  # type: ignore[no-untyped-def]
    db: Database = app.state.db
    ana, ben = await player(make_client), await player(make_client)
    assert (await ana.client.patch("/api/account", json={"locale": lang})).status_code == 200
    state = await spare_match(ana, ben, spares=2)
    async with PushService() as service:
        phone = Browser(service, "ana-phone")
        await phone.subscribe(ana)
        late = await pass_deadline(app, state)
        await mail_step(db, settings, late + GRACE * 2)
        await push_step(db, settings, late + GRACE * 2)
        pushed = [phone.decrypt(data) for _h, data in service.to(phone.path)]
    text = body(mails_to(settings, ana)[-1])
    with use_locale(lang):
        line = ngettext(
            "The deadline for your move in %(variant)s against %(who)s passed, so a spare "
            "deadline was used and the deadline started again. You have %(num)d spare left.",
            "The deadline for your move in %(variant)s against %(who)s passed, so a spare "
            "deadline was used and the deadline started again. You have %(num)d spares left.",
            1,
            variant=variant_name("jackpot"),
            who=ben.name,
        )
        title = gettext("Spare deadline used")
    assert line in text and "spare deadline was used" not in line
    [spare] = [m for m in pushed if m["kind"] == "spare"]
    assert spare["title"] == title != "Spare deadline used"


async def test_a_spare_used_is_pushed(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    db: Database = app.state.db
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    async with PushService() as service:
        phone = Browser(service, "ana-phone")
        await phone.subscribe(ana)
        state = await spare_match(ana, ben, spares=2)
        late = await pass_deadline(app, state)
        sent = await push_step(db, settings, late + GRACE + timedelta(seconds=5))
        assert sent >= 1
        messages = [phone.decrypt(data) for _h, data in service.to(phone.path)]
        spare = [m for m in messages if m["kind"] == "spare"]
        assert len(spare) == 1
        assert spare[0]["title"] == "Spare deadline used"
        assert spare[0]["body"].startswith(f"You missed a deadline in Jackpot against {ben.name}.")
        assert "A spare deadline was used: 1 left." in spare[0]["body"]
        assert spare[0]["url"] == f"/matches/{state['id']}"
