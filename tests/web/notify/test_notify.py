"""Turn mails, digests, the hourly cap, reminders, unsubscribe links and exactly-once
sending. Moves go through the API at the real time; the mail worker is given its
own clock (``now``), so the grace period, the cap and the reminder time are tested
without waiting and without timing assertions."""

from __future__ import annotations

import asyncio
import dataclasses
import re
import socket
from datetime import datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import httpx
import pytest
from itsdangerous import URLSafeSerializer
from sqlalchemy import select, update
from web_helpers import join_in_joining_order, sign_up

from jackpot.web.base.clock import utcnow
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.notify import notices
from jackpot.web.notify import listeners, mailer
from jackpot.web.notify.mailer import mail_step
from jackpot.web.notify.notices import GRACE, grace
from jackpot.web.notify.outbox import backoff
from jackpot.web.notify.prefs import read_unsubscribe_token, unsubscribe_token
from jackpot.web.notify.push.sender import push_step
from jackpot.web.play.move_plan import MovePlan
from jackpot.web.play.storage.move_statements import MoveWrites

DAY = 86400
_names = iter(range(10_000))


class Player:
    def __init__(self, client: httpx.AsyncClient, name: str, user_id: int) -> None:
        self.client, self.name, self.id = client, name, user_id

    @property
    def email(self) -> str:
        return f"{self.name.lower()}@example.org"


async def player(make_client: Any, prefix: str = "P") -> Player:
    c = await make_client()
    name = f"{prefix}{next(_names)}"
    me = await sign_up(c, name)
    return Player(c, name, me["id"])


async def start_match(first: Player, *others: Player, deadline: int = DAY) -> dict[str, Any]:
    state = (
        await first.client.post(
            "/api/matches",
            json={"seats": 1 + len(others), "bots": 0, "deadline_seconds": deadline},
        )
    ).json()
    # These tests are about mails, not the order of play: the last to join picks a
    # client seed that draws the joining order, so ``first`` throws first.
    for k, p in enumerate(others):
        if k == len(others) - 1:
            r = await join_in_joining_order(p.client, state["id"])
        else:
            r = await p.client.post(f"/api/matches/{state['id']}/join", json={})
        assert r.status_code == 200, r.text
        state = r.json()
    assert state["status"] == "playing"
    return state


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def outbox(settings: Any) -> list[EmailMessage]:
    box: Path = settings.outbox_dir
    if not box.exists():
        return []
    return [
        message_from_bytes(p.read_bytes(), policy=policy.default)  # type: ignore[misc]
        for p in sorted(box.glob("*.eml"))
    ]


def mails_to(settings: Any, p: Player) -> list[EmailMessage]:
    return [m for m in outbox(settings) if m["To"] == p.email]


def body(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    assert part is not None
    return str(part.get_content())


async def notice_rows(db: Database, match_id: str) -> list[Any]:
    async with db.read() as conn:
        return list(
            (
                await conn.execute(
                    select(notices).where(notices.c.match_id == match_id).order_by(notices.c.id)
                )
            ).all()
        )


async def play_turn(p: Player, state: dict[str, Any]) -> dict[str, Any]:
    """Play ``p``'s current turn to its end (always covering the last option)."""
    mid = state["id"]
    seat = state["turn"]["seat"]
    for _ in range(50):
        if state["status"] != "playing" or state["turn"]["seat"] != seat:
            return state
        turn = state["turn"]
        if turn["dice"] is None:
            r = await p.client.post(f"/api/matches/{mid}/throw", json={})
        else:
            r = await p.client.post(
                f"/api/matches/{mid}/cover", json={"tiles": turn["options"][-1]}
            )
        assert r.status_code == 200, r.text
        state = r.json()
    raise AssertionError("the turn did not end")


# -- turn mails ----------------------------------------------------------------------


async def test_a_turn_mail_after_the_grace_period_once(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    t0 = utcnow()
    state = await start_match(ana, ben)
    db: Database = app.state.db
    # Within the grace period nothing goes: Ana may be looking at the page.
    assert await mail_step(db, settings, t0 + GRACE / 2) == 0
    assert outbox(settings) == []
    later = t0 + GRACE + timedelta(seconds=5)
    assert await mail_step(db, settings, later) == 1
    [msg] = outbox(settings)
    assert msg["To"] == ana.email
    assert ben.name in msg["Subject"] and "Your throw" in msg["Subject"]
    text = body(msg)
    assert f"/matches/{state['id']}" in text
    assert "Deadline: in 23 hours" in text and " UTC)." in text
    assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # Exactly once: later passes find nothing more to say.
    assert await mail_step(db, settings, later + timedelta(minutes=5)) == 0
    assert await mail_step(db, settings, later + timedelta(hours=2)) == 0
    assert len(outbox(settings)) == 1
    rows = await notice_rows(db, state["id"])
    assert [(r.kind, r.status) for r in rows if r.kind == "turn"] == [("turn", "sent")]


async def test_no_mail_when_the_player_moves_within_the_grace(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await player(make_client), await player(make_client)
    t0 = utcnow()
    state = await start_match(ana, ben)
    r = await ana.client.post(f"/api/matches/{state['id']}/throw", json={})
    assert r.status_code == 200
    assert await mail_step(app.state.db, settings, t0 + GRACE + timedelta(seconds=5)) == 0
    assert outbox(settings) == []
    rows = await notice_rows(app.state.db, state["id"])
    assert [r for r in rows if r.kind == "turn"] == []  # deleted with her move


async def test_a_turns_news_goes_with_the_players_first_move(  # type: ignore[no-untyped-def]
    app, make_client, settings, monkeypatch
) -> None:
    """A move deletes the mover's turn news still waiting. After their first move of a
    turn there is none left, so the moves after it skip the statement (the match as
    this process keeps it knows), until the turn comes back with news of its own."""
    ana, ben = await player(make_client), await player(make_client)
    state = await start_match(ana, ben)
    db: Database = app.state.db
    dropped: list[int] = []
    writes_of = MovePlan.writes

    def spy(self: MovePlan) -> MoveWrites:
        writes = writes_of(self)
        if writes.drop_turn is not None:
            dropped.append(writes.drop_turn)
        return writes

    monkeypatch.setattr(MovePlan, "writes", spy)

    async def waiting() -> list[int]:
        rows = await notice_rows(db, state["id"])
        return [r.seat for r in rows if r.kind == "turn" and r.status == "pending"]

    assert await waiting() == [0]
    state = await play_turn(ana, state)  # a throw, a cover, ...: several moves
    assert dropped == [0]
    assert await waiting() == [1]  # Ben's news
    state = await play_turn(ben, state)
    assert dropped == [0, 1]
    if state["status"] == "playing":
        assert await waiting() == [0]  # the turn came back to Ana, with news
        r = await ana.client.post(f"/api/matches/{state['id']}/throw", json={})
        assert r.status_code == 200, r.text
        assert dropped == [0, 1, 0] and await waiting() == []


async def test_short_deadlines_mail_only_those_who_ask(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await player(make_client), await player(make_client)
    cid, dan = await player(make_client), await player(make_client)
    eve, fay = await player(make_client), await player(make_client)
    t0 = utcnow()
    await start_match(ana, ben, deadline=3599)  # under an hour: no mail by default
    r = await cid.client.put("/api/account/notifications", json={"turn_mail": "all"})
    assert r.status_code == 200 and r.json() == {"turn_mail": "all"}
    await start_match(cid, dan, deadline=300)
    # An hour or more, the account page's words and the reminders' rule: mailed.
    await start_match(eve, fay, deadline=3600)
    assert await mail_step(app.state.db, settings, t0 + timedelta(minutes=2)) == 2
    assert sorted(m["To"] for m in outbox(settings)) == sorted([cid.email, eve.email])


async def test_a_short_deadlines_turn_mail_comes_while_there_is_time(  # type: ignore[no-untyped-def]
    app, make_client, settings
) -> None:
    """With a minute a throw, the full grace would hold the mail for the whole minute:
    it waits a fifth of the deadline instead, and still goes once."""
    ana, ben = await player(make_client), await player(make_client)
    r = await ana.client.put("/api/account/notifications", json={"turn_mail": "all"})
    assert r.status_code == 200
    t0 = utcnow()
    await start_match(ana, ben, deadline=60)
    db: Database = app.state.db
    assert grace(60) == timedelta(seconds=12) and grace(DAY) == GRACE
    assert await mail_step(db, settings, t0 + timedelta(seconds=5)) == 0
    assert await mail_step(db, settings, t0 + timedelta(seconds=20)) == 1
    assert [m["To"] for m in outbox(settings)] == [ana.email]
    assert await mail_step(db, settings, t0 + timedelta(seconds=50)) == 0
    assert len(outbox(settings)) == 1


async def test_matches_against_bots_send_no_turn_mail(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    ana = await player(make_client)
    r = await ana.client.post("/api/matches", json={"seats": 2, "bots": 1, "deadline_seconds": DAY})
    assert r.status_code == 201
    assert await mail_step(app.state.db, settings, utcnow() + timedelta(hours=23)) == 0
    assert await notice_rows(app.state.db, r.json()["id"]) == []


# -- digests and the hourly cap --------------------------------------------------------


async def test_digest_batches_and_holds_news_for_an_hour(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    db: Database = app.state.db
    ana = await player(make_client, "Ana")
    rivals = [await player(make_client, "Riv") for _ in range(4)]
    t0 = utcnow()
    first = [await start_match(ana, r) for r in rivals[:3]]
    assert await mail_step(db, settings, t0 + timedelta(minutes=2)) == 1
    [digest] = mails_to(settings, ana)
    assert digest["Subject"] == "Your throw in 3 matches"
    text = body(digest)
    for st, r in zip(first, rivals[:3], strict=True):
        assert f"/matches/{st['id']}" in text and r.name in text

    # A fourth match becomes Ana's throw: no second mail within the hour...
    fourth = await start_match(ana, rivals[3])
    assert await mail_step(db, settings, t0 + timedelta(minutes=30)) == 0
    assert await mail_step(db, settings, t0 + timedelta(minutes=61)) == 0
    assert len(mails_to(settings, ana)) == 1
    # ...then one digest once the hour since the first is over, with only what still waits.
    await play_turn(ana, first[0])
    assert await mail_step(db, settings, t0 + timedelta(minutes=63)) >= 1
    second = mails_to(settings, ana)[1:]
    assert len(second) == 1
    assert f"/matches/{fourth['id']}" in body(second[0])
    assert second[0]["Subject"].startswith("Your throw in ")
    # Ana's turn in the first match ended, so its rival got a mail of his own.
    assert [m["Subject"] for m in mails_to(settings, rivals[0])] == [
        f"Your throw in Jackpot against {ana.name}"
    ]


async def test_held_news_rides_along_with_a_reminder(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    db: Database = app.state.db
    ana = await player(make_client, "Ana")
    ben, cid, dan = [await player(make_client, "Riv") for _ in range(3)]
    t0 = utcnow()
    # An hour's deadline: a turn mail by default (an hour or more), and a reminder at
    # 48 minutes.
    hourly = await start_match(ana, ben, deadline=3600)
    daily = await start_match(ana, cid)
    assert await mail_step(db, settings, t0 + timedelta(minutes=2)) == 1
    [first] = mails_to(settings, ana)
    assert f"/matches/{daily['id']}" in body(first) and f"/matches/{hourly['id']}" in body(first)
    late = await start_match(ana, dan)  # news held by the cap until t0 + 62 min
    assert await mail_step(db, settings, t0 + timedelta(minutes=20)) == 0
    assert await mail_step(db, settings, t0 + timedelta(minutes=49)) == 1
    second = mails_to(settings, ana)[1]
    assert second["Subject"].startswith("Time is running out for a throw; 2 matches")
    text = body(second)
    assert f"/matches/{hourly['id']}" in text and f"/matches/{late['id']}" in text
    assert "Miss it and you are out" in text
    # The held news went with the reminder: nothing is left for the end of the hour.
    assert await mail_step(db, settings, t0 + timedelta(minutes=70)) == 0
    assert len(mails_to(settings, ana)) == 2


# -- reminders ---------------------------------------------------------------------


async def test_the_reminder_fires_once_when_a_fifth_is_left(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    db: Database = app.state.db
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    state = await start_match(ana, ben)
    due = datetime.fromisoformat(state["turn"]["due_at"].replace("Z", "+00:00"))
    remind_at = due - timedelta(seconds=DAY / 5)  # 4 h 48 min before the end
    assert await mail_step(db, settings, remind_at - timedelta(hours=19)) == 1  # the turn mail
    assert await mail_step(db, settings, remind_at - timedelta(seconds=10)) == 0
    assert await mail_step(db, settings, remind_at + timedelta(seconds=1)) == 1
    reminder = mails_to(settings, ana)[-1]
    assert reminder["Subject"].startswith("Reminder: 4 hours 47 minutes left")
    assert "Miss it and you are out" in body(reminder)
    # Once per throw: nothing more however often the worker looks.
    for minutes in (1, 30, 200):
        assert await mail_step(db, settings, remind_at + timedelta(minutes=minutes)) == 0
    assert len(mails_to(settings, ana)) == 2
    assert mails_to(settings, ben) == []


async def test_a_throw_replaces_the_reminder_of_the_one_before(  # type: ignore[no-untyped-def]
    app, make_client, settings, monkeypatch
) -> None:
    """When the pending reminder is near its time (here: every reminder is, by a
    leeway of two days), each new throw due rewrites it for itself."""
    monkeypatch.setattr(listeners, "REMINDER_LEEWAY", timedelta(days=2))
    db: Database = app.state.db
    ana, ben = await player(make_client), await player(make_client)
    state = await start_match(ana, ben)
    mid = state["id"]
    ana_seat = state["turn"]["seat"]  # start_match lets Ana throw first
    players = {ana_seat: ana, 1 - ana_seat: ben}
    for _ in range(4):  # throws and covers; each new throw due gets its own reminder
        # A throw with nothing to cover passes the turn: whoever has it moves.
        state = await move_whoever(players, state)
    rows = [r for r in await notice_rows(db, mid) if r.kind == "reminder"]
    due_now = datetime.fromisoformat(state["turn"]["due_at"].replace("Z", "+00:00"))
    pending = [r for r in rows if r.status == "pending"]
    assert len(pending) == 1
    assert abs(pending[0].due_at - due_now) < timedelta(seconds=1)  # the page shows whole seconds
    assert pending[0].user_id == (ana.id if state["turn"]["seat"] == ana_seat else ben.id)


async def move_whoever(players: dict[int, Player], state: dict[str, Any]) -> dict[str, Any]:
    """One move by whoever has the turn: a throw, or a cover of the first option."""
    turn = state["turn"]
    mover = players[turn["seat"]]
    mid = state["id"]
    if turn["dice"] is None:
        r = await mover.client.post(f"/api/matches/{mid}/throw", json={})
    else:
        r = await mover.client.post(f"/api/matches/{mid}/cover", json={"tiles": turn["options"][0]})
    assert r.status_code == 200, r.text
    return dict(r.json())


async def next_throw_of_the_same_turn(
    players: dict[int, Player], state: dict[str, Any]
) -> dict[str, Any]:
    """Moves (whoever has the turn) until a seat has covered and must throw again:
    the second throw of one turn is due."""
    for _ in range(100):
        turn = state["turn"]
        if turn["dice"] is None and len(turn["open"]) < 9:  # it covered: a throw again
            return state
        state = await move_whoever(players, state)
        assert state["status"] == "playing"
    raise AssertionError("no turn went on to a second throw")


async def test_a_turns_reminder_is_moved_on_to_the_throw_then_due(  # type: ignore[no-untyped-def]
    app, make_client, settings
) -> None:
    """Within a turn the moves leave its reminder as written (its time is far off),
    and the workers move it on to the throw due when that time comes: one mail, at a
    fifth of the time left for the throw then due, under that throw's key."""
    db: Database = app.state.db
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    state = await start_match(ana, ben)
    mid = state["id"]
    players = {state["turn"]["seat"]: ana, 1 - state["turn"]["seat"]: ben}
    state = await next_throw_of_the_same_turn(players, state)
    who = players[state["turn"]["seat"]]
    rows = await notice_rows(db, mid)
    [old] = [r for r in rows if r.status == "pending" and r.kind == "reminder"]
    assert old.user_id == who.id
    throws_now = (await db_state(db, mid))["throws"]
    assert old.key != f"remind:{mid}:{throws_now}:{old.seat}"  # written when the turn began
    # The second throw came, say, six hours after the first.
    later = old.due_at + timedelta(hours=6)
    async with db.write() as conn:
        await conn.execute(update(t.matches).where(t.matches.c.id == mid).values(due_at=later))
    # At the old reminder's time: moved on (by whichever worker looks first), not sent.
    assert await push_step(db, settings, old.send_after + timedelta(seconds=1)) == 0
    assert await mail_step(db, settings, old.send_after + timedelta(seconds=1)) in (0, 1)
    assert not [m for m in mails_to(settings, who) if m["Subject"].startswith("Reminder")]
    [moved] = [r for r in await notice_rows(db, mid) if r.kind == "reminder"]
    assert moved.id == old.id and moved.status == "pending"
    assert moved.key == f"remind:{mid}:{throws_now}:{old.seat}"
    assert moved.due_at == later and moved.send_after == later - timedelta(seconds=DAY / 5)
    # At its new time it goes out once.
    assert await mail_step(db, settings, moved.send_after + timedelta(seconds=1)) == 1
    assert mails_to(settings, who)[-1]["Subject"].startswith("Reminder: 4 hours 47 minutes")
    assert await mail_step(db, settings, moved.send_after + timedelta(minutes=5)) == 0
    [sent] = [r for r in await notice_rows(db, mid) if r.kind == "reminder"]
    assert sent.status == "sent"


async def db_state(db: Database, match_id: str) -> dict[str, Any]:
    async with db.read() as conn:
        state = (
            await conn.execute(select(t.matches.c.state).where(t.matches.c.id == match_id))
        ).scalar_one()
    return dict(state)


async def test_a_reminder_moved_on_while_its_mail_goes_is_still_sent_later(  # type: ignore[no-untyped-def]
    app, make_client, settings, monkeypatch
) -> None:
    """A move rewrites the match's pending reminder for the next throw (a new key). If
    that happens while the mail about the old one is going out, marking that mail
    sent must leave the new reminder pending: it is sent at its own time."""
    db: Database = app.state.db
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    state = await start_match(ana, ben)
    mid = state["id"]
    due = datetime.fromisoformat(state["turn"]["due_at"].replace("Z", "+00:00"))
    remind_at = due - timedelta(seconds=DAY / 5)
    assert await mail_step(db, settings, remind_at - timedelta(hours=19)) == 1  # the turn mail
    [old] = [r for r in await notice_rows(db, mid) if r.kind == "reminder"]
    real_send = mailer.send_mail

    async def send_then_move(*args: Any, **kw: Any) -> None:
        await real_send(*args, **kw)
        await play_turn(ana, state)  # a throw and its covers: the next throw is due

    monkeypatch.setattr(mailer, "send_mail", send_then_move)
    assert await mail_step(db, settings, remind_at + timedelta(seconds=1)) == 1
    monkeypatch.setattr(mailer, "send_mail", real_send)
    [new] = [r for r in await notice_rows(db, mid) if r.kind == "reminder"]
    assert new.key != old.key
    assert new.status == "pending" and new.attempts == 0
    assert new.send_after > remind_at
    # At its time it goes out, to whoever must throw now.
    who = ana if new.user_id == ana.id else ben
    before = len(mails_to(settings, who))
    assert await mail_step(db, settings, new.send_after + timedelta(seconds=1)) >= 1
    assert len(mails_to(settings, who)) == before + 1
    assert mails_to(settings, who)[-1]["Subject"].startswith("Reminder")


async def test_no_reminder_for_deadlines_under_an_hour(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await player(make_client), await player(make_client)
    await ana.client.put("/api/account/notifications", json={"turn_mail": "all"})
    state = await start_match(ana, ben, deadline=1800)
    rows = await notice_rows(app.state.db, state["id"])
    assert [r.kind for r in rows] == ["turn"]


async def test_two_people_one_day_match(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    """The issue's "done": each gets one clear mail when it becomes their throw and
    one reminder before it runs out."""
    db: Database = app.state.db
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    t0 = utcnow()
    state = await start_match(ana, ben)
    assert await mail_step(db, settings, t0 + timedelta(minutes=2)) == 1
    state = await play_turn(ana, state)
    assert state["turn"]["seat"] == 1
    t1 = utcnow()
    assert await mail_step(db, settings, t1 + timedelta(minutes=2)) == 1
    due = datetime.fromisoformat(state["turn"]["due_at"].replace("Z", "+00:00"))
    assert await mail_step(db, settings, due - timedelta(hours=4)) == 1  # Ben's reminder
    assert [m["Subject"] for m in mails_to(settings, ana)] == [
        f"Your throw in Jackpot against {ben.name}"
    ]
    subjects = [m["Subject"] for m in mails_to(settings, ben)]
    assert subjects[0] == f"Your throw in Jackpot against {ana.name}"
    assert subjects[1].startswith("Reminder: ") and ana.name in subjects[1]
    assert len(subjects) == 2


# -- unsubscribe ---------------------------------------------------------------------


async def test_the_unsubscribe_link_works_without_login(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    db: Database = app.state.db
    ana, ben = await player(make_client), await player(make_client)
    t0 = utcnow()
    await start_match(ana, ben)
    assert await mail_step(db, settings, t0 + timedelta(minutes=2)) == 1
    [msg] = outbox(settings)
    link = re.search(r"http://localhost:8000(/unsubscribe/\S+)", body(msg))
    assert link is not None
    assert msg["List-Unsubscribe"].strip() == f"<http://localhost:8000{link.group(1)}>"
    stranger = await make_client()  # no session at all
    page = await stranger.get(link.group(1))
    assert page.status_code == 200 and "Stop these mails" in page.text
    assert (await ana.client.get("/api/account/notifications")).json()["turn_mail"] == "long"
    done = await stranger.post(link.group(1))
    assert done.status_code == 200 and 'id="unsubscribed"' in done.text
    assert (await ana.client.get("/api/account/notifications")).json()["turn_mail"] == "off"
    # No more mail for Ana: neither turn news nor reminders.
    cid = await player(make_client)
    t1 = utcnow()
    await start_match(ana, cid)
    assert await mail_step(db, settings, t1 + timedelta(hours=20)) == 0
    assert len(outbox(settings)) == 1


async def test_a_mail_clients_one_click_post_unsubscribes(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    ana = await player(make_client)
    token = unsubscribe_token(settings, ana.id)
    mailer = await make_client()
    r = await mailer.post(
        f"/unsubscribe/{token}",
        content="List-Unsubscribe=One-Click",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 200
    assert (await ana.client.get("/api/account/notifications")).json()["turn_mail"] == "off"


async def test_unsubscribe_links_cannot_be_forged(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await player(make_client), await player(make_client)
    good = unsubscribe_token(settings, ana.id)
    assert read_unsubscribe_token(settings, good) == ana.id
    payload, sig = good.split(".")
    # Ben's id with Ana's signature; a key guessed wrong; a damaged signature.
    bens_payload = unsubscribe_token(settings, ben.id).split(".")[0]
    forged = [
        f"{bens_payload}.{sig}",
        URLSafeSerializer("not the site's key", salt="jackpot-unsubscribe/1").dumps({"u": ben.id}),
        URLSafeSerializer(settings.secret_key, salt="another purpose").dumps({"u": ben.id}),
        f"{payload}.{sig[:-2]}{'AA' if sig[-2:] != 'AA' else 'BB'}",
        "x" * 300,
        "",
    ]
    stranger = await make_client()
    for token in forged:
        assert read_unsubscribe_token(settings, token) is None, token
        r = await stranger.post(f"/unsubscribe/{token}")
        assert r.status_code in (400, 404), token
    assert (await ben.client.get("/api/account/notifications")).json()["turn_mail"] == "long"
    # A token signed by another site's key is refused even for the right account.
    other = dataclasses.replace(settings, secret_key="a different key, 32 characters!")
    assert read_unsubscribe_token(other, good) is None


async def test_the_account_page_sets_the_mail_choice(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    ana = await player(make_client)
    page = await ana.client.get("/account")
    assert page.status_code == 200
    assert re.search(r'value="long"\s+checked', page.text)
    csrf = ana.client.cookies.get("jackpot_csrf")
    r = await ana.client.post(
        "/account/mail", data={"csrf_token": csrf, "turn_mail": "all"}, follow_redirects=True
    )
    assert r.status_code == 200 and re.search(r'value="all"\s+checked', r.text)
    assert "Mail setting saved" in r.text
    bad = await ana.client.put("/api/account/notifications", json={"turn_mail": "sometimes"})
    assert bad.status_code == 422


async def test_my_turns_lists_waiting_people_matches(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await player(make_client), await player(make_client)
    state = await start_match(ana, ben)
    await ana.client.post("/api/matches", json={"seats": 2, "bots": 1, "deadline_seconds": DAY})
    mine = (await ana.client.get("/api/my/turns")).json()["matches"]
    assert [m["id"] for m in mine] == [state["id"]]
    assert (await ben.client.get("/api/my/turns")).json()["matches"] == []
    page = await ana.client.get("/")
    assert '<script type="module" src="/static/notify.js">' in page.text


# -- sending: several sweepers, failures, SMTP --------------------------------------------


@pytest.mark.pg
async def test_two_sweepers_send_each_mail_once(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    players = [await player(make_client) for _ in range(8)]
    t0 = utcnow()
    for a, b in zip(players[::2], players[1::2], strict=True):
        await start_match(a, b)
        await start_match(b, a)  # each of the eight waits in one match
    others = [Database(settings.database_url) for _ in range(2)]
    later = t0 + timedelta(minutes=2)
    try:
        for _ in range(3):
            counts = await asyncio.gather(
                mail_step(app.state.db, settings, later),
                *(mail_step(db, settings, later) for db in others),
            )
            later += timedelta(seconds=1)
            if sum(counts):
                assert sum(counts) == 8
    finally:
        for db in others:
            await db.dispose()
    box = outbox(settings)
    assert sorted(m["To"] for m in box) == sorted(p.email for p in players)


async def test_a_failed_send_is_retried_with_backoff(app, make_client, settings, tmp_path) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await player(make_client), await player(make_client)
    t0 = utcnow()
    state = await start_match(ana, ben)
    # Nothing listens on this port: the SMTP connection is refused.
    broken = dataclasses.replace(settings, smtp_host="127.0.0.1", smtp_port=free_port())
    db: Database = app.state.db
    now = t0 + timedelta(minutes=2)
    assert await mail_step(db, broken, now) == 0
    [turn] = [r for r in await notice_rows(db, state["id"]) if r.kind == "turn"]
    assert turn.status == "pending" and turn.attempts == 1 and turn.error
    assert turn.send_after == now + backoff(1)
    assert await mail_step(db, broken, now + backoff(1) / 2) == 0  # not yet: backing off
    [turn] = [r for r in await notice_rows(db, state["id"]) if r.kind == "turn"]
    assert turn.attempts == 1
    assert await mail_step(db, broken, now + backoff(1)) == 0
    [turn] = [r for r in await notice_rows(db, state["id"]) if r.kind == "turn"]
    assert turn.attempts == 2 and turn.send_after == now + backoff(1) + backoff(2)
    # The server is back: the mail goes, once.
    assert await mail_step(db, settings, now + timedelta(minutes=10)) == 1
    assert [m["To"] for m in outbox(settings)] == [ana.email]
    assert backoff(1) < backoff(2) < backoff(3) and backoff(30) == timedelta(hours=1)


async def test_mail_goes_through_a_real_smtp_server(app, make_client, smtp) -> None:  # type: ignore[no-untyped-def]
    settings, received = smtp
    ana, ben = await player(make_client, "Ana"), await player(make_client, "Ben")
    t0 = utcnow()
    state = await start_match(ana, ben)
    assert await mail_step(app.state.db, settings, t0 + timedelta(minutes=2)) == 1
    [msg] = received
    assert msg["To"] == ana.email
    assert msg["Subject"] == f"Your throw in Jackpot against {ben.name}"
    assert msg["List-Unsubscribe"].strip().startswith("<http://localhost:8000/unsubscribe/")
    assert f"/matches/{state['id']}" in msg.get_payload()
    assert outbox(settings) == []  # SMTP, not files
