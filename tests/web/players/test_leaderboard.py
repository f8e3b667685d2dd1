"""The leaderboard: who is listed (opted in, not provisional), order, shared ranks,
paging and the per-turn columns; opting in and out through the account."""

from __future__ import annotations

from typing import Any

from ratings_helpers import add_player, people, play, start_match
from sqlalchemy import insert, update
from web_helpers import sign_up

from jackpot.web.base.tables import players as r
from jackpot.web.players.ratings import display_rating
from jackpot.web.players.standing import matches_to_settle


async def test_only_opted_in_settled_players_in_rating_order(client: Any, app: Any) -> None:
    await add_player(app, "Top", mu=32.0)
    await add_player(app, "Hidden", mu=40.0, opted=False)
    await add_player(app, "Newcomer", mu=45.0, sigma=7.0)  # provisional
    await add_player(app, "Mid", mu=27.0, turns=50, jackpots=5, score_sum=600)
    await add_player(app, "Classic", mu=35.0, variant="classic")
    body = (await client.get("/api/leaderboard?variant=jackpot")).json()
    assert [p["name"] for p in body["players"]] == ["Top", "Mid"]
    assert body["total"] == 2
    mid = body["players"][1]
    assert mid["rank"] == 2
    assert mid["rating"] == display_rating(27.0, 3.0)
    assert mid["jackpot_rate"] == 0.1
    assert mid["average_score"] == 12.0
    assert (mid["matches"], mid["wins"], mid["jackpots"]) == (20, 7, 5)
    classic = (await client.get("/api/leaderboard?variant=classic")).json()
    assert [p["name"] for p in classic["players"]] == ["Classic"]
    bad = await client.get("/api/leaderboard?variant=poker")
    assert bad.status_code == 422


async def test_equal_ratings_share_a_rank_across_pages(client: Any, app: Any) -> None:
    for name, mu in [("A", 30.0), ("B", 28.0), ("C", 28.0), ("D", 28.0), ("E", 20.0)]:
        await add_player(app, name, mu=mu)
    page1 = (await client.get("/api/leaderboard?per_page=2")).json()
    page2 = (await client.get("/api/leaderboard?per_page=2&page=2")).json()
    page3 = (await client.get("/api/leaderboard?per_page=2&page=3")).json()
    ranks = [(p["name"], p["rank"]) for pg in (page1, page2, page3) for p in pg["players"]]
    names = [n for n, _ in ranks]
    assert sorted(names) == ["A", "B", "C", "D", "E"] and len(names) == 5
    assert dict(ranks) == {"A": 1, "B": 2, "C": 2, "D": 2, "E": 5}
    assert page1["pages"] == 3 and page3["total"] == 5


async def test_opting_in_and_out_lists_and_unlists(make_client: Any, app: Any) -> None:
    ana = await make_client()
    me = await sign_up(ana, "Ana")
    async with app.state.db.write() as conn:
        await conn.execute(
            insert(r.player_ratings).values(
                user_id=me["id"],
                variant="jackpot",
                mu=30.0,
                sigma=2.5,
                rating=display_rating(30.0, 2.5),
                provisional=False,
                listed=False,
                matches=30,
                wins=10,
                turns=100,
                jackpots=8,
                score_sum=1500,
            )
        )
    names = lambda body: [p["name"] for p in body["players"]]  # noqa: E731
    assert names((await ana.get("/api/leaderboard")).json()) == []
    r1 = await ana.patch("/api/account", json={"leaderboard": True})
    assert r1.status_code == 200 and r1.json()["leaderboard"] is True
    assert names((await ana.get("/api/leaderboard")).json()) == ["Ana"]
    await ana.patch("/api/account", json={"leaderboard": False})
    assert names((await ana.get("/api/leaderboard")).json()) == []
    # The account page's form does the same.
    page = await ana.get("/account")
    token = page.cookies.get("jackpot_csrf") or ana.cookies.get("jackpot_csrf")
    form = await ana.post(
        "/account", data={"csrf_token": token, "what": "leaderboard", "leaderboard": "on"}
    )
    assert form.status_code == 200 and "You appear on the leaderboard." in form.text
    assert names((await ana.get("/api/leaderboard")).json()) == ["Ana"]


async def test_a_real_players_provisional_rating_stays_off(make_client: Any, app: Any) -> None:
    ana, ben = await people(make_client, ["Ana", "Ben"])
    for c in (ana, ben):
        await c.patch("/api/account", json={"leaderboard": True})
    # Jackpot: both throw in the first round, so both are rated.
    await play([ana, ben], await start_match([ana, ben], "jackpot"))
    assert (await ana.get("/api/leaderboard?variant=jackpot")).json()["players"] == []
    # The account page says so when she opts in, with the matches it takes (worked out
    # from the model), and tells before she does that it makes her profile public.
    page = await ana.get("/account")
    assert "makes your profile and your match history public" in page.text
    assert matches_to_settle() == (10, 20)
    token = page.cookies.get("jackpot_csrf") or ana.cookies.get("jackpot_csrf")
    form = await ana.post(
        "/account", data={"csrf_token": token, "what": "leaderboard", "leaderboard": "on"}
    )
    assert form.status_code == 200
    assert "You appear on the leaderboard" not in form.text
    assert (
        "You will appear on the leaderboard once your rating settles, after 10 to 20 rated "
        "matches; so far you have 1 rated match."
    ) in form.text
    # Once the uncertainty is down (as after many matches), the same row is listed.
    async with app.state.db.write() as conn:
        await conn.execute(update(r.player_ratings).values(sigma=5.0, provisional=False))
    await ana.patch("/api/account", json={"leaderboard": True})
    body = (await ana.get("/api/leaderboard?variant=jackpot")).json()
    assert [p["name"] for p in body["players"]] == ["Ana"]


async def test_the_page_shows_the_table_and_pages(client: Any, app: Any) -> None:
    for i in range(55):
        await add_player(app, f"P{i:02d}x", mu=20.0 + i * 0.1)
    html = (await client.get("/leaderboard", headers={"accept": "text/html"})).text
    assert "P54x" in html and "P05x" in html and "P04x" not in html
    assert "Page 1 of 2" in html and "page=2" in html
    html2 = (await client.get("/leaderboard?page=2", headers={"accept": "text/html"})).text
    assert "P04x" in html2 and "P00x" in html2 and "P05x" not in html2
    empty = (await client.get("/leaderboard?variant=classic")).text
    assert "Nobody is listed" in empty


async def test_the_page_says_how_many_matches_settle_a_rating(client: Any) -> None:
    """The explanation gives the model's own range, the one the account page promises."""
    low, high = matches_to_settle()
    english = (await client.get("/leaderboard")).text
    assert f"settles after {low} to {high} rated matches" in english
    assert "dozen" not in english
    slovak = await client.get("/leaderboard", headers={"Accept-Language": "sk"})
    assert f"po {low} až {high} hodnotených partiách" in slovak.text
