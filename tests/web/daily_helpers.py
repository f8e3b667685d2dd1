"""Helpers for the daily deal's tests: today's deals made, an entry played through the API."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import httpx
from sqlalchemy import select
from web_helpers import sign_up

from jackpot.web.base.clock import utcnow
from jackpot.web.base.tables.daily import daily_deals
from jackpot.web.daily.deals import day_of, make_deals

_names = iter(range(100_000))

#: Which option a player covers, of those on offer: a way to play.
Chooser = Callable[[list[list[int]]], list[int]]


def first(options: list[list[int]]) -> list[int]:
    return options[0]


def last(options: list[list[int]]) -> list[int]:
    return options[-1]


def db_of(client: httpx.AsyncClient) -> Any:
    return client._transport.app.state.db  # type: ignore[attr-defined]


async def deals_made(client: httpx.AsyncClient, now: datetime | None = None) -> str:
    """Today's deals (and the days ahead) made, as the background step makes them;
    returns today."""
    now = now or utcnow()
    await make_deals(db_of(client), now)
    return day_of(now)


async def deal_seed(client: httpx.AsyncClient, day: str, variant: str) -> str:
    """A deal's server seed, read from the database (no player can)."""
    async with db_of(client).read() as conn:
        seed: str = (
            await conn.execute(
                select(daily_deals.c.server_seed).where(
                    daily_deals.c.day == day, daily_deals.c.variant == variant
                )
            )
        ).scalar_one()
    return seed


async def player(make_client: Any, name: str | None = None) -> httpx.AsyncClient:
    c: httpx.AsyncClient = await make_client()
    await sign_up(c, name or f"Daily{next(_names)}")
    return c


async def enter(client: httpx.AsyncClient, variant: str = "jackpot") -> str:
    r = await client.post(f"/api/daily/{variant}")
    assert r.status_code == 201, r.text
    match_id: str = r.json()["match"]
    return match_id


async def play(
    client: httpx.AsyncClient,
    match_id: str,
    choose: Chooser = last,
    turns: int | None = None,
    dice: int = 2,
) -> dict[str, Any]:
    """Play the entry (every throw with ``dice`` dice where the rules allow it) until
    it ends, or until ``turns`` turns are done; returns the last state."""
    state: dict[str, Any] = (await client.get(f"/api/matches/{match_id}")).json()
    for _ in range(1000):
        if state["status"] == "finished":
            return state
        if turns is not None and state["daily"]["turn"] > turns:
            return state
        turn = state["turn"]
        if turn["dice"] is None:
            count = dice if turn["one_die"] else 2
            r = await client.post(f"/api/matches/{match_id}/throw", json={"dice": count})
        else:
            r = await client.post(
                f"/api/matches/{match_id}/cover", json={"tiles": choose(turn["options"])}
            )
        assert r.status_code == 200, r.text
        state = r.json()
    raise AssertionError("the entry did not end")
