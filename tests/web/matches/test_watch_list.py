"""The watch list: a public match between people shows while it is played and leaves
when it ends; matches with a bot, practice alone and private ones never show; the
people's ratings stand beside their names, provisional ones said so."""

from __future__ import annotations

from typing import Any

import httpx
from web_helpers import play_out, seated, sign_up


async def people_match(
    make_client: Any, names: tuple[str, str], **options: Any
) -> tuple[str, list[httpx.AsyncClient]]:
    a, b = await make_client(), await make_client()
    await sign_up(a, names[0])
    await sign_up(b, names[1])
    body = {"seats": 2, "bots": 0, **options}
    mid = (await a.post("/api/matches", json=body)).json()["id"]
    assert (await b.post(f"/api/matches/{mid}/join", json={})).json()["status"] == "playing"
    return mid, [a, b]


async def listed(client: httpx.AsyncClient) -> list[dict[str, Any]]:
    r = await client.get("/api/matches/live")
    assert r.status_code == 200, r.text
    return list(r.json()["matches"])


async def test_a_started_public_match_shows_until_it_ends(make_client) -> None:  # type: ignore[no-untyped-def]
    visitor = await make_client()
    assert await listed(visitor) == []
    mid, (ana, ben) = await people_match(make_client, ("Ana", "Ben"))
    # Neither the bot's, nor practice alone, nor a private match, nor one still waiting.
    await ana.post("/api/matches", json={"seats": 2, "bots": 1})
    await ana.post("/api/matches", json={"seats": 1, "bots": 0})
    await ana.post("/api/matches", json={"seats": 2, "bots": 0})
    await people_match(make_client, ("Cat", "Dan"), private=True)
    (row,) = await listed(visitor)
    assert row["id"] == mid
    assert row["variant"] == "jackpot" and row["round"] == 1 and row["watching"] == 0
    state = (await visitor.get(f"/api/matches/{mid}")).json()
    assert [s["name"] for s in row["seats"]] == [s["name"] for s in state["seats"]]
    assert all(s["rating"] is None for s in row["seats"])  # nobody rated yet
    page = await visitor.get("/watch")
    assert page.status_code == 200 and f"/matches/{mid}" in page.text

    assert (await ben.post(f"/api/matches/{mid}/resign")).status_code == 200
    assert await listed(visitor) == []
    assert f"/matches/{mid}" not in (await visitor.get("/watch")).text


async def test_ratings_stand_beside_the_names(make_client) -> None:  # type: ignore[no-untyped-def]
    mid, (ana, ben) = await people_match(make_client, ("Ana", "Ben"))
    await play_out([ana, ben], (await ana.get(f"/api/matches/{mid}")).json())
    # A rated match played: each has a rating now, provisional after one match.
    again = (await ana.post("/api/matches", json={"seats": 2, "bots": 0})).json()["id"]
    await ben.post(f"/api/matches/{again}/join", json={})
    (row,) = await listed(await make_client())
    ratings = [s["rating"] for s in row["seats"]]
    assert all(r is not None and r["provisional"] is True for r in ratings), ratings
    assert all(isinstance(r["value"], int) for r in ratings)
    # The match page's seats say the same.
    by_seat = await seated([ana, ben], again)
    seats = (await by_seat[0].get(f"/api/matches/{again}/seats")).json()["seats"]
    assert [s["rating"] for s in seats] == ratings
    assert "rating" in (await ana.get("/watch")).text


async def test_watching_a_match_that_does_not_exist(client: httpx.AsyncClient) -> None:
    r = await client.get("/api/matches/m_nothing/watching")
    assert r.status_code == 404


async def test_matches_made_by_play_now_and_by_a_challenge_show(make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben, cat, dan = [await make_client() for _ in range(4)]
    for client, name in ((ana, "Ana"), (ben, "Ben"), (cat, "Cat"), (dan, "Dan")):
        await sign_up(client, name)
    kind = {"variant": "classic", "deadline_seconds": 86400, "seats": 2}
    assert (await ana.post("/api/seeks", json=kind)).json()["status"] == "waiting"
    paired = (await ben.post("/api/seeks", json=kind)).json()
    assert paired["status"] == "paired"
    challenge = await cat.post("/api/challenges", json={"to": "Dan"})
    accepted = await dan.post(f"/api/challenges/{challenge.json()['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    shown = {row["id"] for row in await listed(await make_client())}
    assert shown == {paired["match"], accepted.json()["match"]}
