"""A match's WebSocket (socket_moves.py) against a real server: moves in, answers
and events out on one connection, the same results as the HTTP API, and bad input
answered with an error frame that leaves the socket and the match as they were."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from multi_helpers import OVER, Player, bearer, new_people_match, next_move, sign_up
from websockets.exceptions import ConnectionClosed, InvalidStatus


async def _two_players(servers: Any, http: httpx.AsyncClient) -> tuple[Any, list[str], dict]:
    srv = servers()
    tokens = [await sign_up(http, srv.url, "Ann"), await sign_up(http, srv.url, "Ben")]
    http.base_url = httpx.URL(srv.url)
    return srv, tokens, await new_people_match(http, tokens)


async def test_moves_and_events_on_one_socket(servers: Any, http: httpx.AsyncClient) -> None:
    srv, tokens, state = await _two_players(servers, http)
    mid = state["id"]
    async with Player(srv.url, mid, tokens[0]) as p0, Player(srv.url, mid, tokens[1]) as p1:
        # Joining and the start happened before the sockets opened: the backlog.
        await p0.wait_for_seq(state["seq"])
        assert [e["seq"] for e in p0.events] == list(range(1, state["seq"] + 1))
        players = [p0, p1]
        for _ in range(30):
            move = next_move(state)
            if move is None:
                break
            seat, action, body = move
            answer = await players[seat].move(action, body)
            assert answer["type"] == "ack", answer
            # The answer's seq is a fresh load's, and every event up to it has come
            # (the answer carries its move's); they say what is due as the state does.
            r = await http.get(f"/api/matches/{mid}", headers=bearer(tokens[seat]))
            state = r.json()
            assert answer["seq"] == state["seq"]
            assert players[seat].events[-1]["seq"] == state["seq"]
            due = players[seat].due()
            assert due == (OVER if next_move(state) is None else next_move(state))
            await players[1 - seat].wait_for_seq(state["seq"])
        for p in players:  # every event once, in order, to both seats
            assert [e["seq"] for e in p.events] == list(range(1, state["seq"] + 1))
        stored = await http.get(f"/api/matches/{mid}/record")
        thrown = [e for e in p1.events if e["type"] == "thrown"]
        throws = [e for e in stored.json()["events"] if e["type"] == "throw"]
        assert [e["dice"] for e in thrown] == [e["dice"] for e in throws]
    # Resuming after the last event seen gives only what came after it.
    async with Player(srv.url, mid, tokens[0], last_event_id=state["seq"] - 2) as again:
        await again.wait_for_seq(state["seq"])
        assert [e["seq"] for e in again.events] == [state["seq"] - 1, state["seq"]]


#: (frame, error code, the id the answer echoes: null only where none could be read).
BAD_FRAMES: list[tuple[str | bytes, str, Any]] = [
    ("{nope", "bad_json", None),
    (b"\x00\x01", "bad_frame", None),
    ("[1, 2]", "bad_frame", None),
    ('{"id": [1], "action": "throw"}', "bad_frame", None),
    ('{"id": 5, "action": "dance"}', "bad_action", 5),
    ('{"id": "six", "action": "cover", "tiles": "all"}', "invalid", "six"),
    ('{"id": 7, "action": "throw", "dice": "many"}', "invalid", 7),
    ('{"id": 8, "action": "throw", "dice": 3}', "invalid", 8),
    # Taken as the models take them: a bool or a float is not a number of dice or a tile.
    ('{"id": 11, "action": "throw", "dice": true}', "invalid", 11),
    ('{"id": 12, "action": "throw", "dice": 2.0}', "invalid", 12),
    ('{"id": 13, "action": "cover", "tiles": [1, true]}', "invalid", 13),
    ('{"id": 14, "action": "cover", "tiles": [1.0]}', "invalid", 14),
    ('{"id": 15, "action": "cover"}', "invalid", 15),
    ('{"id": 9, "action": "cover", "tiles": [1, 1]}', "not_on_offer", 9),
    ('{"id": 10, "action": "cover", "tiles": [1]}', "wrong_phase", 10),
    ("[" * 2000 + "]" * 2000, "bad_json", None),  # deeper than the JSON parser goes
]


async def test_bad_frames_get_an_error_and_change_nothing(
    servers: Any, http: httpx.AsyncClient
) -> None:
    srv, tokens, state = await _two_players(servers, http)
    mid = state["id"]
    seat = state["turn"]["seat"]
    async with Player(srv.url, mid, tokens[seat]) as p:
        for frame, code, request_id in BAD_FRAMES:
            await p.send(frame)
            answer = await p.reply()
            assert answer["type"] == "error", (frame, answer)
            assert answer["error"]["code"] == code, (frame, answer)
            assert answer["id"] == request_id, (frame, answer)
            assert answer["error"]["message"]
            assert 400 <= answer["status"] < 500
        # The socket still works, and the match was as it was until this throw.
        after = (await http.get(f"/api/matches/{mid}")).json()
        assert after["seq"] == state["seq"]
        ok = await p.move("throw", {})
        assert ok["type"] == "ack", ok


async def test_who_may_move_and_connect(servers: Any, http: httpx.AsyncClient) -> None:
    srv, tokens, state = await _two_players(servers, http)
    mid = state["id"]
    seat = state["turn"]["seat"]
    # A spectator follows the events but may not move; the other seat is not on turn.
    async with Player(srv.url, mid, None) as watcher, Player(srv.url, mid, tokens[1 - seat]) as o:
        answer = await watcher.move("throw", {})
        assert (answer["type"], answer["status"]) == ("error", 401), answer
        answer = await o.move("throw", {})
        assert answer["error"]["code"] == "not_your_turn", answer
    # A page on another site may not open a socket with the player's credentials.
    with pytest.raises(InvalidStatus) as refused:
        async with Player(srv.url, mid, tokens[seat], headers={"Origin": "https://evil.example"}):
            pass
    assert refused.value.response.status_code == 403
    for bad in ("m_nothing", "x" * 100):
        with pytest.raises(InvalidStatus):
            async with Player(srv.url, bad, tokens[seat]):
                pass
    # A frame over the size limit closes the socket (uvicorn's ws_max_size); nothing moved.
    async with Player(srv.url, mid, tokens[seat]) as p:
        await p.send(json.dumps({"id": 1, "action": "throw", "pad": "x" * 10_000}))
        with pytest.raises(ConnectionClosed) as closed:
            await p.reply(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # too big
    assert (await http.get(f"/api/matches/{mid}")).json()["seq"] == state["seq"]


async def test_a_token_revoked_on_one_process_stops_a_socket_on_another(
    servers: Any, http: httpx.AsyncClient
) -> None:
    # Credentials cached for an hour: only the announcement over Redis can end it.
    hour = {"JACKPOT_CREDENTIAL_CACHE_SECONDS": "3600"}
    a, b = servers(redis=True, **hour), servers(redis=True, **hour)
    tokens = [await sign_up(http, a.url, "Ann"), await sign_up(http, a.url, "Ben")]
    http.base_url = httpx.URL(a.url)
    state = await new_people_match(http, tokens)
    idle = 1 - state["turn"]["seat"]
    async with Player(b.url, state["id"], tokens[idle]) as p:
        answer = await p.move("throw", {})
        assert answer["error"]["code"] == "not_your_turn", answer  # b knows the token
        mine = await http.get("/api/tokens", headers=bearer(tokens[idle]))
        token_id = mine.json()["tokens"][0]["id"]
        revoked = await http.delete(f"/api/tokens/{token_id}", headers=bearer(tokens[idle]))
        assert revoked.status_code == 200, revoked.text
        for _ in range(50):  # Redis carries the news in well under a second
            answer = await p.move("throw", {})
            if answer["type"] == "error" and answer["status"] == 401:
                break
            await asyncio.sleep(0.1)
        assert answer["status"] == 401, answer
    gone = await http.get(f"{b.url}/api/tokens", headers=bearer(tokens[idle]))
    assert gone.status_code == 401
    assert (await http.get(f"/api/matches/{state['id']}")).json()["seq"] == state["seq"]
