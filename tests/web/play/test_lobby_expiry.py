"""Stale lobby matches expire: a match nobody filled is called off by the sweeper after
its time in the lobby (a week unless its creator chose an hour to 30 days), its seed
published as when its creator calls it off, and "My matches" says it expired."""

from __future__ import annotations

import asyncio
import re
from datetime import datetime, timedelta
from typing import Any

from web_helpers import sign_up

from jackpot import fair
from jackpot.web.base.clock import utcnow
from jackpot.web.play.lobby import LOBBY
from jackpot.web.play.sweeper import expire_lobby

HTML = {"accept": "text/html"}


def when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


async def test_a_stale_lobby_match_is_called_off(make_client: Any, app: Any) -> None:
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    t0 = utcnow()
    mid = (await ana.post("/api/matches", json={"seats": 2, "bots": 0})).json()["id"]
    (row,) = (await ana.get("/api/my/matches")).json()["matches"]
    expires = when(row["expires_at"])  # (shown to the second)
    assert timedelta(days=7, seconds=-1) <= expires - t0 < timedelta(days=7, minutes=1)
    (listed,) = (await ben.get("/api/matches")).json()["matches"]
    assert listed["id"] == mid and listed["expires_at"] == row["expires_at"]
    # The lobby page says until when, in the reader's language.
    page = (await ben.get("/lobby", headers=HTML)).text
    # In UTC, which static/local-times.js rewrites in the reader's own zone.
    stamp = f'<time class="local" datetime="{row["expires_at"]}">'
    assert stamp in page and "Open until<" in page
    assert re.search(stamp + r"[^<]+ UTC</time>", page)
    pt = (await ben.get("/lobby", headers={**HTML, "accept-language": "pt"})).text
    assert "Aberta até<" in pt
    match_page = (await ben.get(f"/matches/{mid}", headers=HTML)).text
    assert stamp in match_page

    db, bus = app.state.db, app.state.bus
    lobby = bus.subscribe(LOBBY)
    assert await expire_lobby(db, expires - timedelta(seconds=1)) == 0
    assert lobby.queue.empty()
    assert await expire_lobby(db, expires + timedelta(seconds=1)) == 1
    ping = await asyncio.wait_for(lobby.queue.get(), 5)  # open lobby pages are told
    assert ping == {"type": "lobby"}
    lobby.close()
    assert await expire_lobby(db, expires + timedelta(hours=1)) == 0  # once

    state = (await ana.get(f"/api/matches/{mid}")).json()
    assert state["status"] == "finished" and state["result"] is None
    assert fair.commitment(state["server_seed"]) == state["commitment"]  # seed published
    assert (await ben.get("/api/matches")).json()["matches"] == []
    joined = await ben.post(f"/api/matches/{mid}/join", json={})
    assert joined.status_code == 409
    (row,) = (await ana.get("/api/my/matches")).json()["matches"]
    assert row["expired"] is True and row["status"] == "finished" and row["expires_at"] is None
    page = (await ana.get("/my", headers=HTML)).text
    assert "Expired: nobody took the free seats in time" in page
    assert "Called off before the start" not in page


async def test_the_creator_chooses_an_hour_to_thirty_days(make_client: Any, app: Any) -> None:
    ana = await make_client()
    await sign_up(ana, "Ana")
    for bad in (3599, 30 * 86400 + 1):
        r = await ana.post("/api/matches", json={"seats": 2, "bots": 0, "expiry_seconds": bad})
        assert r.status_code == 422, r.text
    t0 = utcnow()
    r = await ana.post("/api/matches", json={"seats": 2, "bots": 0, "expiry_seconds": 3600})
    assert r.status_code == 201
    (row,) = (await ana.get("/api/my/matches")).json()["matches"]
    left = when(row["expires_at"]) - t0
    assert timedelta(hours=1, seconds=-1) <= left < timedelta(hours=1, minutes=1)
    assert await expire_lobby(app.state.db, t0 + timedelta(minutes=59)) == 0
    assert await expire_lobby(app.state.db, t0 + timedelta(minutes=61)) == 1
    # The form offers the same choice, a week preselected.
    form = (await ana.get("/matches/new")).text
    assert 'name="expiry_seconds"' in form and '<option value="604800" selected>' in form


async def test_a_started_or_cancelled_match_does_not_expire(make_client: Any, app: Any) -> None:
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    started = (await ana.post("/api/matches", json={"seats": 2, "bots": 0})).json()["id"]
    await ben.post(f"/api/matches/{started}/join", json={})
    cancelled = (await ana.post("/api/matches", json={"seats": 2, "bots": 0})).json()["id"]
    await ana.post(f"/api/matches/{cancelled}/resign")
    bot = (await ana.post("/api/matches", json={"seats": 2, "bots": 1})).json()["id"]
    later = utcnow() + timedelta(days=40)
    assert await expire_lobby(app.state.db, later) == 0
    rows = {m["id"]: m for m in (await ana.get("/api/my/matches")).json()["matches"]}
    assert rows[started]["status"] == "playing" and rows[bot]["status"] == "playing"
    assert rows[cancelled]["status"] == "finished" and rows[cancelled]["expired"] is False
    assert "Called off before the start" in (await ana.get("/my", headers=HTML)).text

