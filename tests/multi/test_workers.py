"""`jackpot serve --workers 2`: two worker processes behind one port share the
database and, through Redis, the live events."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from multi_helpers import Watcher, bearer, new_people_match, next_move, sign_up


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


async def test_workers_share_database_and_events(servers: Any, http: httpx.AsyncClient) -> None:
    srv = servers(redis=True, args=("--workers", "2"))
    assert srv.proc is not None
    assert len(_children(srv.proc.pid)) >= 2  # uvicorn's workers, started from the factory
    tokens = [await sign_up(http, srv.url, "Cleo"), await sign_up(http, srv.url, "Dan")]
    http.base_url = httpx.URL(srv.url)
    state = await new_people_match(http, tokens)
    match_id = state["id"]
    # Several streams on separate connections: the kernel spreads them over the
    # workers, so some watch from the worker that does not handle the moves.
    watchers = [Watcher(srv.url, match_id) for _ in range(4)]
    for w in watchers:
        await w.__aenter__()
    try:
        for _ in range(8):
            move = next_move(state)
            assert move is not None
            seat, action, body = move
            # A fresh connection for each move, so moves land on both workers too.
            async with httpx.AsyncClient(base_url=srv.url, timeout=30) as c:
                r = await c.post(f"/api/matches/{match_id}/{action}",
                                 headers=bearer(tokens[seat]), json=body)
            assert r.status_code == 200, r.text
            state = r.json()
            for w in watchers:
                await w.wait_for_seq(state["seq"])
    finally:
        for w in watchers:
            await w.close()
    for w in watchers:
        assert [i for i, _ in w.events] == list(range(1, state["seq"] + 1))
