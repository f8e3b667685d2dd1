"""News of a match's end: a mail and a push to the player the clock put out, and to
the others when the match is over (on time, by play or by a resignation: to all but
the one whose own action ended it), under the turn mail setting, and "My matches"
saying how the match ended (on time or by a resignation). The sweeper
and the workers get their own clock (``now``), as in test_notify.py."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Any

import pytest
from test_notify import DAY, Player, body, mails_to, notice_rows, player, start_match
from test_push import Browser, PushService
from web_helpers import bot_match, move, play_out, seated

from jackpot.web.base.clock import utcnow
from jackpot.web.base.storage.db import Database
from jackpot.web.notify.mailer import mail_step
from jackpot.web.notify.notices import GRACE
from jackpot.web.notify.push.sender import push_step
from jackpot.web.play.sweeper import sweep_once


@pytest.fixture
def settings(settings: Any) -> Any:
    """The push service of these tests listens on http://127.0.0.1 (test_push.py)."""
    return dataclasses.replace(settings, push_allow_local=True)


def due_of(state: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(state["turn"]["due_at"].replace("Z", "+00:00"))


async def time_out(app: Any, state: dict[str, Any]) -> datetime:
    """Let the throw due in ``state`` pass; the sweeper's time."""
    late = due_of(state) + timedelta(seconds=1)
    assert await sweep_once(app.state.db, late) == 1
    return late


def to(received: list[EmailMessage], p: Player) -> list[EmailMessage]:
    return [m for m in received if m["To"] == p.email]


def text_of(msg: Any) -> str:
    """The plain text as received over SMTP, transfer encoding undone."""
    return str(msg.get_payload(decode=True).decode(msg.get_content_charset() or "utf-8"))


async def test_a_time_out_is_mailed_to_both_players(app, make_client, smtp) -> None:  # type: ignore[no-untyped-def]
    settings, received = smtp
    db: Database = app.state.db
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    state = await start_match(ana, ben)  # Ana's throw, a day to make it
    late = await time_out(app, state)
    kinds = {(r.kind, r.seat) for r in await notice_rows(db, state["id"])}
    assert {("out", 0), ("ended", 1)} <= kinds
    # Like turn news, after the grace: nothing at once.
    assert await mail_step(db, settings, late + GRACE / 2) == 0
    assert await mail_step(db, settings, late + GRACE + timedelta(seconds=1)) == 2
    [lost] = to(received, ana)
    assert lost["Subject"] == f"You ran out of time in Jackpot against {ben.name}"
    text = text_of(lost)
    assert "you are out of the match" in text and "You finished in place 2." in text
    assert f"/matches/{state['id']}" in text
    [won] = to(received, ben)
    assert won["Subject"] == f"Your Jackpot match against {ana.name} is over"
    assert f"{ana.name} ran out of time" in text_of(won)
    assert "You finished in place 1." in text_of(won)
    # Once: later passes send nothing more.
    assert await mail_step(db, settings, late + timedelta(hours=3)) == 0
    assert len(received) == 2


async def test_the_mail_setting_holds_for_news_of_the_end(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    db: Database = app.state.db
    ana, ben = await player(make_client), await player(make_client)
    await ben.client.put("/api/account/notifications", json={"turn_mail": "off"})
    # Ten minutes a throw: by default (mails for deadlines of an hour or more) none.
    short = await start_match(ana, ben, deadline=600)
    late = await time_out(app, short)
    assert await mail_step(db, settings, late + GRACE * 2) == 0
    await ana.client.put("/api/account/notifications", json={"turn_mail": "all"})
    state = await start_match(ana, ben, deadline=DAY)
    late = await time_out(app, state)
    assert await mail_step(db, settings, late + GRACE * 2) == 1
    [mail] = mails_to(settings, ana)
    assert mail["Subject"].startswith("You ran out of time")
    assert mails_to(settings, ben) == []  # Ben wants no mail


async def test_a_player_out_on_time_while_the_others_play_on(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    db: Database = app.state.db
    ana, ben, cy = [await player(make_client) for _ in range(3)]
    state = await start_match(ana, ben, cy)
    late = await time_out(app, state)
    rows = await notice_rows(db, state["id"])
    assert [r.seat for r in rows if r.kind == "out"] == [0]
    assert [r for r in rows if r.kind == "ended"] == []  # the match goes on
    await mail_step(db, settings, late + GRACE * 2)
    [mail] = mails_to(settings, ana)
    assert "you are out of the match" in body(mail)
    assert "You finished in place" not in body(mail)  # no place yet
    page = (await ana.client.get("/my")).text
    assert "You are out: your time ran out" in page


async def test_a_resignation_is_said_on_my_matches_and_mailed_to_the_other(  # type: ignore[no-untyped-def]
    app, make_client, smtp
) -> None:
    """The one who resigned did it on the page: no news for them. The other, maybe
    away for days at their own pace, is told."""
    settings, received = smtp
    db: Database = app.state.db
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    state = await start_match(ana, ben)
    r = await ana.client.post(f"/api/matches/{state['id']}/resign")
    assert r.status_code == 200, r.text
    rows = await notice_rows(db, state["id"])
    assert [(r.kind, r.seat) for r in rows if r.kind in ("out", "ended")] == [("ended", 1)]
    page = (await ben.client.get("/my")).text
    assert f"Finished, place 1 ({ana.name} resigned)" in page
    assert "Finished, place 2 (you resigned)" in (await ana.client.get("/my")).text
    assert await mail_step(db, settings, utcnow() + GRACE + timedelta(seconds=1)) == 1
    [mail] = to(received, ben)
    assert mail["Subject"] == f"Your Jackpot match against {ana.name} is over"
    text = text_of(mail)
    assert f"{ana.name} resigned, and your Jackpot match against {ana.name} is over." in text
    assert "You finished in place 1." in text and f"/matches/{state['id']}" in text
    assert to(received, ana) == []


async def test_the_last_resignation_is_news_to_all_the_others(app, make_client, smtp) -> None:  # type: ignore[no-untyped-def]
    """Ana resigned first (the match went on), Ben's resignation ends it: Ana and Cy
    are told that Ben resigned, each with their own place; Ben is not."""
    settings, received = smtp
    db: Database = app.state.db
    ana, ben, cy = [await player(make_client, n) for n in ("Ana", "Ben", "Cy")]
    state = await start_match(ana, ben, cy)
    assert (await ana.client.post(f"/api/matches/{state['id']}/resign")).status_code == 200
    assert [r for r in await notice_rows(db, state["id"]) if r.kind == "ended"] == []
    assert (await ben.client.post(f"/api/matches/{state['id']}/resign")).status_code == 200
    assert await mail_step(db, settings, utcnow() + GRACE + timedelta(seconds=1)) == 2
    assert to(received, ben) == []
    [won], [lost] = to(received, cy), to(received, ana)
    assert f"{ben.name} resigned, and your Jackpot match" in text_of(won)
    assert "You finished in place 1." in text_of(won)
    assert f"{ben.name} resigned, and your Jackpot match" in text_of(lost)
    assert "You finished in place 3." in text_of(lost)


async def finish_by_play(players: list[Player], state: dict[str, Any]) -> tuple[Any, Player]:
    """Play a match to its end (a shut box), each throw and cover by its seat's
    player: the match as it ended and the player whose move ended it."""
    by_seat = await seated([p.client for p in players], state["id"])
    who = {id(p.client): p for p in players}
    last = players[0]
    for _ in range(5000):
        if state["status"] == "finished":
            return state, last
        c = by_seat[state["turn"]["seat"]]
        r = await move(c, state)
        assert r.status_code == 200, r.text
        state, last = r.json(), who[id(c)]
    raise AssertionError("the match did not end")


async def test_a_match_ended_by_play_is_mailed_to_the_other_player(app, make_client, smtp) -> None:  # type: ignore[no-untyped-def]
    settings, received = smtp
    db: Database = app.state.db
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    state, mover = await finish_by_play([ana, ben], await start_match(ana, ben))
    other = ben if mover is ana else ana
    rows = await notice_rows(db, state["id"])
    assert [(r.kind, r.user_id) for r in rows if r.kind in ("out", "ended")] == [
        ("ended", other.id)
    ]
    assert await mail_step(db, settings, utcnow() + GRACE + timedelta(seconds=1)) == 1
    assert to(received, mover) == []
    [mail] = to(received, other)
    assert mail["Subject"] == f"Your Jackpot match against {mover.name} is over"
    text = text_of(mail)
    place = state["result"]["places"][[ana, ben].index(other)]
    assert f"Your Jackpot match against {mover.name} is over." in text
    assert f"You finished in place {place}." in text
    assert "resigned" not in text and "ran out of time" not in text


async def test_a_bot_match_ends_with_no_news(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    """Its only person ended it, by play or by resigning: nobody to tell."""
    db: Database = app.state.db
    ana = await player(make_client)
    played = await play_out([ana.client], await bot_match(ana.client, "jackpot"))
    resigned = await bot_match(ana.client, "jackpot")
    r = await ana.client.post(f"/api/matches/{resigned['id']}/resign")
    assert r.status_code == 200 and r.json()["status"] == "finished", r.text
    for mid in (played["id"], resigned["id"]):
        assert [r for r in await notice_rows(db, mid) if r.kind in ("out", "ended")] == []
    assert await mail_step(db, settings, utcnow() + timedelta(hours=3)) == 0


async def test_mail_off_holds_for_news_of_a_resignation(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    db: Database = app.state.db
    ana, ben = await player(make_client), await player(make_client)
    await ben.client.put("/api/account/notifications", json={"turn_mail": "off"})
    state = await start_match(ana, ben)
    assert (await ana.client.post(f"/api/matches/{state['id']}/resign")).status_code == 200
    assert [r.kind for r in await notice_rows(db, state["id"])].count("ended") == 1
    assert await mail_step(db, settings, utcnow() + timedelta(hours=3)) == 0
    assert mails_to(settings, ben) == [] and mails_to(settings, ana) == []


async def test_a_resignation_is_pushed_to_the_other(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    db: Database = app.state.db
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    async with PushService() as service:
        phone = Browser(service, "ben-phone")
        await phone.subscribe(ben)
        state = await start_match(ana, ben)
        assert (await ana.client.post(f"/api/matches/{state['id']}/resign")).status_code == 200
        assert await push_step(db, settings, utcnow() + GRACE + timedelta(seconds=5)) == 1
        [(_headers, data)] = service.to(phone.path)
        message = phone.decrypt(data)
        assert message["title"] == "Match over"
        assert message["body"] == (
            f"{ana.name} resigned. Your Jackpot match against {ana.name} is over. "
            "You finished in place 1."
        )


async def test_a_time_out_is_pushed(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    db: Database = app.state.db
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    async with PushService() as service:
        phone = Browser(service, "ana-phone")
        await phone.subscribe(ana)
        state = await start_match(ana, ben)
        late = await time_out(app, state)
        assert await push_step(db, settings, late + GRACE + timedelta(seconds=5)) == 1
        [(_headers, data)] = service.to(phone.path)
        message = phone.decrypt(data)
        assert message["title"] == "Out of time"
        assert ben.name in message["body"] and "you are out" in message["body"]
        assert message["url"] == f"/matches/{state['id']}"


async def test_my_matches_says_a_match_was_lost_on_time(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    state = await start_match(ana, ben)
    await time_out(app, state)
    mine = (await ana.client.get("/api/my/matches")).json()["matches"]
    assert [(m["id"], m["out"], m["ended_by"]) for m in mine] == [(state["id"], "timeout", None)]
    theirs = (await ben.client.get("/api/my/matches")).json()["matches"]
    assert theirs[0]["ended_by"] == {"name": ana.name, "reason": "timeout"}
    assert "Finished, place 2 (you ran out of time)" in (await ana.client.get("/my")).text
    page = (await ben.client.get("/my")).text
    assert f"Finished, place 1 ({ana.name} ran out of time)" in page


async def test_a_rematch_offer_rides_with_the_news_of_the_end(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    db: Database = app.state.db
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    state = await start_match(ana, ben)
    late = await time_out(app, state)
    r = await ben.client.post(f"/api/matches/{state['id']}/rematch", json={})
    assert r.status_code == 200, r.text
    # Ben offering a rematch knows the match is over: his "ended" news goes.
    kinds = [(r.kind, r.seat) for r in await notice_rows(db, state["id"])]
    assert ("ended", 1) not in kinds and ("out", 0) in kinds
    await mail_step(db, settings, late + GRACE * 2)
    assert mails_to(settings, ben) == []
    [mail] = mails_to(settings, ana)
    # One match: the subject says its end, not "news from 2 matches".
    assert mail["Subject"] == f"You ran out of time in Jackpot against {ben.name}"
    text = body(mail)
    assert "you are out of the match" in text and f"{ben.name} offers a rematch" in text
