"""The pages of finding people: /play-now, the Challenge button on a profile, and the
account page's challenge setting and blocks."""

from __future__ import annotations

from sqlalchemy import insert
from web_helpers import sign_up

from jackpot.web.base.tables.players import player_ratings


async def csrf(client, path: str) -> str:  # type: ignore[no-untyped-def]
    page = (await client.get(path)).text
    return page.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]


async def test_play_now_page(app, make_client) -> None:  # type: ignore[no-untyped-def]
    anonymous = await make_client()
    page = await anonymous.get("/play-now")
    assert page.status_code == 200
    assert 'href="/signup?next=/play-now"' in page.text and "seek-form" not in page.text
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    await ana.post("/api/seeks", json={"variant": "classic", "deadline_seconds": 7200})
    await ana.post("/api/challenges", json={"to": "Ben"})
    page = (await ben.get("/play-now?to=Ana")).text
    assert 'id="seek-form"' in page and 'value="Ana"' in page
    assert 'class="join-kind" data-variant="classic" data-deadline="7200"' in page
    assert "challenge-accept" in page and '<span class="pname">Ana</span>' in page
    assert 'class="provisional"' in page
    assert 'href="/play-now"' in (await ben.get("/lobby")).text


async def test_profile_and_account(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    await ben.patch("/api/account", json={"leaderboard": True})
    profile = (await ana.get("/players/Ben")).text
    assert 'action="/play-now"' in profile and 'name="to" value="Ben"' in profile
    assert 'id="challenge-player"' not in (await ben.get("/players/Ben")).text
    token = await csrf(ana, "/account")
    done = await ana.post(
        "/account", data={"csrf_token": token, "what": "block", "name": "ben"}
    )
    assert done.status_code == 200 and '<span class="pname">Ben</span>' in done.text
    assert (await ana.get("/api/blocks")).json() == {"blocked": ["Ben"]}
    done = await ana.post(
        "/account", data={"csrf_token": token, "what": "challenges", "challenges": "nobody"}
    )
    assert 'value="nobody" checked' in done.text
    assert (await ana.get("/api/account")).json()["challenges"] == "nobody"
    done = await ana.post(
        "/account", data={"csrf_token": token, "what": "block", "name": "Nobody Here"}
    )
    assert done.status_code == 404
    done = await ana.post("/account", data={"csrf_token": token, "what": "unblock", "name": "Ben"})
    assert (await ana.get("/api/blocks")).json() == {"blocked": []}


async def rated(app, user_id: int, variant: str, rating: int, provisional: bool) -> None:  # type: ignore[no-untyped-def]
    """A rating as the ratings' end listener would have left it."""
    async with app.state.db.write() as conn:
        await conn.execute(
            insert(player_ratings).values(
                user_id=user_id, variant=variant, mu=25.0, sigma=2.0, rating=rating,
                provisional=provisional, listed=False, matches=12, wins=6, turns=40,
                jackpots=3, score_sum=100,
            )
        )


async def test_ratings_beside_names(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await make_client(), await make_client()
    ana_id = (await sign_up(ana, "Ana"))["id"]
    ben_id = (await sign_up(ben, "Ben"))["id"]
    await rated(app, ana_id, "classic", 1234, False)
    await rated(app, ben_id, "classic", 1100, True)
    made = await ana.post("/api/matches", json={"variant": "classic", "seats": 3, "bots": 0})
    await ben.post(f"/api/matches/{made.json()['id']}/join", json={})
    [listed] = (await ana.get("/api/matches")).json()["matches"]
    assert [s["rating"] for s in listed["seats"]] == [
        {"rating": 1234, "provisional": False},
        {"rating": 1100, "provisional": True},
        None,
    ]
    lobby = (await ana.get("/lobby")).text
    assert '<span class="rating">1234</span>' in lobby
    assert '<span class="rating">1100<span class="provisional"' in lobby
    # The seeks list and the challenges show them too; Jackpot's is not Classic's.
    await ana.post("/api/seeks", json={"variant": "classic", "deadline_seconds": 7200})
    await ben.post("/api/seeks", json={"variant": "jackpot", "deadline_seconds": 7200})
    kinds = {k["variant"]: k["ratings"] for k in (await ana.get("/api/seeks")).json()["kinds"]}
    assert kinds["classic"] == [{"rating": 1234, "provisional": False}]
    assert kinds["jackpot"][0]["provisional"] is True
    await ben.post("/api/challenges", json={"to": "Ana", "variant": "classic"})
    [incoming] = (await ana.get("/api/challenges")).json()["incoming"]
    assert (incoming["rating"], incoming["provisional"]) == (1100, True)


async def test_own_seek_is_marked_for_its_reader(app, make_client) -> None:  # type: ignore[no-untyped-def]
    """Nobody is paired with their own seek: the page offers them no "Play this" for
    its kind but says that they wait there, and the API says which kinds are theirs."""
    ana, ben, guest = await make_client(), await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    await ana.post("/api/seeks", json={"variant": "classic", "deadline_seconds": 7200})
    await ben.post("/api/seeks", json={"variant": "jackpot", "deadline_seconds": 7200})
    yours = {k["variant"]: k["yours"] for k in (await ana.get("/api/seeks")).json()["kinds"]}
    assert yours == {"classic": True, "jackpot": False}
    assert all(not k["yours"] for k in (await guest.get("/api/seeks")).json()["kinds"])
    page = (await ana.get("/play-now")).text
    assert 'data-variant="classic"' not in page and 'data-variant="jackpot"' in page
    assert page.count("You are waiting") == 1 and 'class="yours"' in page
    page = (await ben.get("/play-now")).text
    assert 'data-variant="classic"' in page and 'data-variant="jackpot"' not in page


async def test_push_hint_names_challenges(app, make_client) -> None:  # type: ignore[no-untyped-def]
    """Challenges are pushed too: the account page's list of what a browser hears says so."""
    ana = await make_client()
    await sign_up(ana, "Ana")
    page = (await ana.get("/account")).text
    hint = page.split('id="push-hint">', 1)[1].split("</p>", 1)[0]
    assert "a challenge" in hint


async def test_each_challenge_says_how_long_it_stays_open(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    quick = {"to": "Ben", "variant": "jackpot", "deadline_seconds": 60}
    assert (await ana.post("/api/challenges", json=quick)).status_code == 201
    mine, theirs = (await ana.get("/play-now")).text, (await ben.get("/play-now")).text
    for page in (mine, theirs):
        # Ten minutes at most, read a moment after it was made.
        assert '<span class="expires-in">expires in 9 minutes</span>' in page or (
            '<span class="expires-in">expires in 10 minutes</span>' in page
        )
    slovak = (await ben.get("/play-now", headers={"Accept-Language": "sk"})).text
    assert "do vypršania zostáva: " in slovak
