"""Playing through the API: the bot, solo practice, two people; records verify."""

from __future__ import annotations

import httpx
import pytest
from web_helpers import bot_match, play_out, seat_of, seated, sign_up

from jackpot import fair


@pytest.mark.parametrize("variant", ["jackpot", "classic"])
async def test_guest_plays_the_bot_and_the_record_verifies(
    client: httpx.AsyncClient, variant: str
) -> None:
    state = await bot_match(client, variant)
    assert state["status"] == "playing"
    # The order of play is drawn from the seed: the bot may throw first.
    assert [s["you"] for s in state["seats"]] == [not s["bot"] for s in state["seats"]]
    assert sum(s["bot"] for s in state["seats"]) == 1
    assert state["server_seed"] is None
    assert "jackpot_session" in client.cookies
    assert state["turn"]["due_at"] is not None
    final = await play_out({0: client}, state, check_fresh=True)
    assert final["result"] is not None
    assert fair.commitment(final["server_seed"]) == final["commitment"]
    record = (await client.get(f"/api/matches/{state['id']}/record")).json()
    assert record["format"] == "jackpot-record/3"
    bot = next(i for i, s in enumerate(state["seats"]) if s["bot"])
    assert record["seats"][bot]["bot"] in {"lowest", "highest", "best"}
    assert record["joined"][bot] == 1  # the bot joins after the person
    verdict = fair.verify(fair.parse_record(record))
    assert verdict.ok, verdict.problem


async def test_solo_practice_ends_with_the_one_seat_winning(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/matches", json={"variant": "classic", "seats": 1, "bots": 0})
    state = r.json()
    final = await play_out({0: client}, state)
    assert final["result"]["winners"] == [0]
    assert final["result"]["places"] == [1]


async def test_two_people_and_a_bot(make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    r = await ana.post(
        "/api/matches",
        json={
            "variant": "jackpot",
            "seats": 3,
            "bots": 1,
            "deadline_seconds": 3600,
            "client_seed": "ana-seed",
        },
    )
    assert r.status_code == 201
    state = r.json()
    assert state["status"] == "waiting" and state["turn"] is None
    lobby = (await ben.get("/api/matches")).json()["matches"]
    assert [m["id"] for m in lobby] == [state["id"]]
    r = await ben.post(f"/api/matches/{state['id']}/join", json={"client_seed": "ben_seed"})
    assert r.status_code == 200
    state = r.json()
    assert state["status"] == "playing"
    assert state["client_seed"] == "ana-seed.ben_seed"
    record = (await ana.get(f"/api/matches/{state['id']}/record")).json()
    joining = ["Ana", "Ben", "Bot"]
    assert [s["name"] for s in state["seats"]] == [joining[j] for j in record["joined"]]
    assert (await ben.get("/api/matches")).json()["matches"] == []
    # Whoever the draw put first (the bot, if first, has moved already) is asked.
    first = (await seated([ana, ben], state["id"]))[state["turn"]["seat"]]
    mine = (await first.get("/api/my/matches")).json()["matches"]
    assert mine[0]["your_turn"] is True and mine[0]["due_at"] is not None
    final = await play_out([ana, ben], state, check_fresh=True)
    record = (await ana.get(f"/api/matches/{state['id']}/record")).json()
    assert fair.verify(fair.parse_record(record)).ok
    assert sorted(final["result"]["places"])[0] == 1


async def test_resigning_puts_the_seat_out_and_the_other_wins(make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    mid = (await ana.post("/api/matches", json={"seats": 2, "bots": 0})).json()["id"]
    await ben.post(f"/api/matches/{mid}/join", json={})
    b = await seat_of(ben, mid)
    r = await ben.post(f"/api/matches/{mid}/resign")
    assert r.status_code == 200
    state = r.json()
    assert state["status"] == "finished"
    assert state["seats"][b]["out"] == "resigned"
    assert state["result"]["winners"] == [1 - b]
    record = (await ana.get(f"/api/matches/{mid}/record")).json()
    assert record["events"] == [{"type": "out", "seat": b, "reason": "resigned"}]
    assert fair.verify(fair.parse_record(record)).ok


async def test_server_seed_is_in_no_response_before_the_end(make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    log: list[str] = []
    r = await ana.post("/api/matches", json={"variant": "classic", "seats": 3, "bots": 1})
    log.append(r.text)
    mid = r.json()["id"]
    for c in (ana, ben):
        for path in (f"/matches/{mid}", "/lobby", "/my", "/api/matches", "/api/my/matches"):
            log.append((await c.get(path)).text)
    r = await ben.post(f"/api/matches/{mid}/join", json={})
    log.append(r.text)
    state = r.json()
    # Play until just before the end; the final move is made separately.
    final = await play_out([ana, ben], state, log)
    seed = final["server_seed"]
    assert seed is not None and len(seed) == 64
    ended_at = next(i for i, text in enumerate(log) if seed in text)
    # The first response holding the seed is the one that finished the match.
    assert '"status":"finished"' in log[ended_at]
    assert all(seed not in text for text in log[:ended_at])
    # Nor in any live event before the one that ends the match.
    from sqlalchemy import text as sql

    async with ana._transport.app.state.db.read() as conn:  # type: ignore[attr-defined]
        rows = (
            await conn.execute(
                sql("SELECT data FROM match_events WHERE match_id = :m ORDER BY seq"), {"m": mid}
            )
        ).all()
    assert seed in rows[-2].data or seed in rows[-1].data
    assert all(seed not in row.data for row in rows if '"match_ended"' not in row.data)


async def test_a_classic_shut_shares_the_place_after_the_winner(client: httpx.AsyncClient) -> None:
    """jackpot-record/3: when a shut box ends a Classic match, every other seat still
    in shares second place (those after the shutter never threw), and the record
    that says so verifies. Matches against two bots until somebody shuts the box."""
    for _ in range(80):
        r = await client.post("/api/matches", json={"variant": "classic", "seats": 3, "bots": 2})
        state = r.json()
        if state["status"] == "playing":
            state = await play_out({0: client}, state)
        result = state["result"]
        shutter = next((s for s, n in enumerate(result["shut"]) if n is not None), None)
        if shutter is None:
            continue
        assert result["winners"] == [shutter]
        assert sorted(result["places"]) == [1, 2, 2]
        record = (await client.get(f"/api/matches/{state['id']}/record")).json()
        assert record["format"] == "jackpot-record/3"
        verdict = fair.verify(fair.parse_record(record))
        assert verdict.ok, verdict.problem
        return
    raise AssertionError("no Classic match of 80 ended with a shut box")
