"""The cap on matches waiting or in play holds on every way a match is made: a
challenge accepted after the challenger filled up, and people paired by play now
when one of them filled up while their seek waited. It is counted where the match
is made (play/new_match.py), for everyone seated, not only where a request began.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import httpx
from sqlalchemy import func, select
from web_helpers import sign_up

from jackpot.web.base.tables import core as t

CAP = 2


async def active(app: Any, user_id: int) -> int:
    async with app.state.db.read() as conn:
        found = await conn.execute(
            select(func.count())
            .select_from(t.seats.join(t.matches, t.matches.c.id == t.seats.c.match_id))
            .where(
                t.seats.c.user_id == user_id,
                t.matches.c.status.in_(("waiting", "playing")),
            )
        )
        return int(found.scalar_one())


async def fill_up(client: httpx.AsyncClient) -> None:
    for _ in range(CAP):
        made = await client.post("/api/matches", json={"seats": 2, "bots": 0})
        assert made.status_code == 201, made.text
    refused = await client.post("/api/matches", json={"seats": 2, "bots": 0})
    assert refused.status_code == 429, refused.text


async def test_an_accepted_challenge_does_not_take_the_challenger_past_the_cap(
    app, make_client  # type: ignore[no-untyped-def]
) -> None:
    app.state.settings = dataclasses.replace(app.state.settings, account_active_matches=CAP)
    ana, ben = await make_client(), await make_client()
    ana_id = (await sign_up(ana, "Ana"))["id"]
    await sign_up(ben, "Ben")
    made = await ana.post("/api/challenges", json={"to": "Ben", "deadline_seconds": 86400})
    assert made.status_code == 201, made.text
    await fill_up(ana)
    accepted = await ben.post(f"/api/challenges/{made.json()['id']}/accept")
    assert accepted.status_code == 409, accepted.text
    body = accepted.json()["error"]
    assert body["code"] == "their_matches_full" and "Ana" in body["message"]
    assert await active(app, ana_id) == CAP


async def test_play_now_passes_over_a_seeker_who_filled_up(app, make_client) -> None:  # type: ignore[no-untyped-def]
    app.state.settings = dataclasses.replace(app.state.settings, account_active_matches=CAP)
    ana, ben, cal = await make_client(), await make_client(), await make_client()
    ana_id = (await sign_up(ana, "Ana"))["id"]
    ben_id = (await sign_up(ben, "Ben"))["id"]
    await sign_up(cal, "Cal")
    kind = {"variant": "jackpot", "deadline_seconds": 86400, "seats": 2}
    waiting = await ana.post("/api/seeks", json=kind)
    assert waiting.json()["status"] == "waiting", waiting.text
    await fill_up(ana)
    # Ben's seek finds only Ana's, whose owner is full: it waits, Ana gets no third.
    second = await ben.post("/api/seeks", json=kind)
    assert second.status_code == 201, second.text
    assert second.json()["status"] == "waiting", second.text
    assert await active(app, ana_id) == CAP
    # The next seeker is paired with Ben, who has room.
    third = await cal.post("/api/seeks", json=kind)
    assert third.json()["status"] == "paired", third.text
    assert await active(app, ben_id) == 1
