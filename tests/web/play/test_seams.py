"""The seams features plug into: the one match end and its listeners, the one rule for
showing a seed, events published on commit only, background steps."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import update
from web_helpers import sign_up

from jackpot.web.base.clock import utcnow
from jackpot.web.base.steps import Step, run_steps
from jackpot.web.base.storage.db import Database, publish_on_commit
from jackpot.web.base.tables import core as t
from jackpot.web.matches.news import MatchEnd
from jackpot.web.play.hooks import HOOKS, listening
from jackpot.web.play.sweeper import expire_lobby, sweep_once

_names = iter(range(10_000))


async def person(make_client: Any) -> Any:
    c = await make_client()
    await sign_up(c, f"Seam{next(_names)}")
    return c


async def test_every_way_a_match_ends_goes_through_the_finisher(
    app: Any, make_client: Any
) -> None:
    heard: list[MatchEnd] = []

    async def spy(conn: Any, end: MatchEnd) -> None:
        heard.append(end)

    ana, ben = await person(make_client), await person(make_client)
    with listening(HOOKS.match_end, spy):
        # Resigned: the last other seat of a bot match goes.
        # (A Jackpot match is never over before its first round ends.)
        bot = (await ana.post("/api/matches", json={"seats": 2, "bots": 1})).json()
        assert bot["status"] == "playing"
        assert (await ana.post(f"/api/matches/{bot['id']}/resign")).status_code == 200
        # Played: solo Classic is one turn; throw and cover until it ends.
        solo = (await ana.post("/api/matches", json={"variant": "classic", "seats": 1,
                                                     "bots": 0})).json()
        while solo["status"] != "finished":
            turn = solo["turn"]
            if turn["dice"] is None:
                solo = (await ana.post(f"/api/matches/{solo['id']}/throw", json={})).json()
            else:
                solo = (await ana.post(f"/api/matches/{solo['id']}/cover",
                                       json={"tiles": turn["options"][0]})).json()
        # Called off by its creator, and expired in the lobby.
        mine = (await ana.post("/api/matches", json={"seats": 2, "bots": 0})).json()
        assert (await ana.post(f"/api/matches/{mine['id']}/resign")).status_code == 200
        stale = (await ben.post("/api/matches", json={"seats": 2, "bots": 0})).json()
        assert await expire_lobby(app.state.db, utcnow() + timedelta(days=8)) == 1
        # Timed out: the only other person misses a throw.
        timed = (await ana.post("/api/matches", json={"seats": 2, "bots": 0,
                                                      "deadline_seconds": 60})).json()
        await ben.post(f"/api/matches/{timed['id']}/join", json={})
        assert await sweep_once(app.state.db, utcnow() + timedelta(seconds=61)) == 1
    how = {end.match_id: end.how for end in heard}
    assert how[bot["id"]] == "resigned"
    assert how[solo["id"]] == "played"
    assert how[mine["id"]] == "cancelled" and how[stale["id"]] == "expired"
    assert how[timed["id"]] == "timeout"
    ended = {end.match_id: end for end in heard}
    assert ended[mine["id"]].match is None  # never started
    assert ended[solo["id"]].row["status"] == "finished"  # as the end wrote it
    assert len(heard) == len(how)  # each end heard once


async def test_a_listener_that_fails_rolls_the_end_back(app: Any, make_client: Any) -> None:
    """The listeners run inside the ending transaction: what fails there undoes the end."""
    ana = await person(make_client)
    mine = (await ana.post("/api/matches", json={"seats": 2, "bots": 0})).json()

    async def broken(conn: Any, end: MatchEnd) -> None:
        raise RuntimeError("listener failed")

    with listening(HOOKS.match_end, broken), pytest.raises(RuntimeError):
        await ana.post(f"/api/matches/{mine['id']}/resign")
    assert (await ana.get(f"/api/matches/{mine['id']}")).json()["status"] == "waiting"


async def test_a_seed_held_back_stays_hidden_after_the_end(app: Any, make_client: Any) -> None:
    """A finished match whose seed is held until a later time: no seed in the state,
    the record, the end's live event, nor the bot's strength; shown once that time
    has passed."""
    ana = await person(make_client)
    db: Database = app.state.db
    state = (await ana.post("/api/matches", json={"seats": 2, "bots": 1})).json()
    mid = state["id"]
    assert state["status"] == "playing"  # (Jackpot: never over before the first round ends)
    async with db.write() as conn:
        await conn.execute(
            update(t.matches).where(t.matches.c.id == mid)
            .values(seed_hidden_until=utcnow() + timedelta(days=1))
        )
    sub = app.state.bus.subscribe(mid)
    assert (await ana.post(f"/api/matches/{mid}/resign")).status_code == 200
    events = []
    while not sub.queue.empty():
        events.append(sub.queue.get_nowait())
    (end,) = [e for e in events if e["type"] == "match_ended"]
    assert end["server_seed"] is None and "hidden" in end["strengths"]
    sub.close()
    finished = (await ana.get(f"/api/matches/{mid}")).json()
    assert finished["status"] == "finished" and finished["server_seed"] is None
    bot = next(i for i, seat in enumerate(state["seats"]) if seat["bot"])  # drawn
    record = (await ana.get(f"/api/matches/{mid}/record")).json()
    assert record["server_seed"] is None and record["seats"][bot]["bot"] == "hidden"
    # The replay values every throw, so it waits for the seed too.
    assert (await ana.get(f"/matches/{mid}/replay")).status_code == 409

    async with db.write() as conn:
        await conn.execute(
            update(t.matches).where(t.matches.c.id == mid)
            .values(seed_hidden_until=utcnow() - timedelta(seconds=1))
        )
    shown = (await ana.get(f"/api/matches/{mid}")).json()
    assert shown["server_seed"] is not None
    record = (await ana.get(f"/api/matches/{mid}/record")).json()
    assert record["server_seed"] == shown["server_seed"]
    assert record["seats"][bot]["bot"] in ("lowest", "highest", "best")
    assert (await ana.get(f"/matches/{mid}/replay")).status_code == 200


async def test_events_go_out_only_once_committed(app: Any) -> None:
    db: Database = app.state.db
    sub = app.state.bus.subscribe("m_seam")
    with pytest.raises(RuntimeError):
        async with db.write() as conn:
            publish_on_commit(conn, "m_seam", [{"type": "x", "seq": 1}])
            raise RuntimeError("rolled back")
    assert sub.queue.empty()
    async with db.write() as conn:
        publish_on_commit(conn, "m_seam", [{"type": "y", "seq": 1}])
        assert sub.queue.empty()  # not before the commit
    assert sub.queue.get_nowait() == {"type": "y", "seq": 1}
    sub.close()


async def test_a_failing_step_does_not_stop_the_others() -> None:
    stop = asyncio.Event()
    counts = {"ok": 0, "bad": 0}

    async def ok() -> int:
        counts["ok"] += 1
        if counts["ok"] >= 3:
            stop.set()
        return 1

    async def bad() -> None:
        counts["bad"] += 1
        raise RuntimeError("a bad pass")

    await asyncio.wait_for(
        run_steps([Step("bad", 0.01, bad), Step("ok", 0.01, ok)], stop), timeout=10
    )
    assert counts["ok"] >= 3 and counts["bad"] >= 1
