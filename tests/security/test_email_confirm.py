"""Issue 40 item 8: the site mails only addresses their accounts have confirmed.

The attack: sign-up took any address, and turn, end and rematch mails then went to
it, so anybody could aim the site's mail at a stranger, and the squatted address
answered ``email_taken`` to its real owner. Now sign-up mails a link to
``/confirm-email/<token>`` (used once, for seven days, through a page with a
button); until it is used only that mail and reset mails go to the address. A reset
confirms the address: its owner takes a squatted account back. Mail goes through a
real SMTP server (aiosmtpd) here.
"""

from __future__ import annotations

import re
from datetime import timedelta
from email.message import Message
from typing import Any

import pytest
from sqlalchemy import select, update
from web_helpers import join_in_joining_order

from jackpot.web.base.clock import utcnow
from jackpot.web.base.settings import Rate
from jackpot.web.base.storage.db import Database
from jackpot.web.base.storage.migrate import alembic_config
from jackpot.web.base.tables.notify import confirm_mails
from jackpot.web.notify.confirmations import send_confirm_mails
from jackpot.web.notify.mailer import mail_step
from jackpot.web.notify.notices import GRACE
from jackpot.web.notify.resets import send_reset_mails

PASSWORD = "correct horse battery"
DAY = 86400


def body(msg: Message) -> str:
    payload: Any = msg.get_payload(decode=True)
    return str(payload.decode())


def to(received: list[Message], address: str) -> list[Message]:
    return [m for m in received if m["To"] == address]


def confirm_token(msg: Message) -> str:
    found = re.search(r"/confirm-email/([A-Za-z0-9_\-]+)", body(msg))
    assert found, body(msg)
    return found.group(1)


async def account(client: Any, name: str) -> dict[str, Any]:
    r = await client.post("/api/account", json={
        "email": f"{name.lower()}@example.org", "password": PASSWORD, "name": name})
    assert r.status_code == 201, r.text
    return dict(r.json())


async def csrf(client: Any, page: str) -> str:
    await client.get(page)
    return str(client.cookies["jackpot_csrf"])


async def confirm_by_mail(client: Any, app: Any, received: list[Message], address: str) -> None:
    await send_confirm_mails(app.state.db, app.state.settings)
    links = [m for m in to(received, address) if "/confirm-email/" in body(m)]
    token = confirm_token(links[-1])
    page = f"/confirm-email/{token}"
    r = await client.post(page, data={"csrf_token": await csrf(client, page)})
    assert r.status_code == 200 and 'id="confirm-done"' in r.text, r.text


async def test_sign_up_mails_a_link_that_confirms_the_address_once(app_with, smtp) -> None:  # type: ignore[no-untyped-def]
    changes, received = smtp
    clients = await app_with(**changes)
    ana = clients("10.0.0.1")
    await account(ana, "Ana")
    app = ana._transport.app
    assert (await ana.get("/api/account")).json()["email_confirmed"] is False
    assert await send_confirm_mails(app.state.db, app.state.settings) == 1
    assert await send_confirm_mails(app.state.db, app.state.settings) == 0
    [mail] = to(received, "ana@example.org")
    assert "Confirm your address" in mail["Subject"]
    token = confirm_token(mail)
    assert f"{app.state.settings.link_base}/confirm-email/{token}" in body(mail)
    # Opening the link (a mail scanner does) confirms nothing: the button does.
    stranger = clients("10.0.0.9")
    page = await stranger.get(f"/confirm-email/{token}")
    assert page.status_code == 200 and "ana@example.org" in page.text
    assert 'id="confirm"' in page.text
    assert (await ana.get("/api/account")).json()["email_confirmed"] is False
    r = await stranger.post(f"/confirm-email/{token}", data={"csrf_token": "forged"})
    assert r.status_code == 403
    r = await stranger.post(f"/confirm-email/{token}",
                            data={"csrf_token": stranger.cookies["jackpot_csrf"]})
    assert r.status_code == 200 and 'id="confirm-done"' in r.text
    assert (await ana.get("/api/account")).json()["email_confirmed"] is True
    # Used once.
    for method in ("get", "post"):
        r = await stranger.request(method, f"/confirm-email/{token}",
                                   data={"csrf_token": stranger.cookies["jackpot_csrf"]}
                                   if method == "post" else None)
        assert r.status_code == 404 and 'id="confirm-dead"' in r.text


async def test_a_link_expires_after_seven_days(app_with, smtp) -> None:  # type: ignore[no-untyped-def]
    changes, received = smtp
    clients = await app_with(**changes)
    ana = clients("10.0.0.1")
    await account(ana, "Ana")
    app = ana._transport.app
    await send_confirm_mails(app.state.db, app.state.settings)
    token = confirm_token(to(received, "ana@example.org")[0])
    async with app.state.db.read() as conn:
        [expires] = (await conn.execute(select(confirm_mails.c.expires_at))).scalars().all()
    assert timedelta(days=6, hours=23) < expires - utcnow() <= timedelta(days=7)
    async with app.state.db.write() as conn:
        await conn.execute(update(confirm_mails).values(expires_at=utcnow() - timedelta(seconds=1)))
    assert (await ana.get(f"/confirm-email/{token}")).status_code == 404
    r = await ana.post(f"/confirm-email/{token}", data={"csrf_token": ana.cookies["jackpot_csrf"]})
    assert r.status_code == 404
    assert (await ana.get("/api/account")).json()["email_confirmed"] is False


async def test_until_confirmed_only_its_link_and_resets_go_to_the_address(  # type: ignore[no-untyped-def]
    app_with, smtp
) -> None:
    changes, received = smtp
    clients = await app_with(**changes)
    ana, ben = clients("10.0.0.1"), clients("10.0.0.2")
    await account(ana, "Ana")
    await account(ben, "Ben")
    app = ana._transport.app
    db: Database = app.state.db
    await confirm_by_mail(ben, app, received, "ben@example.org")
    t0 = utcnow()
    state = (await ana.post("/api/matches", json={"seats": 2, "bots": 0,
                                                   "deadline_seconds": DAY})).json()
    assert (await join_in_joining_order(ben, state["id"])).status_code == 200
    # Ana's throw is due; her turn mail and reminder are dropped, not sent.
    assert await mail_step(db, app.state.settings, t0 + GRACE + timedelta(minutes=1)) == 0
    assert await mail_step(db, app.state.settings, t0 + timedelta(hours=21)) == 0
    assert [m["Subject"] for m in to(received, "ana@example.org")] == [
        "Confirm your address for Jackpot"]
    # A reset mail still goes (it is how an owner takes a squatted address back).
    assert (await clients("10.0.0.3").post("/api/password-reset",
                                           json={"email": "ana@example.org"})).status_code == 202
    assert await send_reset_mails(db, app.state.settings) == 1
    assert len(to(received, "ana@example.org")) == 2
    # Confirmed, the end of the match reaches her.
    await confirm_by_mail(ana, app, received, "ana@example.org")
    t1 = utcnow()
    assert (await ben.post(f"/api/matches/{state['id']}/resign")).status_code == 200
    assert await mail_step(db, app.state.settings, t1 + GRACE + timedelta(minutes=1)) == 1
    last = to(received, "ana@example.org")[-1]
    assert "Ben" in body(last) and "confirm-email" not in body(last)


async def test_a_reset_takes_a_squatted_address_back_and_confirms_it(app_with, smtp) -> None:  # type: ignore[no-untyped-def]
    changes, received = smtp
    clients = await app_with(**changes)
    squatter, owner = clients("10.6.0.1"), clients("10.7.0.1")
    await account(squatter, "Vic")  # vic@example.org, which the squatter does not read
    r = await owner.post("/api/account", json={"email": "vic@example.org",
                                               "password": PASSWORD, "name": "Victoria"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "email_taken"
    app = owner._transport.app
    assert (await owner.post("/api/password-reset",
                             json={"email": "vic@example.org"})).status_code == 202
    assert await send_reset_mails(app.state.db, app.state.settings) == 1
    reset = next(m for m in to(received, "vic@example.org") if "/reset/" in body(m))
    token = re.search(r"/reset/([A-Za-z0-9_\-]+)", body(reset)).group(1)  # type: ignore[union-attr]
    r = await owner.post("/api/password-reset/confirm",
                         json={"token": token, "password": "the real owner's phrase"})
    assert r.status_code == 200
    me = (await owner.get("/api/account")).json()
    assert me["email"] == "vic@example.org" and me["email_confirmed"] is True
    assert (await squatter.get("/api/account")).status_code == 401
    # The pending confirmation mail is not sent: the address is confirmed already.
    assert await send_confirm_mails(app.state.db, app.state.settings) == 0
    assert all("/confirm-email/" not in body(m) for m in to(received, "vic@example.org"))


async def test_the_account_page_says_so_and_sends_the_link_again_within_a_limit(  # type: ignore[no-untyped-def]
    app_with, smtp
) -> None:
    changes, received = smtp
    clients = await app_with(**changes, confirm_mail_limit=Rate(2, DAY))
    ana = clients("10.0.0.1")
    await account(ana, "Ana")
    app = ana._transport.app
    page = await ana.get("/account")
    assert 'id="confirm-email"' in page.text and "ana@example.org" in page.text
    token = ana.cookies["jackpot_csrf"]
    r = await ana.post("/account", data={"csrf_token": token, "what": "confirm_email"})
    assert r.status_code == 200 and "A new link is on its way to ana@example.org" in r.text
    # The sign-up's mail and this one make two: the limit.
    r = await ana.post("/account", data={"csrf_token": token, "what": "confirm_email"})
    assert r.status_code == 429 and "several times lately" in r.text
    r = await ana.post("/api/account/email-confirmation")
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_attempts"
    assert await send_confirm_mails(app.state.db, app.state.settings) == 2
    assert len(to(received, "ana@example.org")) == 2
    # Either link confirms.
    await confirm_by_mail(ana, app, received, "ana@example.org")
    assert 'id="confirm-email"' not in (await ana.get("/account")).text
    r = await ana.post("/api/account/email-confirmation")
    assert r.status_code == 409 and r.json()["error"]["code"] == "email_confirmed"


@pytest.mark.pg
async def test_accounts_there_at_the_upgrade_count_as_confirmed(empty_database_url: str) -> None:  # type: ignore[no-untyped-def]
    """docs/security.md says why: their mail goes on as before."""
    from alembic import command
    from alembic.script import ScriptDirectory

    cfg = alembic_config()
    heads = [h for h in ScriptDirectory.from_config(cfg).get_heads() if h != "0020_email_confirm"]

    def upgrade_others(conn: Any) -> None:
        cfg.attributes["connection"] = conn
        for head in heads:
            command.upgrade(cfg, head)

    db = Database(empty_database_url)
    try:
        async with db.write() as conn:
            await conn.run_sync(upgrade_others)
        async with db.write() as conn:
            await conn.exec_driver_sql(
                "INSERT INTO users (name, name_key, name_look, email, password_hash, is_guest, "
                "leaderboard, created_at, last_seen) VALUES "
                "('Old', 'old', 'old', 'old@example.org', 'x', false, false, "
                "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP), "
                "('Guest 1', 'guest 1', 'guest 1', NULL, NULL, true, false, "
                "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            )
        await db.upgrade()
        async with db.read() as conn:
            rows = (await conn.exec_driver_sql(
                "SELECT u.name, c.email FROM confirmed_emails c JOIN users u ON u.id = c.user_id"
            )).all()
        assert [tuple(r) for r in rows] == [("Old", "old@example.org")]
    finally:
        await db.dispose()
