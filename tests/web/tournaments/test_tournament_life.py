"""A tournament's life beyond the plain rounds: withdrawing before and during play, a
round whose time runs out, the export that verify-tournament accepts (and refuses
once tampered with), and the refusals of bad input."""

from __future__ import annotations

import copy
from datetime import timedelta
from typing import Any

import httpx
from sqlalchemy import select
from tournament_helpers import create, db_of, decide, enter, people, view
from web_helpers import move

from jackpot.fair.verify import verify
from jackpot.fair.verify_tournament import verify_tournament
from jackpot.web.base.clock import utcnow
from jackpot.web.base.tables.players import seat_stats
from jackpot.web.players.reviews import review_pass
from jackpot.web.tournaments.steps import end_rounds, start_due


async def play_out(clients: dict[str, httpx.AsyncClient], match_id: str) -> dict[str, Any]:
    """Play a match to its end through the API, each seat its obvious move."""
    any_client = next(iter(clients.values()))
    for _ in range(2000):
        state = (await any_client.get(f"/api/matches/{match_id}")).json()
        if state["status"] == "finished":
            return dict(state)
        name = state["seats"][state["turn"]["seat"]]["name"]
        mine = (await clients[name].get(f"/api/matches/{match_id}")).json()
        r = await move(clients[name], mine)
        assert r.status_code == 200, r.text
    raise AssertionError("the match did not end")


async def test_withdrawing_before_and_during_play(make_client) -> None:  # type: ignore[no-untyped-def]
    names = ["Ana", "Ben", "Cy", "Dee", "Eve"]
    clients = await people(make_client, names)
    tid = (await create(clients["Ana"], table_size=2, rounds=2))["id"]
    for name in names:
        assert (await enter(clients[name], tid)).status_code == 201
    # Before the start the entry goes.
    r = await clients["Eve"].delete(f"/api/tournaments/{tid}/entries/me")
    assert r.status_code == 200, r.text
    state = r.json()
    assert state["entered"] == 4 and "Eve" not in [s["name"] for s in state["standings"]]
    assert state["next"] == {"step": "enter"}
    r = await clients["Eve"].delete(f"/api/tournaments/{tid}/entries/me")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "not_entered")
    r = await clients["Ana"].post(f"/api/tournaments/{tid}/start")
    assert r.status_code == 200, r.text
    tables = r.json()["pairings"][0]["tables"]
    assert [t["players"] for t in tables] == [["Ana", "Ben"], ["Cy", "Dee"]]
    # Cy withdraws mid-round: the match is resigned, Dee wins it.
    r = await clients["Cy"].delete(f"/api/tournaments/{tid}/entries/me")
    assert r.status_code == 200, r.text
    assert r.json()["next"] == {"step": "withdrawn"}
    match = (await clients["Dee"].get(f"/api/matches/{tables[1]['match']}")).json()
    assert match["status"] == "finished"
    assert [s["out"] for s in match["seats"] if s["name"] == "Cy"] == ["resigned"]
    again = await clients["Cy"].delete(f"/api/tournaments/{tid}/entries/me")
    assert (again.status_code, again.json()["error"]["code"]) == (409, "withdrawn")
    await decide(clients, tables[0], ["Ben", "Ana"])
    state = await view(clients["Ana"], tid)
    # Round 2: three still in, so one table and a bye; Cy stays in the standings.
    r2 = state["pairings"][1]
    assert "Cy" not in [p for t in r2["tables"] for p in t["players"]] + r2["byes"]
    assert len(r2["tables"]) == 1 and len(r2["byes"]) == 1
    standings = {s["name"]: s for s in state["standings"]}
    assert standings["Cy"]["withdrawn"] is True and standings["Cy"]["points"] == "0"
    assert standings["Dee"]["points"] == "1" and standings["Dee"]["buchholz"] == "0"
    export = (await clients["Ana"].get(f"/api/tournaments/{tid}/export")).json()
    assert export["rounds"][0]["withdrawn"] == [2]


async def test_a_round_that_times_out(make_client) -> None:  # type: ignore[no-untyped-def]
    names = ["Ana", "Ben", "Cy"]
    clients = await people(make_client, names)
    soon = utcnow() + timedelta(seconds=60)
    tid = (await create(clients["Ana"], rounds=2, round_seconds=3600, starts_at=soon.isoformat()))[
        "id"
    ]
    for name in names:
        assert (await enter(clients[name], tid)).status_code == 201
    db = db_of(clients["Ana"])
    assert await start_due(db, soon - timedelta(seconds=1)) == 0
    assert await start_due(db, soon) == 1
    state = await view(clients["Ana"], tid)
    assert state["status"] == "playing"
    table = state["pairings"][0]["tables"][0]
    assert table["players"] == ["Ana", "Ben"] and state["pairings"][0]["byes"] == ["Cy"]
    # Before the round's end nothing happens; at its end the match plays its round out.
    assert await end_rounds(db, soon + timedelta(seconds=3599)) == 0
    assert await end_rounds(db, soon + timedelta(seconds=3601)) == 1
    assert await end_rounds(db, soon + timedelta(seconds=3602)) == 0
    ended = await play_out(clients, table["match"])
    assert ended["result"]["rounds"] == 1
    record = (await clients["Ana"].get(f"/api/matches/{table['match']}/record")).json()
    assert {"type": "last_round", "round": 1} in record["events"]
    # The table's own record: where it was played, its players' parts kept secret
    # while the tournament goes on; everything else verifies.
    assert record["format"] == "jackpot-record/4"
    assert record["tournament"] == {"id": tid, "round": 1, "table": 1}
    assert [p["part"] for p in record["parts"]] == [None, None]
    checked = verify(record)
    assert not checked.ok and checked.awaiting_parts, checked.summary
    state = await view(clients["Ana"], tid)
    assert state["round"] == 2 and len(state["pairings"]) == 2
    assert state["pairings"][1]["byes"] != ["Cy"]
    # The review after the end reads the cut-short table too: its seats' turns count.
    await review_pass(db)
    async with db.read() as conn:
        turns = (
            await conn.execute(
                select(seat_stats.c.turns).where(seat_stats.c.match_id == table["match"])
            )
        ).scalars().all()
    assert sum(turns) > 0, turns


async def test_the_export_verifies_and_a_tampered_one_is_refused(make_client) -> None:  # type: ignore[no-untyped-def]
    names = ["Ana", "Ben", "Cy", "Dee"]
    clients = await people(make_client, names)
    tid = (await create(clients["Ana"], table_size=3, rounds=2, spares=2))["id"]
    for name in names:
        assert (await enter(clients[name], tid, seed=f"s-{name}")).status_code == 201
    assert (await clients["Ana"].get(f"/api/tournaments/{tid}/export")).status_code == 403
    r = await clients["Ana"].post(f"/api/tournaments/{tid}/start")
    assert r.status_code == 200, r.text
    # Round 1 played out with real throws, round 2 by resignations.
    for table in r.json()["pairings"][0]["tables"]:
        await play_out({n: clients[n] for n in table["players"]}, table["match"])
    playing = (await clients["Ben"].get(f"/api/tournaments/{tid}/export")).json()
    assert playing["status"] == "playing"
    assert all(e["part"] is None for e in playing["entries"])
    waiting = verify_tournament(playing)
    assert waiting.awaiting_parts, waiting.summary
    state = await view(clients["Ana"], tid)
    for table in state["pairings"][1]["tables"]:
        await decide(clients, table, table["players"])
    export = (await clients["Ben"].get(f"/api/tournaments/{tid}/export")).json()
    assert export["status"] == "ended"
    verdict = verify_tournament(export)
    assert verdict.ok, verdict.summary
    # Each table's own record, from the match API, verifies now the parts are out.
    first = export["rounds"][0]["tables"][0]
    own = (await clients["Cy"].get(f"/api/matches/{first['record']['id']}/record")).json()
    assert own == first["record"] and all(p["part"] for p in own["parts"])
    assert verify(own).ok
    # A point moved from one player to another is found.
    tampered = copy.deepcopy(export)
    tampered["standings"][0]["points"], tampered["standings"][1]["points"] = (
        tampered["standings"][1]["points"],
        tampered["standings"][0]["points"],
    )
    assert tampered != export
    refused = verify_tournament(tampered)
    assert not refused.ok and refused.problem
    # So is a table's players swapped.
    swapped = copy.deepcopy(export)
    first = swapped["rounds"][1]["tables"][0]
    first["players"] = first["players"][::-1]
    assert not verify_tournament(swapped).ok
    # And a part that is not the one committed to.
    wrong = copy.deepcopy(export)
    wrong["entries"][0]["part"] = "0" * 64
    assert not verify_tournament(wrong).ok


async def test_bad_input_is_refused_by_name(make_client) -> None:  # type: ignore[no-untyped-def]
    clients = await people(make_client, ["Ana", "Ben"])
    ana = clients["Ana"]
    good = {"starts_at": (utcnow() + timedelta(hours=1)).isoformat()}
    for bad, word in (
        ({"table_size": 5}, "table_size"),
        ({"rounds": 16}, "rounds"),
        ({"spares": 6}, "spares"),
        ({"max_players": 1}, "max_players"),
        ({"variant": "chess"}, "variant"),
        ({"starts_at": "tomorrow"}, "starts_at"),
        ({"starts_at": "2020-01-01T00:00:00Z"}, "starts_at"),
        ({"round_seconds": 60, "deadline_seconds": 3600}, "round_seconds"),
    ):
        r = await ana.post("/api/tournaments", json=good | {"deadline_seconds": 60} | bad)
        assert r.status_code == 422, (bad, r.text)
        assert word in r.json()["error"]["message"], (bad, r.text)
    r = await ana.post("/api/tournaments", json=good | {"colour": "red"})
    assert r.status_code == 422
    tid = (await create(ana))["id"]
    r = await ana.get("/api/tournaments/t_nothere")
    assert r.status_code == 404
    r = await ana.post(f"/api/tournaments/{tid}/entries", json={"commitment": "f" * 64})
    assert (r.status_code, r.json()["error"]["code"]) == (409, "commitment_unknown")
    r = await ana.post(f"/api/tournaments/{tid}/entries", json={"commitment": "nope"})
    assert r.status_code == 422
    assert (await enter(ana, tid)).status_code == 201
    again = await enter(ana, tid)
    assert (again.status_code, again.json()["error"]["code"]) == (409, "already_entered")
    r = await ana.post(f"/api/tournaments/{tid}/start")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "too_few")
    listed = (await ana.get("/api/tournaments")).json()
    assert [t["id"] for t in listed["upcoming"]] == [tid] and listed["upcoming"][0]["entered"] == 1
    hidden = (await create(ana, private=True))["id"]
    listed = (await ana.get("/api/tournaments")).json()
    assert hidden not in [t["id"] for part in listed.values() for t in part]
    # By invitation: whoever has the link may read it.
    stranger = await make_client()
    assert (await stranger.get(f"/api/tournaments/{hidden}")).status_code == 200
    # Two places: Ben takes the second, and a third person finds it full.
    small = (await create(ana, max_players=2))["id"]
    assert (await enter(ana, small)).status_code == 201
    assert (await enter(clients["Ben"], small)).status_code == 201
    cy = (await people(make_client, ["Cy"]))["Cy"]
    full = await enter(cy, small)
    assert (full.status_code, full.json()["error"]["code"]) == (409, "full")
    assert (await view(cy, small))["entered"] == 2
