"""Helpers for the ratings tests: people matches played through the API, and
players written straight into the tables (for leaderboard shapes no API reaches)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import httpx
from sqlalchemy import delete, insert
from web_helpers import move, seated, sign_up

from jackpot.web.base.tables import core as t
from jackpot.web.base.tables import players as r
from jackpot.web.players.ratings import display_rating, is_provisional
from jackpot.web.players.reviews import review_pass

NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)


async def people(make_client: Any, names: list[str]) -> list[httpx.AsyncClient]:
    clients = []
    for name in names:
        c = await make_client()
        await sign_up(c, name)
        clients.append(c)
    return clients


async def start_match(
    clients: list[httpx.AsyncClient], variant: str, bots: int = 0
) -> dict[str, Any]:
    """clients[0] creates a match for len(clients) people and ``bots`` bots; the others
    join in order, so clients[k] has joining index k. Where each plays is drawn from
    the seed at the start: ``joining_order`` reads it back. A Classic match that a bot
    drawn first ended at once (it shut the box) is deleted, and another made."""
    for _ in range(20):
        r = await clients[0].post(
            "/api/matches",
            json={"variant": variant, "seats": len(clients) + bots, "bots": bots},
        )
        assert r.status_code == 201, r.text
        state = r.json()
        for c in clients[1:]:
            r = await c.post(f"/api/matches/{state['id']}/join", json={})
            assert r.status_code == 200, r.text
            state = r.json()
        if state["status"] == "playing":
            break
        await _forget(clients[0], state["id"])
    return dict(state)


async def _forget(client: httpx.AsyncClient, match_id: str) -> None:
    """Delete a match (its rows go with it), as if it had never been made: tests
    that count a player's matches or figures then meet only the ones they made."""
    app = client._transport.app  # type: ignore[attr-defined]
    async with app.state.db.write() as conn:
        await conn.execute(delete(t.matches).where(t.matches.c.id == match_id))


async def joining_order(client: httpx.AsyncClient, match_id: str) -> list[int]:
    """The record's ``joined``: for each seat in the order of play, its joining index."""
    record = (await client.get(f"/api/matches/{match_id}/record")).json()
    return list(record["joined"])


def by_joining(per_seat: list[Any], joined: list[int]) -> list[Any]:
    """Values listed per seat (in the order of play), listed in joining order instead."""
    return [per_seat[joined.index(k)] for k in range(len(joined))]


async def play(
    clients: list[httpx.AsyncClient],
    state: dict[str, Any],
    resign_first: list[int] | None = None,
    review: bool = True,
) -> dict[str, Any]:
    """Let clients[k] for each k in ``resign_first`` resign (in that order), then play to
    the end, each client moving for the seat the draw gave it; then, unless not to
    ``review``, write the match's review as the background step would."""
    mid = state["id"]
    for k in resign_first or []:
        r = await clients[k].post(f"/api/matches/{mid}/resign")
        assert r.status_code == 200, r.text
        state = r.json()
    seats = await seated(clients, mid)
    for _ in range(5000):
        if state["status"] == "finished" and not review:
            return state
        if state["status"] == "finished":
            # Its review (the seats' figures) is written after the end's commit, as
            # the background step would within a second.
            app = clients[0]._transport.app  # type: ignore[attr-defined]
            await review_pass(app.state.db)
            return state
        seat = state["turn"]["seat"]
        r = await move(seats[seat], state)
        assert r.status_code == 200, r.text
        state = r.json()
    raise AssertionError("the match did not end")


async def add_player(
    app: Any,
    name: str,
    *,
    mu: float,
    sigma: float = 3.0,
    opted: bool = True,
    variant: str = "jackpot",
    turns: int = 40,
    jackpots: int = 4,
    score_sum: int = 400,
    decisions: int = 0,
    given_away: float = 0.0,
) -> int:
    """A rated player written straight into the tables (what many matches would leave);
    ``given_away`` is the winning chance their ``decisions`` gave away in all."""
    async with app.state.db.write() as conn:
        res = await conn.execute(
            insert(t.users).values(
                email=f"{name.lower()}@example.org",
                name=name,
                name_key=name.lower(),
                is_guest=False,
                leaderboard=opted,
                created_at=NOW,
                last_seen=NOW,
            )
        )
        uid = int(res.inserted_primary_key[0])
        provisional = is_provisional(sigma)
        await conn.execute(
            insert(r.player_ratings).values(
                user_id=uid,
                variant=variant,
                mu=mu,
                sigma=sigma,
                rating=display_rating(mu, sigma),
                provisional=provisional,
                listed=opted and not provisional,
                matches=20,
                wins=7,
                turns=turns,
                jackpots=jackpots,
                score_sum=score_sum,
                last_match_at=NOW,
                decisions=decisions,
                skill_given_away=given_away,
                skill=given_away / decisions if decisions else None,
            )
        )
    return uid
