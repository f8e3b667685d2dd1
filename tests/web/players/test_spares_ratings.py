"""Ratings and spare deadlines: a no-show stays unrated though its spares were used
first, and a match in which a spare was used is rated as any other."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from openskill.models import PlackettLuce
from ratings_helpers import by_joining, joining_order, people, play
from sqlalchemy import select
from web_helpers import join_in_joining_order

from jackpot.web.base.tables import core as t
from jackpot.web.base.tables import players as r
from jackpot.web.play.sweeper import sweep_once

MODEL = PlackettLuce()


async def spare_match(clients: list[Any], spares: int = 1) -> dict[str, Any]:
    """clients[0] throws first, in a match with ``spares`` and an hour a throw."""
    body = {"seats": len(clients), "bots": 0, "deadline_seconds": 3600, "spares": spares}
    state = (await clients[0].post("/api/matches", json=body)).json()
    state = (await join_in_joining_order(clients[-1], state["id"])).json()
    assert state["status"] == "playing" and state["turn"]["seat"] == 0
    return dict(state)


async def miss(app: Any, client: Any, match_id: str) -> dict[str, Any]:
    """Let the deadline due now pass: the sweeper uses a spare or puts the seat out."""
    state = (await client.get(f"/api/matches/{match_id}")).json()
    due = datetime.fromisoformat(state["turn"]["due_at"].replace("Z", "+00:00"))
    assert await sweep_once(app.state.db, due + timedelta(seconds=1)) == 1
    return dict((await client.get(f"/api/matches/{match_id}")).json())


async def ratings(app: Any) -> dict[str, Any]:
    async with app.state.db.read() as conn:
        rows = (
            await conn.execute(
                select(t.users.c.name, r.player_ratings).join(
                    r.player_ratings, r.player_ratings.c.user_id == t.users.c.id
                )
            )
        ).all()
    return {row.name: row for row in rows}


async def test_a_no_show_with_spares_stays_unrated(make_client: Any, app: Any) -> None:
    ana, ben = await people(make_client, ["Ana", "Ben"])
    state = await spare_match([ana, ben])
    state = await miss(app, ben, state["id"])  # Ana's spare
    assert state["seats"][0]["spares_left"] == 0 and state["status"] == "playing"
    state = await miss(app, ben, state["id"])  # and then Ana is out, never having thrown
    assert state["status"] == "finished" and state["seats"][0]["out"] == "timeout"
    assert await ratings(app) == {}
    async with app.state.db.read() as conn:
        assert len((await conn.execute(select(r.seat_stats))).all()) == 2


async def test_a_match_with_a_spare_used_is_rated(make_client: Any, app: Any) -> None:
    ana, ben = await people(make_client, ["Ana", "Ben"])
    state = await spare_match([ana, ben])
    state = await miss(app, ben, state["id"])  # Ana's spare; then both play it out
    assert state["seats"][0]["spares_left"] == 0
    state = await play([ana, ben], state)
    record = (await ana.get(f"/api/matches/{state['id']}/record")).json()
    assert {"type": "spare", "seat": 0} in record["events"]
    places = by_joining(state["result"]["places"], await joining_order(ana, state["id"]))
    teams = [[MODEL.rating(mu=MODEL.mu, sigma=MODEL.sigma)] for _ in range(2)]
    want = [(team[0].mu, team[0].sigma) for team in MODEL.rate(teams, ranks=places)]
    got = await ratings(app)
    for name, (mu, sigma) in zip(["Ana", "Ben"], want, strict=True):
        assert (got[name].mu, got[name].sigma) == (mu, sigma) and got[name].matches == 1
