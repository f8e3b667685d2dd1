"""A seat that never threw is said to have had no turn, not a total of 0: in Classic, a
bot drawn to throw first that shuts the box wins before the person throws. "My
matches" and the replay say so (the match page's result box: tests/browser)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert

from bot_first import COMMITMENT, bot_first_seed, pending_row
from jackpot.web.base.clock import utcnow
from jackpot.web.base.tables.play import pending_seeds
from jackpot.web.matches.views import never_threw

HTML = {"accept": "text/html"}


async def bot_wins_at_once(app: Any, client: Any) -> dict[str, Any]:
    async with app.state.db.write() as conn:
        await conn.execute(insert(pending_seeds).values(**pending_row(utcnow())))
    body = {
        "variant": "classic", "seats": 2, "bots": 1, "commitment": COMMITMENT,
        "client_seed": bot_first_seed("classic", bot_wins=True),
    }
    return dict((await client.post("/api/matches", json=body)).json())


async def test_my_matches_and_the_replay_say_i_did_not_get_a_turn(app, client) -> None:  # type: ignore[no-untyped-def]
    state = await bot_wins_at_once(app, client)
    result = state["result"]
    assert state["status"] == "finished" and state["seats"][1]["you"]
    assert result["places"] == [1, 2] and result["totals"][1] == 0 and result["shut"][1] is None
    (row,) = (await client.get("/api/my/matches")).json()["matches"]
    assert row["no_turn"] is True and row["place"] == 2
    page = (await client.get("/my", headers=HTML)).text
    assert "Finished, place 2 (you did not get a turn)" in page
    pt = (await client.get("/my", headers={**HTML, "accept-language": "pt"})).text
    assert "Terminada, 2.º lugar (não chegou a ter um turno)" in pt
    replay = (await client.get(f"/matches/{state['id']}/replay", headers=HTML)).text
    summary = replay.split('id="summary"')[1].split("</table>")[0]
    rows = summary.split("<tr>")[2:]
    assert "did not get a turn" not in rows[0]  # the bot threw
    assert "did not get a turn" in rows[1]


async def test_a_seat_that_threw_has_its_total(app, client) -> None:  # type: ignore[no-untyped-def]
    state = (await client.post("/api/matches", json={"seats": 1, "bots": 0})).json()
    state = (await client.post(f"/api/matches/{state['id']}/throw", json={})).json()
    while state["status"] == "playing":
        turn = state["turn"]
        if turn["dice"] is None:
            state = (await client.post(f"/api/matches/{state['id']}/throw", json={})).json()
        else:
            body = {"tiles": turn["options"][0]}
            state = (await client.post(f"/api/matches/{state['id']}/cover", json=body)).json()
    (row,) = (await client.get("/api/my/matches")).json()["matches"]
    assert row["no_turn"] is False
    replay = (await client.get(f"/matches/{state['id']}/replay", headers=HTML)).text
    assert "did not get a turn" not in replay


def test_the_result_alone_tells_a_seat_without_a_turn() -> None:
    shut_by_0 = {"totals": [0, 0, 17], "shut": [4, None, None], "places": [1, 2, 2]}
    assert [never_threw(shut_by_0, [None, None, None], s) for s in range(3)] == [
        False, True, False,
    ]
    # Out is out, whatever its total; no shut box, no seat without a turn.
    assert not never_threw(shut_by_0, [None, "resigned", None], 1)
    no_shut = {"totals": [12, 0], "shut": [None, None], "places": [2, 1]}
    assert not never_threw(no_shut, [None, None], 1)
    assert not never_threw(None, [None], 0)
