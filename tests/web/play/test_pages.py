"""The pages a person clicks through, and leaving a match before it starts."""

from __future__ import annotations

import re

import httpx
from web_helpers import sign_up


def csrf_of(html: str) -> str:
    m = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert m is not None
    return m.group(1)


async def test_play_the_bot_with_ones_own_client_seed(client: httpx.AsyncClient) -> None:
    home = await client.get("/")
    assert 'id="play-bot"' in home.text
    r = await client.post(
        "/play",
        data={
            "csrf_token": csrf_of(home.text),
            "variant": "jackpot",
            "mode": "bot",
            "client_seed": "my-own_seed",
        },
    )
    assert r.status_code == 303
    mid = r.headers["location"].rsplit("/", 1)[1]
    state = (await client.get(f"/api/matches/{mid}")).json()
    assert state["client_seed"] == "my-own_seed"
    assert sorted(s["bot"] for s in state["seats"]) == [False, True]
    page = await client.get(f"/matches/{mid}")
    assert state["commitment"] in page.text
    assert "published when the match ends" in page.text


async def test_solo_and_classic_are_one_more_click(client: httpx.AsyncClient) -> None:
    token = csrf_of((await client.get("/")).text)
    r = await client.post("/play", data={"csrf_token": token, "variant": "classic", "mode": "solo"})
    mid = r.headers["location"].rsplit("/", 1)[1]
    state = (await client.get(f"/api/matches/{mid}")).json()
    assert state["variant"] == "classic" and len(state["seats"]) == 1
    r = await client.post("/play", data={"csrf_token": token, "mode": "crowd"},
                          headers={"accept": "text/html"})
    assert r.status_code == 422 and "play the bot or to practise alone" in r.text, r.text


async def test_people_match_by_forms_and_the_lobby(make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    form = (await ana.get("/matches/new")).text
    r = await ana.post(
        "/matches/new",
        data={
            "csrf_token": csrf_of(form),
            # Jackpot: a bot drawn to throw first cannot end it by shutting the box.
            "variant": "jackpot",
            "seats": "3",
            "bots": "1",
            "deadline_seconds": "3600",
            "client_seed": "abc",
        },
    )
    assert r.status_code == 303
    mid = r.headers["location"].rsplit("/", 1)[1]
    lobby = (await ben.get("/lobby")).text
    assert f"/matches/{mid}" in lobby and "Ana" in lobby
    page = (await ben.get(f"/matches/{mid}")).text
    assert 'id="join"' in page
    # The seed asked for says what it is, tied to its field.
    assert 'aria-describedby="join-seed-help"' in page
    assert re.search(r'id="join-seed-help">Your seed goes into every throw of the match', page)
    r = await ben.post(
        f"/matches/{mid}/join", data={"csrf_token": csrf_of(page), "client_seed": "bens"}
    )
    assert r.status_code == 303
    state = (await ben.get(f"/api/matches/{mid}")).json()
    assert state["status"] == "playing" and state["client_seed"] == "abc.bens"
    assert f"/matches/{mid}" not in (await ben.get("/lobby")).text
    # Whoever the draw put first is asked for a throw on their "My matches".
    waiting_on = [(await c.get("/my")).text for c in (ana, ben)]
    assert sum("Your throw" in page for page in waiting_on) == 1


async def test_private_matches_stay_out_of_the_lobby(make_client) -> None:  # type: ignore[no-untyped-def]
    ana = await make_client()
    await sign_up(ana, "Ana")
    r = await ana.post("/api/matches", json={"seats": 2, "bots": 0, "private": True})
    assert r.json()["private"] is True
    assert (await ana.get("/api/matches")).json()["matches"] == []


async def test_leaving_before_the_start(make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    mid = (await ana.post("/api/matches", json={"seats": 3, "bots": 0})).json()["id"]
    await ben.post(f"/api/matches/{mid}/join", json={})
    state = (await ben.post(f"/api/matches/{mid}/resign")).json()
    assert state["status"] == "waiting" and state["seats"][1]["name"] is None
    state = (await ana.post(f"/api/matches/{mid}/resign")).json()
    assert state["status"] == "finished" and state["result"] is None
    assert (await ben.post(f"/api/matches/{mid}/join", json={})).status_code == 409


async def test_guests_are_sent_to_sign_up_for_people_matches(client: httpx.AsyncClient) -> None:
    r = await client.get("/matches/new")
    assert r.status_code == 303 and r.headers["location"].startswith("/signup")


async def test_the_lobby_tells_you_which_match_is_yours(make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    mid = (await ana.post("/api/matches", json={"seats": 2, "bots": 0})).json()["id"]
    mine = (await ana.get("/lobby")).text
    assert f'<a href="/matches/{mid}">Your match: waiting</a>' in mine
    assert "Look and join" not in mine
    assert f'<a href="/matches/{mid}">Look and join</a>' in (await ben.get("/lobby")).text


async def test_home_and_rules_say_once_how_a_match_is_checked(client: httpx.AsyncClient) -> None:
    """Their "Playing it here" list says that a match's seed is published at its end and
    points to fair play and the Verify page; the site's footer, which says the same,
    is left off these two pages (and the rules no longer repeat it a third time)."""
    for path in ("/", "/rules"):
        page = (await client.get(path, headers={"accept": "text/html"})).text
        assert page.count("published") == 1, path
        assert page.count("Every match can be checked") == 1, path
        assert '<a href="/verify">verify a match</a>' in page, path
        assert "How it works" not in page, path
    lobby = (await client.get("/lobby", headers={"accept": "text/html"})).text
    assert "Every throw comes from a seed published when the match ends" in lobby
