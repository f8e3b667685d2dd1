"""Autoplay of forced moves on the site: a person is only ever asked for real choices.

On by default between people with an hour or more a throw, off in bot, solo and short
matches; the account's default and each match's switch; moves made for a person are
marked "auto" in the live events only (the record cannot tell them apart, and its
matches verify); the clock starts on the choice; a no-show that autoplay threw for
is still a no-show.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import select, text
from web_helpers import play_out, seated, sign_up

from jackpot import fair
from jackpot.web.base.clock import utcnow
from jackpot.web.base.tables import players as r
from jackpot.web.play.sweeper import sweep_once

_names = iter(range(10_000))
ON = {"throws": True, "single_covers": True}
OFF = {"throws": False, "single_covers": False}


def is_real_choice(state: dict[str, Any]) -> bool:
    turn = state["turn"]
    if turn["dice"] is None:
        return bool(turn["one_die"])  # one die or two: a choice (Classic, 7-9 down)
    return len(turn["options"]) >= 2


async def live_events(app: Any, mid: str) -> list[dict[str, Any]]:
    async with app.state.db.read() as conn:
        rows = (
            await conn.execute(
                text("SELECT data FROM match_events WHERE match_id = :m ORDER BY seq"), {"m": mid}
            )
        ).all()
    return [json.loads(row.data) for row in rows]


async def people_match(
    make_client: Any, variant: str = "jackpot", deadline: int = 86400, autoplay: bool = True
) -> tuple[dict[int, httpx.AsyncClient], dict[str, Any]]:
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, f"Ana{next(_names)}", autoplay=autoplay)
    await sign_up(ben, f"Ben{next(_names)}", autoplay=autoplay)
    mid = (
        await ana.post(
            "/api/matches",
            json={"variant": variant, "seats": 2, "bots": 0, "deadline_seconds": deadline},
        )
    ).json()["id"]
    state = (await ben.post(f"/api/matches/{mid}/join", json={})).json()
    return await seated([ana, ben], mid), state


async def test_the_account_default_and_its_api(make_client: Any) -> None:
    ana = await make_client()
    await sign_up(ana, "Ana", autoplay=True)
    assert (await ana.get("/api/account/autoplay")).json() == ON
    r1 = await ana.put("/api/account/autoplay", json={"throws": True, "single_covers": False})
    assert r1.status_code == 200 and r1.json() == {"throws": True, "single_covers": False}
    assert (await ana.get("/api/account/autoplay")).json() == r1.json()
    assert (await ana.put("/api/account/autoplay", json={"throws": "x"})).status_code == 422
    guest = await make_client()
    await guest.post("/api/matches", json={"seats": 1, "bots": 0})
    assert (await guest.put("/api/account/autoplay", json=ON)).status_code == 403
    nobody = await make_client()
    assert (await nobody.get("/api/account/autoplay")).status_code == 401


@pytest.mark.parametrize("variant", ["jackpot", "classic"])
async def test_people_only_ever_act_on_real_choices(
    make_client: Any, app: Any, variant: str
) -> None:
    """The issue's test: a two-person match where each only acts on real choices."""
    for _ in range(3):
        clients, state = await people_match(make_client, variant)
        mid = state["id"]
        assert [s["autoplay"] for s in state["seats"]] == [ON, ON]
        asked = 0
        while state["status"] != "finished":
            assert is_real_choice(state), state["turn"]
            c = clients[state["turn"]["seat"]]
            turn = state["turn"]
            if turn["dice"] is None:  # the one-die choice: take two (any choice will do)
                r = await c.post(f"/api/matches/{mid}/throw", json={"dice": 2})
            else:
                r = await c.post(f"/api/matches/{mid}/cover", json={"tiles": turn["options"][-1]})
            assert r.status_code == 200, r.text
            state = r.json()
            asked += 1
        record = (await c.get(f"/api/matches/{mid}/record")).json()
        assert fair.verify(record).ok
        moves = [e for e in await live_events(app, mid) if e["type"] in ("thrown", "covered")]
        made_for = [e for e in moves if e.get("auto")]
        assert len(moves) - len(made_for) == asked  # every other move was autoplay's
        if variant == "jackpot":
            assert all(e.get("auto") for e in moves if e["type"] == "thrown")
        # The record keeps its shape: nothing in it says who pressed.
        assert "auto" not in json.dumps(record)


async def test_off_by_default_in_bot_solo_and_short_matches(make_client: Any) -> None:
    ana = await make_client()
    await sign_up(ana, "Ana", autoplay=True)
    bot = (await ana.post("/api/matches", json={"seats": 2, "bots": 1})).json()
    solo = (await ana.post("/api/matches", json={"seats": 1, "bots": 0})).json()
    for state in (bot, solo):
        assert [s["autoplay"] for s in state["seats"] if not s["bot"]] == [OFF]
        assert state["turn"]["dice"] is None  # nothing thrown for Ana
    _clients, short = await people_match(make_client, deadline=1800)
    assert [s["autoplay"] for s in short["seats"]] == [OFF, OFF]
    # Switched off on the account: off in the next match between people too.
    _clients, quiet = await people_match(make_client, autoplay=False)
    assert [s["autoplay"] for s in quiet["seats"]] == [OFF, OFF]


async def test_the_match_switch_plays_what_is_due_now(make_client: Any, app: Any) -> None:
    guest = await make_client()
    new = {"variant": "jackpot", "seats": 1, "bots": 0}
    state = (await guest.post("/api/matches", json=new)).json()
    mid = state["id"]
    assert state["turn"]["dice"] is None and state["seats"][0]["autoplay"] == OFF
    r1 = await guest.put(f"/api/matches/{mid}/autoplay", json=ON)
    assert r1.status_code == 200, r1.text
    state = r1.json()
    assert state["seats"][0]["autoplay"] == ON
    # The forced throw was made at once: what waits is a real choice, or the turn moved.
    assert state["status"] == "finished" or is_real_choice(state)
    events = await live_events(app, mid)
    assert {"type": "autoplay", "seat": 0, "throws": True, "single_covers": True}.items() <= (
        next(e for e in events if e["type"] == "autoplay").items()
    )
    stranger = await make_client()
    await sign_up(stranger, "Cy")
    refused = await stranger.put(f"/api/matches/{mid}/autoplay", json=OFF)
    assert refused.status_code == 403


async def test_the_match_switch_refuses_what_it_cannot_change(make_client: Any, app: Any) -> None:
    ana, ben, cy = await make_client(), await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    await sign_up(cy, "Cy")
    mid = (await ana.post("/api/matches", json={"seats": 3, "bots": 1})).json()["id"]
    # Waiting: a stranger is told they have no seat; a seated person that it has not begun.
    r = await cy.put(f"/api/matches/{mid}/autoplay", json=ON)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_seated"
    r = await ana.put(f"/api/matches/{mid}/autoplay", json=ON)
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_started"
    state = (await ben.post(f"/api/matches/{mid}/join", json={})).json()
    assert state["status"] == "playing"
    # A switch to what it already is: the state, and nothing written or told.
    before = len(await live_events(app, mid))
    same = next(s["autoplay"] for s in state["seats"] if s["you"])
    for _ in range(3):
        r = await ben.put(f"/api/matches/{mid}/autoplay", json=same)
        assert r.status_code == 200 and r.json()["seq"] == state["seq"]
    assert len(await live_events(app, mid)) == before
    # Out of the match: nothing more to switch.
    assert (await ben.post(f"/api/matches/{mid}/resign")).status_code == 200
    r = await ben.put(f"/api/matches/{mid}/autoplay", json=ON)
    assert r.status_code == 409 and r.json()["error"]["code"] == "seat_out"
    # Only true and false are switches: not 1, "yes" or "true".
    for bad in (1, "yes", "true", None):
        body = {"throws": bad, "single_covers": True}
        r = await ana.put(f"/api/matches/{mid}/autoplay", json=body)
        assert r.status_code == 422, (bad, r.text)
        r = await ana.put("/api/account/autoplay", json={"throws": True, "single_covers": bad})
        assert r.status_code == 422, (bad, r.text)


async def test_the_clock_starts_on_the_choice(make_client: Any) -> None:
    clients, state = await people_match(make_client, deadline=3600)
    before = utcnow()
    mid = state["id"]
    c = clients[state["turn"]["seat"]]
    # A cover choice after a throw autoplay made: its deadline runs from when it was due.
    due = datetime.fromisoformat(state["turn"]["due_at"].replace("Z", "+00:00"))
    assert due >= before + timedelta(seconds=3600 - 5)
    r1 = await c.post(f"/api/matches/{mid}/cover", json={"tiles": state["turn"]["options"][0]})
    state = r1.json()
    if state["status"] == "playing":
        assert is_real_choice(state)
        due = datetime.fromisoformat(state["turn"]["due_at"].replace("Z", "+00:00"))
        assert due >= before + timedelta(seconds=3600 - 5)


async def test_a_no_show_autoplay_threw_for_is_not_rated(make_client: Any, app: Any) -> None:
    """Autoplay throws for a person who never comes; they time out on a choice, and
    are not rated (nor is the other: fewer than two people acted)."""
    clients, state = await people_match(make_client, deadline=3600)
    mid = state["id"]
    later = utcnow() + timedelta(hours=2)
    while state["status"] == "playing":
        assert await sweep_once(app.state.db, later) >= 1
        state = (await clients[0].get(f"/api/matches/{mid}")).json()
        later += timedelta(hours=2)
    record = (await clients[0].get(f"/api/matches/{mid}/record")).json()
    assert any(e["type"] == "throw" for e in record["events"])  # autoplay threw
    async with app.state.db.read() as conn:
        assert (await conn.execute(select(r.player_ratings))).all() == []


async def test_a_match_played_out_with_autoplay_verifies(make_client: Any) -> None:
    clients, state = await people_match(make_client, "classic")
    final = await play_out(clients.values(), state)
    record = (await clients[0].get(f"/api/matches/{final['id']}/record")).json()
    assert fair.verify(record).ok


async def test_the_account_page_and_the_match_page_have_the_switch(make_client: Any) -> None:
    import re

    ana = await make_client()
    await sign_up(ana, "Anab", autoplay=True)
    page = (await ana.get("/account", headers={"accept": "text/html"})).text
    assert 'id="autoplay"' in page and 'name="throws" checked' in page
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert csrf is not None
    r1 = await ana.post(
        "/account",
        data={"csrf_token": csrf.group(1), "what": "autoplay", "throws": "on"},
        headers={"origin": "http://testserver"},
    )
    assert r1.status_code == 200 and "Forced-move setting saved" in r1.text
    assert (await ana.get("/api/account/autoplay")).json() == {
        "throws": True,
        "single_covers": False,
    }
    mid = (await ana.post("/api/matches", json={"seats": 1, "bots": 0})).json()["id"]
    match_page = (await ana.get(f"/matches/{mid}", headers={"accept": "text/html"})).text
    assert 'id="autoplay-box"' in match_page and 'id="autoplay-throws"' in match_page
