"""A server killed with SIGKILL in the middle of a load loses no acknowledged
action, and after a restart every match plays on, finishes and verifies.

Moves go over HTTP or over each player's WebSocket (where moves of the same
event-loop tick share a transaction: group commit). Acknowledged means the client
got a 200, or an ``ack`` frame: the action's transaction had committed
(on SQLite in WAL mode with synchronous=NORMAL a process crash loses nothing
committed; only a power cut could). Requests in flight at the kill may or may not
have been applied; either way the match must stay consistent.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest
from multi_helpers import (
    OVER,
    Move,
    Player,
    Watcher,
    bearer,
    new_people_match,
    next_move,
    sign_up,
)
from websockets.exceptions import ConnectionClosed

from jackpot import fair

MATCHES = 10
KILL_AFTER = 200  # acknowledged actions


#: Sends one move; the match's seq after it and the move due next (None once the
#: match is over), or None once the server is gone.
After = tuple[int, Move | None] | None
Mover = Callable[[int, str, dict[str, Any]], Awaitable[After]]


async def _play(
    move_with: Mover, match_id: str, move: Move | None, acks: list[tuple[str, str, int]],
    stop: asyncio.Event,
) -> bool:
    """Play one match until it ends (True) or ``stop``; every acknowledgement is
    logged in ``acks``."""
    while not stop.is_set():
        if move is None:
            return True
        seat, action, body = move
        after = await move_with(seat, action, body)
        if after is None:
            return False  # the server is gone
        seq, move = after
        acks.append((match_id, action, seq))
        if len(acks) >= KILL_AFTER:
            stop.set()
    return False


async def _play_match(
    transport: str, http: httpx.AsyncClient, base: str, tokens: list[str],
    state: dict[str, Any], acks: list[tuple[str, str, int]], stop: asyncio.Event,
) -> bool:
    match_id = state["id"]
    if transport == "http":

        async def post(seat: int, action: str, body: dict[str, Any]) -> After:
            try:
                r = await http.post(f"{base}/api/matches/{match_id}/{action}",
                                    headers=bearer(tokens[seat]), json=body)
            except httpx.HTTPError:
                return None
            if r.status_code != 200:
                raise AssertionError(r.text)
            return r.json()["seq"], next_move(r.json())

        return await _play(post, match_id, next_move(state), acks, stop)
    async with contextlib.AsyncExitStack() as stack:
        players = [await stack.enter_async_context(Player(base, match_id, t)) for t in tokens]

        async def send(seat: int, action: str, body: dict[str, Any]) -> After:
            try:
                answer = await players[seat].move(action, body)
            except (ConnectionClosed, OSError, TimeoutError):
                return None
            if answer["type"] != "ack":
                raise AssertionError(answer)
            # The ack comes after every event up to its seq: they say what is due.
            due = players[seat].due()
            assert due is not None, players[seat].events
            return answer["seq"], None if due is OVER else due

        with contextlib.suppress(ConnectionClosed, OSError):  # closing after the kill
            return await _play(send, match_id, next_move(state), acks, stop)
    return False


@pytest.mark.parametrize("transport", ["http", "ws"])
async def test_sigkill_loses_no_acknowledged_action(
    servers: Any, http: httpx.AsyncClient, transport: str
) -> None:
    srv = servers()
    accounts = [await sign_up(http, srv.url, f"Player{i}") for i in range(2 * MATCHES)]
    http.base_url = httpx.URL(srv.url)
    pairs = [accounts[2 * i : 2 * i + 2] for i in range(MATCHES)]
    states = [await new_people_match(http, pair) for pair in pairs]
    #: Whose match each is (a replacement match is appended to ``states`` out of order).
    token_of = {s["id"]: list(pairs[i]) for i, s in enumerate(states)}
    acks: list[tuple[str, str, int]] = []
    stop = asyncio.Event()

    async def killer() -> None:
        await stop.wait()
        srv.kill()  # SIGKILL while the other matches' requests are in flight

    kill_task = asyncio.create_task(killer())
    # Matches that end early are replaced by the same players' next match, so the
    # load lasts until the kill.
    async def seat_pair(i: int) -> None:
        state = states[i]
        while not stop.is_set():
            finished = await _play_match(transport, http, srv.url, pairs[i], state, acks, stop)
            if finished and not stop.is_set():
                try:
                    state = await new_people_match(http, pairs[i])
                except httpx.HTTPError:
                    if stop.is_set():
                        return  # killed while this pair's next match was being made
                    raise
                states.append(state)
                token_of[state["id"]] = list(pairs[i])  # in this match's order

    await asyncio.gather(*(seat_pair(i) for i in range(MATCHES)))
    await kill_task
    assert len(acks) >= KILL_AFTER

    srv.start()
    acked_seq: dict[str, int] = defaultdict(int)
    acked_throws: dict[str, int] = defaultdict(int)
    for match_id, action, seq in acks:
        acked_seq[match_id] = max(acked_seq[match_id], seq)
        acked_throws[match_id] += action == "throw"
    for match_id in {s["id"] for s in states}:
        r = await http.get(f"/api/matches/{match_id}")
        state = r.json()
        assert state["seq"] >= acked_seq[match_id]
        # Play on a while (a Jackpot match has no round limit), resign, check the record.
        tokens = token_of[match_id]
        for _ in range(20):
            move = next_move(state)
            if move is None:
                break
            seat, action, body = move
            r = await http.post(f"/api/matches/{match_id}/{action}", headers=bearer(tokens[seat]),
                                json=body)
            assert r.status_code == 200, r.text
            state = r.json()
        if state["status"] == "playing":
            r = await http.post(f"/api/matches/{match_id}/resign", headers=bearer(tokens[1]))
            assert r.status_code == 200, r.text
            state = r.json()
        assert state["status"] == "finished", state
        record = (await http.get(f"/api/matches/{match_id}/record")).json()
        throws = [e for e in record["events"] if e["type"] == "throw"]
        assert len(throws) >= acked_throws[match_id]
        assert [e["n"] for e in throws] == list(range(len(throws)))
        result = fair.verify(fair.record.parse_record(record))
        assert result.ok, result.problem
        async with Watcher(srv.url, match_id) as watcher:
            await watcher.wait_done()
        ids = [i for i, _ in watcher.events]
        assert ids == list(range(1, len(ids) + 1))
        assert ids[-1] >= acked_seq[match_id]
