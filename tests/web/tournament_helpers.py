"""Helpers for the tournaments' tests: people entered, tables decided, points added by hand."""

from __future__ import annotations

from datetime import timedelta
from fractions import Fraction
from typing import Any

import httpx
from web_helpers import sign_up

from jackpot.web.base.clock import iso, utcnow


def db_of(client: httpx.AsyncClient) -> Any:
    return client._transport.app.state.db  # type: ignore[attr-defined]


async def people(make_client: Any, names: list[str]) -> dict[str, httpx.AsyncClient]:
    """A signed-up, confirmed account for each name."""
    out = {}
    for name in names:
        c: httpx.AsyncClient = await make_client()
        await sign_up(c, name)
        out[name] = c
    return out


async def create(client: httpx.AsyncClient, **settings: Any) -> dict[str, Any]:
    body = {
        "name": "Friday Swiss",
        "variant": "jackpot",
        "table_size": 2,
        "rounds": 3,
        "deadline_seconds": 3600,
        "spares": 0,
        "round_seconds": 86400,
        "starts_at": iso(utcnow() + timedelta(hours=1)),
        "max_players": 16,
        "private": False,
    } | settings
    r = await client.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


async def enter(client: httpx.AsyncClient, tournament_id: str, seed: str = "") -> httpx.Response:
    shown = await client.post("/api/commitments")
    assert shown.status_code == 201, shown.text
    body = {"client_seed": seed, "commitment": shown.json()["commitment"]}
    return await client.post(f"/api/tournaments/{tournament_id}/entries", json=body)


async def view(client: httpx.AsyncClient, tournament_id: str) -> dict[str, Any]:
    r = await client.get(f"/api/tournaments/{tournament_id}")
    assert r.status_code == 200, r.text
    return dict(r.json())


async def decide(
    clients: dict[str, httpx.AsyncClient], table: dict[str, Any], order: list[str]
) -> None:
    """Play a table out by resignations: ``order`` lists its players best first, and
    they resign from the last up, so the match places them in that order."""
    for name in reversed(order[1:]):
        r = await clients[name].post(f"/api/matches/{table['match']}/resign")
        assert r.status_code == 200, r.text


def hand_points(places: list[int]) -> list[Fraction]:
    """Points at a table, worked out as the rules say in words: one point shared among
    the seats below, half a share for each seat sharing the place."""
    n = len(places)
    return [
        Fraction(sum(1 for q in places if q > p) * 2 + sum(1 for q in places if q == p) - 1, 2)
        / (n - 1)
        for p in places
    ]


def hand_standings(pairings: list[dict[str, Any]]) -> dict[str, tuple[Fraction, Fraction]]:
    """Each player's points and Buchholz, added up by hand from the rounds' tables."""
    points: dict[str, Fraction] = {}
    met: dict[str, list[str]] = {}
    for rnd in pairings:
        for table in rnd["tables"]:
            for name, got in zip(table["players"], hand_points(table["places"]), strict=True):
                points[name] = points.get(name, Fraction(0)) + got
                met.setdefault(name, []).extend(o for o in table["players"] if o != name)
        for name in rnd["byes"]:
            points[name] = points.get(name, Fraction(0)) + Fraction(1, 2)
    return {
        name: (got, sum((points[o] for o in met.get(name, [])), Fraction(0)))
        for name, got in points.items()
    }
