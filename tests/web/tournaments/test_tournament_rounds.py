"""Swiss tournaments played through the API: rounds paired from the standings when the
last table ends, no repeat where a swap avoids it, points and Buchholz added by hand."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from typing import Any

from tournament_helpers import create, decide, enter, hand_standings, people, view

NAMES7 = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]
NAMES10 = [*NAMES7, "Hal", "Ivy", "Jo"]


def winner_order(rnd: int, table: dict[str, Any]) -> list[str]:
    """Who places where at a table: joining order, turned round at every other table."""
    players = list(table["players"])
    return players if (rnd + table["table"]) % 2 == 0 else players[::-1]


async def play_rounds(clients: dict[str, Any], tid: str, rounds: int) -> dict[str, Any]:
    for rnd in range(1, rounds + 1):
        state = await view(clients[NAMES7[0]], tid)
        assert state["status"] == "playing" and state["round"] == rnd
        current = state["pairings"][-1]
        assert current["round"] == rnd
        for table in current["tables"]:
            await decide(clients, table, winner_order(rnd, table))
    return await view(clients[NAMES7[0]], tid)


def check_standings(state: dict[str, Any]) -> None:
    """The API's standings are the hand-added points and Buchholz, in their order."""
    by_hand = hand_standings(state["pairings"])
    shown = state["standings"]
    assert len(shown) == len(by_hand)
    for s in shown:
        points, buchholz = by_hand[s["name"]]
        assert Fraction(s["points"]) == points, s
        assert Fraction(s["buchholz"]) == buchholz, s
    keys = [(-Fraction(s["points"]), -Fraction(s["buchholz"]), s["name"]) for s in shown]
    assert keys == sorted(keys)


def pairs_met(state: dict[str, Any]) -> list[frozenset[str]]:
    return [
        frozenset(pair)
        for rnd in state["pairings"]
        for table in rnd["tables"]
        for pair in combinations(table["players"], 2)
    ]


async def test_seven_players_at_tables_of_two(make_client) -> None:  # type: ignore[no-untyped-def]
    clients = await people(make_client, NAMES7)
    made = await create(clients["Ana"], table_size=2, rounds=3)
    tid = made["id"]
    assert made["status"] == "entering" and made["round"] == 0
    for name in NAMES7:
        r = await enter(clients[name], tid, seed=f"seed-{name}")
        assert r.status_code == 201, r.text
    assert (await view(clients["Ben"], tid))["entered"] == 7
    r = await clients["Ben"].post(f"/api/tournaments/{tid}/start")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_creator"
    r = await clients["Ana"].post(f"/api/tournaments/{tid}/start")
    assert r.status_code == 200, r.text
    first = r.json()
    # Everybody starts on 0 at the same rating: by name. Three tables and a bye for
    # the lowest.
    assert first["pairings"] == [
        {
            "round": 1,
            "ends_at": first["pairings"][0]["ends_at"],
            "tables": [
                {
                    "table": 1,
                    "match": first["pairings"][0]["tables"][0]["match"],
                    "players": ["Ana", "Ben"],
                    "places": None,
                },
                {
                    "table": 2,
                    "match": first["pairings"][0]["tables"][1]["match"],
                    "players": ["Cy", "Dee"],
                    "places": None,
                },
                {
                    "table": 3,
                    "match": first["pairings"][0]["tables"][2]["match"],
                    "players": ["Eve", "Fay"],
                    "places": None,
                },
            ],
            "byes": ["Gus"],
        }
    ]
    assert first["next"] == {
        "step": "play",
        "round": 1,
        "table": 1,
        "match": first["pairings"][0]["tables"][0]["match"],
    }
    assert (await view(clients["Gus"], tid))["next"] == {"step": "bye", "round": 1}
    # The table is a match between its players, from the tournament.
    match = (
        await clients["Ana"].get(f"/api/matches/{first['pairings'][0]['tables'][0]['match']}")
    ).json()
    assert match["origin"] == {"kind": "tournament", "id": tid}
    assert sorted(s["name"] for s in match["seats"]) == ["Ana", "Ben"]

    final = await play_rounds(clients, tid, 3)
    assert final["status"] == "finished" and final["round"] == 3
    assert [len(r["tables"]) for r in final["pairings"]] == [3, 3, 3]
    assert all(len(r["byes"]) == 1 for r in final["pairings"])
    byes = [r["byes"][0] for r in final["pairings"]]
    assert len(set(byes)) == 3  # nobody sits out twice while others have not
    met = pairs_met(final)
    assert len(met) == len(set(met)), "a pair met twice though a swap avoided it"
    check_standings(final)
    # By hand. Round 1: Ana, Dee (table 2 turned round) and Eve win, Gus sits out.
    # After it: Ana, Dee, Eve on 1 (Buchholz 0), Gus 1/2, Ben, Cy, Fay on 0 (Buchholz
    # 1); Fay is the lowest without a bye.
    r1, r2, r3 = final["pairings"]
    assert [t["places"] for t in r1["tables"]] == [[1, 2], [2, 1], [1, 2]]
    assert [t["players"] for t in r2["tables"]] == [["Ana", "Dee"], ["Eve", "Gus"], ["Ben", "Cy"]]
    assert r2["byes"] == ["Fay"]
    # Round 2: Dee, Eve, Cy win. Dee and Eve on 2 (Buchholz 2 and 1), Ana and Cy on 1
    # (2 and 2), Fay and Gus on 1/2 (2 and 2), Ben on 0, who has not sat out yet.
    assert [t["players"] for t in r3["tables"]] == [["Dee", "Eve"], ["Ana", "Cy"], ["Fay", "Gus"]]
    assert r3["byes"] == ["Ben"]
    # Round 3: Dee, Cy, Fay win.
    assert [(s["name"], s["points"], s["buchholz"]) for s in final["standings"]] == [
        ("Dee", "3", "5"),
        ("Eve", "2", "5"),
        ("Cy", "2", "9/2"),
        ("Fay", "3/2", "5/2"),
        ("Ana", "1", "11/2"),
        ("Gus", "1/2", "7/2"),
        ("Ben", "1/2", "3"),
    ]
    places = {s["name"]: s["rank"] for s in final["standings"]}
    assert sorted(places.values()) == list(range(1, 8))
    done = (await view(clients["Gus"], tid))["next"]
    assert done == {"step": "done", "place": places["Gus"]}


async def test_ten_players_at_tables_of_four(make_client) -> None:  # type: ignore[no-untyped-def]
    clients = await people(make_client, NAMES10)
    tid = (await create(clients["Ana"], table_size=4, rounds=3))["id"]
    for name in NAMES10:
        assert (await enter(clients[name], tid)).status_code == 201
    r = await clients["Ana"].post(f"/api/tournaments/{tid}/start")
    assert r.status_code == 200, r.text
    first = r.json()["pairings"][0]
    assert [t["players"] for t in first["tables"]] == [
        ["Ana", "Ben", "Cy", "Dee"],
        ["Eve", "Fay", "Gus"],
        ["Hal", "Ivy", "Jo"],
    ]
    assert first["byes"] == []
    final = await play_rounds(clients, tid, 3)
    assert final["status"] == "finished"
    for rnd in final["pairings"]:
        assert [len(t["players"]) for t in rnd["tables"]] == [4, 3, 3]
    check_standings(final)
    # Each round hands out n / 2 points at a table of n: 5 a round.
    points = [Fraction(s["points"]) for s in final["standings"]]
    assert sum(points) == 3 * Fraction(4 + 3 + 3, 2)


async def test_a_block_keeps_two_players_apart(make_client) -> None:  # type: ignore[no-untyped-def]
    names = ["Ana", "Ben", "Cy", "Dee"]
    clients = await people(make_client, names)
    tid = (await create(clients["Ana"], table_size=2, rounds=2))["id"]
    for name in names:
        assert (await enter(clients[name], tid)).status_code == 201
    # By name Ana and Ben would share table 1; Ben blocked Ana.
    assert (await clients["Ben"].put("/api/blocks/Ana")).status_code == 200
    r = await clients["Ana"].post(f"/api/tournaments/{tid}/start")
    assert r.status_code == 200, r.text
    tables = [t["players"] for t in r.json()["pairings"][0]["tables"]]
    assert tables == [["Ana", "Cy"], ["Ben", "Dee"]]
    export = (await clients["Cy"].get(f"/api/tournaments/{tid}/export")).json()
    assert export["apart"] == [{"players": [0, 1], "from_round": 1}]
    for table in r.json()["pairings"][0]["tables"]:
        await decide(clients, table, table["players"])
    second = (await view(clients["Ana"], tid))["pairings"][1]["tables"]
    assert all({"Ana", "Ben"} - set(t["players"]) for t in second)
