"""A match end's review after its commit: the end writes the places and ratings, the
review step the seats' figures, once, retried after a failed or abandoned pass."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from ratings_helpers import people, play, start_match
from sqlalchemy import func, select

from jackpot.fair.match_review import review_match
from jackpot.web.app import create_app
from jackpot.web.base.tables import players as r
from jackpot.web.players import reviews
from jackpot.web.players.match_figures import summarise


async def ended(make_client: Any) -> dict[str, Any]:
    """A Jackpot match between two people played to its end, its review not written."""
    ana, ben = await people(make_client, ["Ana", "Ben"])
    return await play([ana, ben], await start_match([ana, ben], "jackpot"), review=False)


async def figures(app: Any, match_id: str) -> list[tuple[int, int, int, int]]:
    """Each seat's (turns, jackpots, decisions, place) as seat_stats holds them."""
    s = r.seat_stats.c
    async with app.state.db.read() as conn:
        rows = await conn.execute(
            select(s.turns, s.jackpots, s.decisions, s.place)
            .where(s.match_id == match_id)
            .order_by(s.seat)
        )
        return [tuple(x) for x in rows.all()]


async def queued(app: Any) -> int:
    async with app.state.db.read() as conn:
        return int(
            (await conn.execute(select(func.count()).select_from(r.pending_reviews))).scalar_one()
        )


async def totals(app: Any) -> dict[int, tuple[int, int, float]]:
    """Each player's (turns, decisions, skill_given_away) in Jackpot."""
    c = r.player_ratings.c
    async with app.state.db.read() as conn:
        rows = await conn.execute(
            select(c.user_id, c.turns, c.decisions, c.skill_given_away).where(
                c.variant == "jackpot"
            )
        )
        return {u: (turns, d, g) for u, turns, d, g in rows.all()}


async def expected(app: Any, client: Any, match_id: str) -> list[tuple[int, int, int]]:
    record = (await client.get(f"/api/matches/{match_id}/record")).json()
    return [(x.turns, x.jackpots, x.skill.decisions) for x in summarise(review_match(record))]


async def test_the_end_rates_and_the_review_follows(make_client: Any, app: Any) -> None:
    state = await ended(make_client)
    mid = state["id"]
    # Committed with the end: the places and the ratings; the figures wait for the review.
    before = await figures(app, mid)
    assert [f[3] for f in before] == state["result"]["places"]
    assert all(f[:3] == (0, 0, 0) for f in before)
    assert await queued(app) == 1
    rated = await totals(app)
    assert len(rated) == 2 and all(v == (0, 0, 0.0) for v in rated.values())

    assert await reviews.review_pass(app.state.db) == 1
    client = await make_client()
    want = await expected(app, client, mid)
    after = await figures(app, mid)
    assert [f[:3] for f in after] == want and sum(f[0] for f in after) > 0
    assert await queued(app) == 0
    # Added to the players' totals once: a second pass has nothing to do.
    assert await reviews.review_pass(app.state.db) == 0
    assert sorted(v[0] for v in (await totals(app)).values()) == sorted(f[0] for f in after)


async def test_a_failed_pass_is_retried_and_the_figures_appear(
    make_client: Any, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = await ended(make_client)
    real = reviews.read_record
    calls = 0

    async def fails_once(conn: Any, match_id: str) -> tuple[dict[str, Any], int]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise OSError("the database went away")
        return await real(conn, match_id)

    monkeypatch.setattr(reviews, "read_record", fails_once)
    with pytest.raises(OSError):
        await reviews.review_pass(app.state.db)
    assert await queued(app) == 1
    assert all(f[0] == 0 for f in await figures(app, state["id"]))
    # The claim was given back: the very next pass takes it.
    assert await reviews.review_pass(app.state.db) == 1
    assert calls == 2
    assert all(f[0] > 0 for f in await figures(app, state["id"]))
    assert await queued(app) == 0


async def test_a_pass_whose_process_died_is_taken_again_when_its_lease_runs_out(
    make_client: Any, app: Any
) -> None:
    state = await ended(make_client)
    now = datetime.now(UTC)
    # A pass claims the match, then its process is killed before it writes anything.
    _, held = await reviews.claim_due(app.state.db, now)
    assert held == [state["id"]]
    assert await reviews.review_pass(app.state.db, now + timedelta(seconds=1)) == 0
    assert all(f[0] == 0 for f in await figures(app, state["id"]))
    later = now + reviews.LEASE + timedelta(seconds=1)
    assert await reviews.review_pass(app.state.db, later) == 1
    assert all(f[0] > 0 for f in await figures(app, state["id"]))


async def test_the_app_runs_the_review_within_seconds(settings: Any) -> None:
    """The step runs in the server: the figures appear without anyone asking."""
    application = create_app(
        dataclasses.replace(settings, sweeper_in_process=True, sweep_interval=0.1)
    )
    made: list[httpx.AsyncClient] = []

    async def make() -> httpx.AsyncClient:
        made.append(
            httpx.AsyncClient(
                transport=httpx.ASGITransport(
                    app=application, client=(f"10.0.1.{len(made) + 1}", 1234)
                ),
                base_url="http://testserver",
            )
        )
        return made[-1]

    async with application.router.lifespan_context(application):
        state = await ended(make)
        for _ in range(300):  # waits at most 15 s; the step runs every 0.1 s
            if await queued(application) == 0:
                break
            await asyncio.sleep(0.05)
        assert await queued(application) == 0
        assert all(f[0] > 0 for f in await figures(application, state["id"]))
        for c in made:
            await c.aclose()
