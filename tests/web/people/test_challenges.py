"""Challenges and blocks: an accepted challenge starts the match for both, the
challenge setting and blocks hold (challenges, lobby joins), and every refusal is
a clear 4xx that never says a block is one."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from sqlalchemy import select, update
from test_seeks import heard
from web_helpers import sign_up

from jackpot.web.base.clock import utcnow
from jackpot.web.base.env_values import Rate
from jackpot.web.base.tables.people import challenges
from jackpot.web.notify.outbox import LEASE, MAX_ATTEMPTS, backoff
from jackpot.web.people.expiry import expire_once
from jackpot.web.people.mail import send_challenge_mails

DAY = 86400


async def people(make_client, *names: str):  # type: ignore[no-untyped-def]
    out = []
    for name in names:
        c = await make_client()
        c.id = (await sign_up(c, name))["id"]
        out.append(c)
    return out


async def test_an_accepted_challenge_starts_the_match_for_both(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await people(make_client, "Ana", "Ben")
    hub = app.state.user_hub
    ben_hears, ana_hears = hub.subscribe(ben.id), hub.subscribe(ana.id)
    try:
        r = await ana.post(
            "/api/challenges", json={"to": "ben", "variant": "classic", "deadline_seconds": DAY}
        )
        assert r.status_code == 201, r.text
        cid = r.json()["id"]
        told = await heard(ben_hears.queue, "challenge")
        assert told == {"type": "challenge", "challenge": cid, "from": "Ana"}
        incoming = (await ben.get("/api/challenges")).json()
        assert incoming["outgoing"] == []
        [shown] = incoming["incoming"]
        assert (shown["id"], shown["player"], shown["variant"]) == (cid, "Ana", "classic")
        assert shown["provisional"] is True and isinstance(shown["rating"], int)
        assert (await ana.get("/api/challenges")).json()["outgoing"][0]["player"] == "Ben"
        accepted = await ben.post(f"/api/challenges/{cid}/accept")
        assert accepted.status_code == 200, accepted.text
        match_id = accepted.json()["match"]
        assert (await heard(ana_hears.queue, "accepted"))["match"] == match_id
    finally:
        hub.unsubscribe(ben_hears, ben.id)
        hub.unsubscribe(ana_hears, ana.id)
    for c in (ana, ben):
        state = (await c.get(f"/api/matches/{match_id}")).json()
        assert state["status"] == "playing"
        assert (state["variant"], state["deadline_seconds"]) == ("classic", DAY)
        assert sorted(s["name"] for s in state["seats"]) == ["Ana", "Ben"]
        assert sum(1 for s in state["seats"] if s["you"]) == 1
    # Answered: it is gone from both lists, and cannot be answered again.
    assert (await ben.get("/api/challenges")).json() == {"incoming": [], "outgoing": []}
    again = await ben.post(f"/api/challenges/{cid}/accept")
    assert (again.status_code, again.json()["error"]["code"]) == (409, "challenge_closed")


async def test_declined_and_withdrawn(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await people(make_client, "Ana", "Ben")
    one = (await ana.post("/api/challenges", json={"to": "Ben"})).json()["id"]
    # Only the challenged may answer, only the challenger withdraw; others see nothing.
    assert (await ana.post(f"/api/challenges/{one}/accept")).status_code == 404
    assert (await ben.delete(f"/api/challenges/{one}")).status_code == 404
    assert (await ben.post(f"/api/challenges/{one}/decline")).json()["status"] == "declined"
    two = (await ana.post("/api/challenges", json={"to": "Ben"})).json()["id"]
    assert (await ana.delete(f"/api/challenges/{two}")).json()["status"] == "withdrawn"
    r = await ben.post(f"/api/challenges/{two}/accept")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "challenge_closed")
    assert (await ben.post("/api/challenges/c_unknown/accept")).status_code == 404


async def test_challenge_refusals_do_not_reveal_a_block(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben, cal, dan = await people(make_client, "Ana", "Ben", "Cal", "Dan")
    anonymous = await make_client()
    r = await anonymous.post("/api/challenges", json={"to": "Ben"})
    assert (r.status_code, r.json()["error"]["code"]) == (403, "account_required")
    r = await ana.post("/api/challenges", json={"to": "Ana"})
    assert (r.status_code, r.json()["error"]["code"]) == (400, "self")
    r = await ana.post("/api/challenges", json={"to": "Nobody Here"})
    assert r.status_code == 404
    for bad in ({"to": "Ben", "variant": "chess"}, {"to": "Ben", "deadline_seconds": 0},
                {"to": ""}, {"to": "B" * 65}, {"to": "Ben", "more": 1}):
        assert (await ana.post("/api/challenges", json=bad)).status_code == 422, bad
    # Cal takes no challenges; Dan blocked Ana: Ana hears the same of both.
    switched = await cal.patch("/api/account", json={"challenges": "nobody"})
    assert switched.json()["challenges"] == "nobody"
    assert (await dan.put("/api/blocks/ana")).json() == {"blocked": "Ana"}
    refused = {}
    for name in ("Cal", "Dan"):
        r = await ana.post("/api/challenges", json={"to": name})
        refused[name] = (r.status_code, r.json()["error"]["code"])
        assert name in r.json()["error"]["message"]
    assert refused == {"Cal": (403, "not_accepting"), "Dan": (403, "not_accepting")}
    # Nor may Dan challenge the player he blocked: he is told why, his own doing.
    r = await dan.post("/api/challenges", json={"to": "Ana"})
    assert (r.status_code, r.json()["error"]["code"]) == (403, "you_blocked")
    assert "you have blocked Ana" in r.json()["error"]["message"]
    assert (await dan.get("/api/blocks")).json() == {"blocked": ["Ana"]}
    assert (await dan.delete("/api/blocks/Ana")).status_code == 200
    assert (await ana.post("/api/challenges", json={"to": "Dan"})).status_code == 201
    r = await ana.post("/api/challenges", json={"to": "Dan"})
    assert (r.status_code, r.json()["error"]["code"]) == (409, "already_challenged")
    assert (await cal.patch("/api/account", json={"challenges": "sometimes"})).status_code == 422
    assert (await ana.put("/api/blocks/Ana")).status_code == 400
    assert (await ana.put("/api/blocks/Nobody%20Here")).status_code == 404
    # A block made after the challenge stops its acceptance too (without saying so:
    # test_a_block_closes_open_challenges_as_a_withdrawal_or_a_refusal).
    cid = (await ana.post("/api/challenges", json={"to": "Ben"})).json()["id"]
    await ana.put("/api/blocks/Ben")
    r = await ben.post(f"/api/challenges/{cid}/accept")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "challenge_closed")


async def test_a_block_closes_open_challenges_as_a_withdrawal_or_a_refusal(  # type: ignore[no-untyped-def]
    app, make_client
) -> None:
    """The blocked player sees what they would see had the blocker withdrawn or
    declined: never "you cannot play this player", which they did not choose."""
    ana, ben, cal, dan = await people(make_client, "Ana", "Ben", "Cal", "Dan")
    hub = app.state.user_hub
    ben_hears, cal_hears = hub.subscribe(ben.id), hub.subscribe(cal.id)
    try:
        # Ana challenged Ben, then blocked him: to Ben, Ana withdrew.
        withdrawn = (await ana.post("/api/challenges", json={"to": "Ben"})).json()["id"]
        assert (await ana.put("/api/blocks/Ben")).status_code == 200
        assert await heard(ben_hears.queue, "withdrawn") == {
            "type": "withdrawn", "challenge": withdrawn
        }
        # Cal challenged Dan, who blocked him: to Cal, Dan declined.
        declined = (await cal.post("/api/challenges", json={"to": "Dan"})).json()["id"]
        assert (await dan.put("/api/blocks/Cal")).status_code == 200
        assert await heard(cal_hears.queue, "declined") == {
            "type": "declined", "challenge": declined
        }
    finally:
        hub.unsubscribe(ben_hears, ben.id)
        hub.unsubscribe(cal_hears, cal.id)
    for c in (ana, ben, cal, dan):
        assert (await c.get("/api/challenges")).json() == {"incoming": [], "outgoing": []}
    r = await ben.post(f"/api/challenges/{withdrawn}/accept")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "challenge_closed")
    r = await ben.post(f"/api/challenges/{withdrawn}/decline")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "challenge_closed")
    r = await cal.delete(f"/api/challenges/{declined}")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "challenge_closed")


async def test_a_challenge_for_a_quick_match_waits_ten_minutes(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await people(make_client, "Ana", "Ben")
    quick = {"to": "Ben", "variant": "jackpot", "deadline_seconds": 60}
    cid = (await ana.post("/api/challenges", json=quick)).json()["id"]
    [shown] = (await ben.get("/api/challenges")).json()["incoming"]
    made, ends = (datetime.fromisoformat(shown[k]) for k in ("created_at", "expires_at"))
    assert ends - made == timedelta(minutes=10)
    assert await expire_once(app.state.db, utcnow() + timedelta(minutes=9)) == 0
    assert await expire_once(app.state.db, utcnow() + timedelta(minutes=10, seconds=1)) == 1
    r = await ben.post(f"/api/challenges/{cid}/accept")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "challenge_closed")


async def test_caps_on_challenges(app, make_client) -> None:  # type: ignore[no-untyped-def]
    app.state.settings = dataclasses.replace(
        app.state.settings, challenges_open=2, challenges_per_day=3
    )
    ana, ben, _cal, _dan = await people(make_client, "Ana", "Ben", "Cal", "Dan")
    first = (await ana.post("/api/challenges", json={"to": "Ben"})).json()["id"]
    assert (await ana.post("/api/challenges", json={"to": "Cal"})).status_code == 201
    r = await ana.post("/api/challenges", json={"to": "Dan"})
    assert (r.status_code, r.json()["error"]["code"]) == (429, "too_many_challenges")
    await ana.delete(f"/api/challenges/{first}")
    assert (await ana.post("/api/challenges", json={"to": "Dan"})).status_code == 201
    await ben.post(f"/api/challenges/{first}/decline")
    r = await ana.post("/api/challenges", json={"to": "Ben"})
    assert (r.status_code, r.json()["error"]["code"]) == (429, "too_many_challenges")


async def test_challenges_expire_after_a_week(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await people(make_client, "Ana", "Ben")
    cid = (await ana.post("/api/challenges", json={"to": "Ben"})).json()["id"]
    assert await expire_once(app.state.db, utcnow() + timedelta(days=6)) == 0
    hub = app.state.user_hub
    ana_hears, ben_hears = hub.subscribe(ana.id), hub.subscribe(ben.id)
    try:
        assert await expire_once(app.state.db, utcnow() + timedelta(days=7, seconds=1)) == 1
        for hears in (ana_hears, ben_hears):
            assert await heard(hears.queue, "expired") == {"type": "expired", "challenge": cid}
    finally:
        hub.unsubscribe(ana_hears, ana.id)
        hub.unsubscribe(ben_hears, ben.id)
    r = await ben.post(f"/api/challenges/{cid}/accept")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "challenge_closed")


async def test_a_blocked_player_cannot_join_the_blockers_lobby_match(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben, cal = await people(make_client, "Ana", "Ben", "Cal")
    made = await ana.post("/api/matches", json={"variant": "jackpot", "seats": 3, "bots": 0})
    match_id = made.json()["id"]
    await ana.put("/api/blocks/Ben")
    r = await ben.post(f"/api/matches/{match_id}/join", json={})
    assert (r.status_code, r.json()["error"]["code"]) == (403, "not_allowed")
    assert (await cal.post(f"/api/matches/{match_id}/join", json={})).status_code == 200
    # Nor the other way: Cal blocks Ben, Ben's match is closed to Cal... and Ben
    # cannot sit down where Cal already sits.
    await cal.put("/api/blocks/Ben")
    other = (await ana.post("/api/matches", json={"seats": 3, "bots": 0})).json()["id"]
    await ana.delete("/api/blocks/Ben")
    assert (await cal.post(f"/api/matches/{other}/join", json={})).status_code == 200
    r = await ben.post(f"/api/matches/{other}/join", json={})
    assert (r.status_code, r.json()["error"]["code"]) == (403, "not_allowed")
    await asyncio.sleep(0)


def outbox(settings) -> list[EmailMessage]:  # type: ignore[no-untyped-def]
    box: Path = settings.outbox_dir
    return [
        message_from_bytes(p.read_bytes(), policy=policy.default)  # type: ignore[misc]
        for p in sorted(box.glob("*.eml"))
    ] if box.exists() else []


async def test_the_challenged_are_mailed_under_their_mail_setting(  # type: ignore[no-untyped-def]
    app, make_client, settings
) -> None:
    ana, ben, cal = await people(make_client, "Ana", "Ben", "Cal")
    dan = await make_client()
    await sign_up(dan, "Dan", confirmed=False)
    classic = {"to": "Ben", "variant": "classic", "deadline_seconds": 3600}
    assert (await ana.post("/api/challenges", json=classic)).status_code == 201
    await ana.post("/api/challenges", json={"to": "Dan"})  # an unconfirmed address
    withdrawn = (await ana.post("/api/challenges", json={"to": "Cal"})).json()["id"]
    await ana.delete(f"/api/challenges/{withdrawn}")  # answered before the mail went
    assert await send_challenge_mails(app.state.db, settings) == 1
    [mail] = outbox(settings)
    assert mail["To"] == "ben@example.org"
    assert mail["Subject"] == "Ana challenges you to a match"
    text = mail.get_content()
    assert "Ana challenges you to a match of Classic, 1 hour per throw." in text
    assert "/play-now" in text
    assert await send_challenge_mails(app.state.db, settings) == 0  # each goes once
    # With the mail setting off, no mail.
    off = await cal.put("/api/account/notifications", json={"turn_mail": "off"})
    assert off.status_code == 200
    await ben.post("/api/challenges", json={"to": "Cal"})
    assert await send_challenge_mails(app.state.db, settings) == 0
    assert len(outbox(settings)) == 1


async def ana_challenges_ben(make_client) -> None:  # type: ignore[no-untyped-def]
    """Ana challenges Ben: one challenge mail waits to go."""
    ana, _ben = await people(make_client, "Ana", "Ben")
    assert (await ana.post("/api/challenges", json={"to": "Ben"})).status_code == 201


def refusing_mail(settings):  # type: ignore[no-untyped-def]
    """``settings`` with a mail server that refuses the connection (nothing listens
    on port 1 here)."""
    return dataclasses.replace(settings, smtp_host="127.0.0.1", smtp_port=1)


async def test_a_challenge_mail_that_failed_is_sent_again_after_a_wait(  # type: ignore[no-untyped-def]
    app, make_client, settings
) -> None:
    db = app.state.db
    await ana_challenges_ben(make_client)
    broken = refusing_mail(settings)
    now = utcnow()
    assert await send_challenge_mails(db, broken, now) == 0
    [row] = await challenge_rows(db)
    assert (row.mail, row.mail_attempts, row.mail_after) == ("pending", 1, now + backoff(1))
    # Not before its wait is over, even with the server back.
    assert await send_challenge_mails(db, settings, now + backoff(1) / 2) == 0
    assert outbox(settings) == []
    assert await send_challenge_mails(db, broken, now + backoff(1)) == 0
    [row] = await challenge_rows(db)
    assert (row.mail_attempts, row.mail_after) == (2, now + backoff(1) + backoff(2))
    later = now + backoff(1) + backoff(2)
    assert await send_challenge_mails(db, settings, later) == 1
    [mail] = outbox(settings)
    assert (mail["To"], mail["Subject"]) == ("ben@example.org", "Ana challenges you to a match")
    [row] = await challenge_rows(db)
    assert row.mail == "sent"
    assert await send_challenge_mails(db, settings, later + timedelta(hours=2)) == 0


async def test_a_challenge_mail_is_given_up_after_the_outboxes_attempts(  # type: ignore[no-untyped-def]
    app, make_client, settings
) -> None:
    db = app.state.db
    await ana_challenges_ben(make_client)
    broken = refusing_mail(settings)
    at = utcnow()
    for attempt in range(1, MAX_ATTEMPTS + 1):
        assert await send_challenge_mails(db, broken, at) == 0
        at += backoff(attempt)
    [row] = await challenge_rows(db)
    assert (row.mail, row.mail_attempts) == ("failed", MAX_ATTEMPTS)
    assert await send_challenge_mails(db, settings, at + timedelta(hours=1)) == 0
    assert outbox(settings) == []


async def test_a_challenge_mail_left_by_a_dead_sender_goes_when_its_lease_ends(  # type: ignore[no-untyped-def]
    app, make_client, settings
) -> None:
    db = app.state.db
    await ana_challenges_ben(make_client)
    now = utcnow()
    # A sender claimed it and died before sending: its lease holds the mail...
    async with db.write() as conn:
        await conn.execute(update(challenges).values(mail_after=now + LEASE))
    assert await send_challenge_mails(db, settings, now + LEASE / 2) == 0
    # ...until it runs out; then the mail goes, once.
    assert await send_challenge_mails(db, settings, now + LEASE) == 1
    assert len(outbox(settings)) == 1


async def challenge_rows(db):  # type: ignore[no-untyped-def]
    async with db.read() as conn:
        return (await conn.execute(select(challenges))).all()


async def test_a_player_at_the_match_cap_cannot_challenge(app, make_client) -> None:  # type: ignore[no-untyped-def]
    """As with a seek: a challenge accepted starts a match for the challenger too, so
    one who may not have another match may not ask for one."""
    app.state.settings = dataclasses.replace(app.state.settings, account_active_matches=1)
    ana, ben = await people(make_client, "Ana", "Ben")
    assert (await ana.post("/api/matches", json={"seats": 2, "bots": 1})).status_code == 201
    r = await ana.post("/api/challenges", json={"to": "Ben"})
    assert (r.status_code, r.json()["error"]["code"]) == (429, "too_many_matches")
    assert (await ben.get("/api/challenges")).json() == {"incoming": [], "outgoing": []}


async def test_names_looked_up_from_one_address_are_limited(app, make_client) -> None:  # type: ignore[no-untyped-def]
    """Each answer says whether a name is an account's: nobody runs a dictionary of
    names through challenges and blocks."""
    app.state.settings = dataclasses.replace(app.state.settings, name_lookup_limit=Rate(3, 3600))
    ana, _ben = await people(make_client, "Ana", "Ben")
    tries = [
        ana.post("/api/challenges", json={"to": "Nobody One"}),
        ana.put("/api/blocks/Nobody%20Two"),
        ana.delete("/api/blocks/Ben"),
    ]
    assert [(await t).status_code for t in tries] == [404, 404, 200]
    for late in (ana.post("/api/challenges", json={"to": "Ben"}), ana.put("/api/blocks/Ben")):
        r = await late
        assert (r.status_code, r.json()["error"]["code"]) == (429, "too_many_attempts")
        assert "looked up by name" in r.json()["error"]["message"]
    assert (await ana.get("/api/challenges")).json()["outgoing"] == []
    assert (await ana.get("/api/blocks")).json() == {"blocked": []}


async def test_an_unknown_name_is_said_back_no_longer_than_a_name(make_client) -> None:  # type: ignore[no-untyped-def]
    [ana] = await people(make_client, "Ana")
    r = await ana.put("/api/blocks/" + "x" * 5000)
    assert r.status_code == 404
    assert len(r.json()["error"]["message"]) < 100
