"""Issue 11 items 3 and 6: reset mails cannot be used to flood an inbox or a mail
server, go out through the mail worker, and a reset signs out every session and
token.

The attacks: 30 resets for one address sent 30 mails; a request with the outbox
unwritable failed with 500 after its reset row was committed; a token survived the
reset that was meant to lock a thief out.
"""

from __future__ import annotations

import dataclasses
import re

from mail_helpers import mails, reset_links

from jackpot.web.notify.resets import send_reset_mails

PASSWORD = "correct horse battery"
NEW_PASSWORD = "a brand new secret phrase"


async def _victim(make_client):  # type: ignore[no-untyped-def]
    c = await make_client()
    r = await c.post("/api/account", json={"email": "vic@example.org", "password": PASSWORD,
                                           "name": "Victim"})
    assert r.status_code == 201
    return c


async def test_thirty_resets_send_one_mail(make_client, app, settings) -> None:  # type: ignore[no-untyped-def]
    await _victim(make_client)
    for i in range(30):
        # Thirty attackers, one request each: the address limit is not what stops it.
        attacker = await make_client()
        r = await attacker.post("/api/password-reset", json={"email": "vic@example.org"})
        assert r.status_code == 202, i
    await send_reset_mails(app.state.db, settings)
    await send_reset_mails(app.state.db, settings)
    assert len(mails(settings.outbox_dir)) == 1


async def test_one_address_may_ask_a_few_resets_only(make_client) -> None:  # type: ignore[no-untyped-def]
    attacker = await make_client()
    codes = [
        (await attacker.post("/api/password-reset", json={"email": f"u{i}@example.org"}))
        .status_code
        for i in range(6)
    ]
    assert codes == [202] * 5 + [429]


async def test_the_request_never_sends_mail_itself(make_client, app, settings) -> None:  # type: ignore[no-untyped-def]
    await _victim(make_client)
    # An outbox that cannot be written: the request is not where that shows.
    blocked = settings.var_dir / "not-a-dir"
    blocked.write_text("a file where the outbox should be")
    app.state.settings = dataclasses.replace(settings, outbox_dir=blocked / "outbox")
    r = await (await make_client()).post("/api/password-reset", json={"email": "vic@example.org"})
    assert r.status_code == 202
    assert await send_reset_mails(app.state.db, app.state.settings) == 0  # retried later


async def test_a_reset_signs_out_every_session_and_token(make_client, app, settings) -> None:  # type: ignore[no-untyped-def]
    victim = await _victim(make_client)
    r = await victim.post("/api/tokens", json={"label": "bot", "password": PASSWORD})
    assert r.status_code == 201
    token = r.json()["token"]
    stranger = await make_client()
    assert (await stranger.post("/api/password-reset",
                                json={"email": "vic@example.org"})).status_code == 202
    assert await send_reset_mails(app.state.db, settings) == 1
    [link] = reset_links(mails(settings.outbox_dir))
    assert link.startswith(settings.link_base + "/reset/")
    reset_token = re.sub(r".*/reset/", "", link)
    r = await stranger.post("/api/password-reset/confirm",
                            json={"token": reset_token, "password": NEW_PASSWORD})
    assert r.status_code == 200
    program = await make_client()
    assert (await program.get("/api/account",
                              headers={"Authorization": f"Bearer {token}"})).status_code == 401
    assert (await victim.get("/api/account")).status_code == 401
    assert (await stranger.get("/api/account")).status_code == 200  # the new session
