"""Identical moves sent at once, through two server processes: each applies once.

A double click, a retry after a time-out, or two tabs send the same throw or cover
twice, over HTTP or over several WebSockets (where copies arriving together on one
process share a group-commit transaction). The second must be refused with 409 (the
first changed the match), never applied twice and never a 500; and whatever
happens, a watcher sees every event exactly once, in order, while the record's
throw numbers stay gapless.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import httpx
import pytest
from multi_helpers import Player, Watcher, bearer, new_people_match, next_move, sign_up

COPIES = 12


async def _race(
    http: httpx.AsyncClient, urls: list[str], token: str, match_id: str, action: str,
    body: dict[str, Any],
) -> list[httpx.Response]:
    """The same request COPIES times at once, spread over the server processes."""
    return list(
        await asyncio.gather(
            *(
                http.post(f"{urls[i % len(urls)]}/api/matches/{match_id}/{action}",
                          headers=bearer(token), json=body)
                for i in range(COPIES)
            )
        )
    )


async def _race_sockets(
    sockets: list[Player], action: str, body: dict[str, Any]
) -> list[tuple[int, dict[str, Any]]]:
    """The same move on every socket at once: (status, answer) for each."""
    answers = await asyncio.gather(*(s.move(action, body) for s in sockets))
    return [(200 if a["type"] == "ack" else a["status"], a) for a in answers]


@pytest.mark.parametrize("transport", ["http", "ws"])
async def test_identical_moves_apply_once(
    servers: Any, http: httpx.AsyncClient, transport: str
) -> None:
    a = servers(redis=True)
    b = servers(redis=True)
    urls = [a.url, b.url]
    tokens = [await sign_up(http, a.url, "Alice"), await sign_up(http, a.url, "Bob")]
    http.base_url = httpx.URL(a.url)
    state = await new_people_match(http, tokens)
    match_id = state["id"]
    applied = 0
    async with Watcher(b.url, match_id) as watcher, contextlib.AsyncExitStack() as stack:
        # Each seat's copies on sockets of their own, spread over both processes.
        sockets = [
            [await stack.enter_async_context(Player(urls[i % 2], match_id, tokens[seat]))
             for i in range(COPIES if transport == "ws" else 0)]
            for seat in (0, 1)
        ]
        for _ in range(40):
            move = next_move(state)
            if move is None:
                break
            seat, action, body = move
            if transport == "ws":
                answers = await _race_sockets(sockets[seat], action, body)
            else:
                replies = await _race(http, urls, tokens[seat], match_id, action, body)
                answers = [(r.status_code, r.json()) for r in replies]
            codes = sorted(code for code, _ in answers)
            assert codes == [200] + [409] * (COPIES - 1), answers
            applied += 1
            won = next(answer for code, answer in answers if code == 200)
            if transport == "ws":  # an ack has the seq; the state is a load away
                state = (await http.get(f"{a.url}/api/matches/{match_id}")).json()
                assert state["seq"] == won["seq"]
            else:
                state = won
        if state["status"] == "playing":
            r = await http.post(f"{a.url}/api/matches/{match_id}/resign",
                                headers=bearer(tokens[0]))
            assert r.status_code == 200, r.text
            state = r.json()
        await watcher.wait_done()

    assert applied >= 10
    assert state["status"] == "finished"
    # Every event exactly once, in order, ending with the match's end.
    ids = [i for i, _ in watcher.events]
    assert ids == list(range(1, state["seq"] + 1))
    assert watcher.events[-1][1]["type"] == "match_ended"
    # The watcher's events are the stored ones.
    r = await http.get(f"{b.url}/api/matches/{match_id}/record")
    record = r.json()
    throws = [e for e in record["events"] if e["type"] == "throw"]
    assert [e["n"] for e in throws] == list(range(len(throws)))
    thrown = [ev for _, ev in watcher.events if ev["type"] == "thrown"]
    assert [ev["n"] for ev in thrown] == [e["n"] for e in throws]
    assert [ev["dice"] for ev in thrown] == [e["dice"] for e in throws]

    from jackpot import fair

    result = fair.verify(fair.record.parse_record(record))
    assert result.ok, result.problem
