"""Helpers for the API tests: sign up, play a match through the API."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import httpx
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot import fair
from jackpot.web.base.clock import utcnow
from jackpot.web.base.errors import ApiError
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables import core as t
from jackpot.web.notify.confirmations import mark_confirmed

PASSWORD = "correct horse battery"


async def sign_up(
    client: httpx.AsyncClient, name: str, autoplay: bool = False, confirmed: bool = True
) -> dict[str, Any]:
    """A new account. Autoplay of forced moves is off unless asked for: most tests
    press every move themselves (tests/web/play/test_autoplay_site.py covers autoplay).
    Its address is confirmed unless asked not to (as its mailed link would do: the
    link itself is tests/security/test_email_confirm.py's), so that mail reaches it."""
    email = f"{name.lower()}@example.org"
    r = await client.post(
        "/api/account", json={"email": email, "password": PASSWORD, "name": name}
    )
    assert r.status_code == 201, r.text
    if not autoplay:
        off = {"throws": False, "single_covers": False}
        switched = await client.put("/api/account/autoplay", json=off)
        assert switched.status_code == 200, switched.text
    app = getattr(client._transport, "app", None)
    if confirmed and app is not None:
        async with app.state.db.write() as conn:
            await mark_confirmed(conn, r.json()["id"], email, utcnow())
    return dict(r.json())


async def bot_match(client: httpx.AsyncClient, variant: str) -> dict[str, Any]:
    """A 2-seat match against the bot, as ``client`` creates it; one that a bot drawn to
    throw first ended at once (in Classic, by shutting the box) is put aside for
    another, so the caller gets a match under way when one turns up in 20 tries."""
    for _ in range(20):
        r = await client.post("/api/matches", json={"variant": variant, "seats": 2, "bots": 1})
        assert r.status_code == 201, r.text
        state: dict[str, Any] = r.json()
        if state["status"] == "playing":
            break
    return state


async def move(client: httpx.AsyncClient, state: dict[str, Any]) -> httpx.Response:
    """The obvious next move for the caller's seat: throw, or cover the last option."""
    turn = state["turn"]
    mid = state["id"]
    if turn["dice"] is None:
        return await client.post(f"/api/matches/{mid}/throw", json={})
    return await client.post(f"/api/matches/{mid}/cover", json={"tiles": turn["options"][-1]})


async def seated(
    clients: Iterable[httpx.AsyncClient], match_id: str
) -> dict[int, httpx.AsyncClient]:
    """Each person's seat in a started match (the order of play is drawn from the
    seed, so a seat is found by asking who "you" is, not by who joined first)."""
    out: dict[int, httpx.AsyncClient] = {}
    for c in clients:
        state = (await c.get(f"/api/matches/{match_id}")).json()
        out[next(i for i, s in enumerate(state["seats"]) if s["you"])] = c
    return out


async def seat_of(client: httpx.AsyncClient, match_id: str) -> int:
    """The caller's seat in a started match."""
    return next(iter(await seated([client], match_id)))


async def play_out(
    clients: Iterable[httpx.AsyncClient] | dict[int, httpx.AsyncClient],
    state: dict[str, Any],
    log: list[str] | None = None,
    check_fresh: bool = False,
) -> dict[str, Any]:
    """Play a match to its end with the clients of its people (their seats are found
    by asking). Every response body is appended to ``log`` (for the secrecy test)."""
    mid = state["id"]
    clients = await seated(clients.values() if isinstance(clients, dict) else clients, mid)
    for _ in range(5000):
        if state["status"] == "finished":
            return state
        seat = state["turn"]["seat"]
        r = await move(clients[seat], state)
        assert r.status_code == 200, r.text
        if log is not None:
            log.append(r.text)
        state = r.json()
        if check_fresh:  # the answer to a move is exactly what a fresh load shows
            assert state == (await clients[seat].get(f"/api/matches/{mid}")).json()
        if log is not None:
            for c in clients.values():
                for path in (
                    f"/api/matches/{mid}",
                    f"/api/matches/{mid}/record",
                    f"/matches/{mid}",
                ):
                    log.append((await c.get(path)).text)
    raise AssertionError("the match did not end")


async def join_in_joining_order(
    client: httpx.AsyncClient, match_id: str, order: list[int] | None = None
) -> httpx.Response:
    """Take the last free seat with a client seed chosen so that the order of play
    drawn from the seed is ``order`` (by default the joining order: the creator
    first). For tests about something other than the draw; the test reads the
    server seed from the database, which no player can."""
    app = client._transport.app  # type: ignore[attr-defined]
    async with app.state.db.read() as conn:
        server_seed = (
            await conn.execute(select(t.matches.c.server_seed).where(t.matches.c.id == match_id))
        ).scalar_one()
        seats = (
            await conn.execute(
                select(t.seats.c.is_bot, t.seats.c.client_seed)
                .where(t.seats.c.match_id == match_id)
                .order_by(t.seats.c.seat)
            )
        ).all()
    parts = [s.client_seed for s in seats if not s.is_bot and s.client_seed]
    people = sum(1 for s in seats if not s.is_bot)
    want = tuple(order if order is not None else range(len(seats)))
    for k in range(10_000):
        seed = f"j{k}"
        client_seed = ".".join([*parts, seed])
        if fair.order_of_play(server_seed, client_seed, len(seats), people=people) == want:
            return await client.post(f"/api/matches/{match_id}/join", json={"client_seed": seed})
    raise AssertionError(f"no client seed draws {want}")


#: One request's work inside its transaction (``together``).
Work = Callable[[AsyncConnection], Awaitable[Any]]


async def together(db: Database, first: Work, second: Work) -> list[Any]:
    """``first`` in a transaction kept open while ``second`` runs (for a second at
    most); each one's result, or the ApiError it raised."""
    first_done, second_done = asyncio.Event(), asyncio.Event()
    out: list[Any] = [None, None]

    async def run_first() -> None:
        try:
            async with db.write() as conn:
                out[0] = await first(conn)
                first_done.set()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(second_done.wait(), timeout=1)
        except ApiError as exc:
            out[0] = exc
        finally:
            first_done.set()

    async def run_second() -> None:
        await first_done.wait()
        try:
            async with db.write() as conn:
                out[1] = await second(conn)
        except ApiError as exc:
            out[1] = exc
        finally:
            second_done.set()

    await asyncio.gather(run_first(), run_second())
    return out
