"""Issue 11 item 1: links in mail never come from a request header, and a Host we do
not answer for is refused.

The attack: with no JACKPOT_BASE_URL, ask for a reset of the victim's account with
``Host: evil.example``; the victim got ``http://evil.example/reset/<token>`` and the
token worked on the real site. Now that request gets 400 and nothing is mailed, and
every link points to the base URL or to the address ``jackpot serve`` listens on.
"""

from __future__ import annotations

from datetime import timedelta

import httpx
from mail_helpers import mails, reset_links, wait_for_mails

from jackpot.web.base.clock import utcnow
from jackpot.web.base.settings import load_settings
from jackpot.web.notify.compose import Item, compose

PASSWORD = "correct horse battery"


def test_a_reset_asked_with_a_strangers_host_is_refused_and_links_use_the_served_address(
    serve,  # type: ignore[no-untyped-def]
) -> None:
    srv = serve()
    with httpx.Client(base_url=srv.url, timeout=30) as c:
        r = c.post("/api/account", json={"email": "vic@example.org", "password": PASSWORD,
                                         "name": "Victim"})
        assert r.status_code == 201, r.text
    with httpx.Client(base_url=srv.url, timeout=30) as attacker:
        r = attacker.post("/api/password-reset", json={"email": "vic@example.org"},
                          headers={"Host": "evil.example"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_host"
        # An allowed name with another port: still no say over where the link points.
        r = attacker.post("/api/password-reset", json={"email": "vic@example.org"},
                          headers={"Host": f"localhost:{srv.port + 1}"})
        assert r.status_code == 202
    # The sign-up's confirmation mail and one reset mail, both linking to the site.
    bodies = wait_for_mails(srv.outbox, 2)
    links = reset_links(bodies)
    assert len(links) == 1 and links[0].startswith(f"http://127.0.0.1:{srv.port}/reset/")
    assert sum(f"http://127.0.0.1:{srv.port}/confirm-email/" in b for b in bodies) == 1
    assert len(mails(srv.outbox)) == 2


async def test_links_use_the_base_url_and_other_hosts_get_400(app_with) -> None:  # type: ignore[no-untyped-def]
    clients = await app_with(base_url="https://jackpot.example", allowed_hosts=())
    site = clients(host="jackpot.example")
    r = await site.post("/api/account", json={"email": "vic@example.org", "password": PASSWORD,
                                              "name": "Victim"})
    assert r.status_code == 201, r.text
    # Not one host, though it starts with an allowed one (a second Host header is
    # joined to the first by a comma).
    for host in ("localhost:1,evil.example", "127.0.0.1:8000 evil.example", "localhost:x"):
        r = await site.post(
            "/api/password-reset", json={"email": "vic@example.org"}, headers={"host": host}
        )
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_host", host
    for host in ("evil.example", "jackpot.example.evil.example", "testserver"):
        r = await clients(host=host).post("/api/password-reset", json={"email": "vic@example.org"})
        assert r.status_code == 400, host
        assert r.json()["error"] == {
            "code": "bad_host",
            "message": "this server does not answer for that Host; use the site's own address",
        }
    for host in ("localhost", "127.0.0.1:8000", "[::1]:8000"):
        assert (await clients(host=host).get("/api/health")).status_code == 200, host


async def test_allowed_hosts_setting_is_the_whole_list(app_with) -> None:  # type: ignore[no-untyped-def]
    clients = await app_with(allowed_hosts=("play.example",))
    assert (await clients(host="play.example").get("/api/health")).status_code == 200
    assert (await clients(host="localhost").get("/api/health")).status_code == 400


def test_turn_mails_point_to_the_served_port_not_localhost_8000(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # What `jackpot serve --port 8123` hands to its app (and its worker processes).
    settings = load_settings({"JACKPOT_VAR_DIR": str(tmp_path), "JACKPOT_LISTEN": "127.0.0.1:8123"})
    now = utcnow()
    item = Item([1], "turn", "m_abc", "jackpot", ["Ben"], now + timedelta(hours=3))
    _subject, body, headers = compose(settings, "Ana", 7, [item], now)
    assert "http://127.0.0.1:8123/matches/m_abc" in body
    assert "localhost:8000" not in body
    assert headers["List-Unsubscribe"].startswith("<http://127.0.0.1:8123/unsubscribe/")
    based = load_settings({"JACKPOT_VAR_DIR": str(tmp_path), "JACKPOT_LISTEN": "127.0.0.1:8123",
                           "JACKPOT_BASE_URL": "https://jackpot.example/"})
    assert "https://jackpot.example/matches/m_abc" in compose(based, "Ana", 7, [item], now)[1]
