"""Who sits where, as the pages show it: "My matches" names the opponents and whose
throw it is with its clock; names link to profiles only where one would open (never
guests or bots); a bot's strength stays secret until the match ends."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
from ratings_helpers import add_player, people, play, start_match
from sqlalchemy import event
from web_helpers import move, sign_up

from jackpot.web.matches.listing import my_matches

HTML = {"accept": "text/html"}


def links(html: str) -> list[str]:
    """The profile links of a page, in order."""
    return re.findall(r'href="/players/([^"/?]+)"', html)


def seat_links_of(html: str) -> list[dict[str, Any]]:
    """The seat links a match page embeds for match.js."""
    m = re.search(r'<script id="seat-links" type="application/json">(.*?)</script>', html)
    assert m is not None
    return list(json.loads(m.group(1))["seats"])


async def listed(client: httpx.AsyncClient) -> None:
    r = await client.patch("/api/account", json={"leaderboard": True})
    assert r.status_code == 200, r.text


async def test_my_matches_name_the_opponents_and_whose_throw_it_is(make_client: Any) -> None:
    ana, ben = await people(make_client, ["Ana", "Ben"])
    await listed(ana)
    state = await start_match([ana, ben], "jackpot", bots=1)
    # The order of play is drawn; a bot drawn first has thrown already.
    names = [s["name"] for s in state["seats"]]
    first = names[state["turn"]["seat"]]
    assert first in ("Ana", "Ben")

    mine = (await ben.get("/api/my/matches")).json()["matches"]
    (row,) = mine
    assert row["your_turn"] is (first == "Ben") and row["turn_name"] == first
    assert row["due_at"] == state["turn"]["due_at"] is not None
    assert row["opponents"] == [
        {"name": n, "bot": n == "Bot", "profile": "Ana" if n == "Ana" else None}
        for n in names
        if n != "Ben"
    ]
    page = (await ben.get("/my")).text
    assert ("Ana to throw" if first == "Ana" else "Your throw") in page
    assert f'<time class="countdown" datetime="{row["due_at"]}">' in page
    assert links(page) == ["Ana"]  # the bot is named, not linked

    # Ana's own view; Ben has not opted in, so his name is plain text.
    page = (await ana.get("/my")).text
    assert ("Your throw" if first == "Ana" else "Ben to throw") in page
    assert ">Ben<" not in page and "Ben" in page
    assert links(page) == []

    # Once the first has thrown and covered, the list follows the turn.
    mover = {"Ana": ana, "Ben": ben}[first]
    seat = state["turn"]["seat"]
    state = (await move(mover, state)).json()
    while state["turn"] is not None and state["turn"]["seat"] == seat:
        state = (await move(mover, state)).json()
    if state["turn"] is not None and names[state["turn"]["seat"]] != "Bot":
        now = names[state["turn"]["seat"]]
        row = (await ana.get("/api/my/matches")).json()["matches"][0]
        assert row["turn_name"] == now and row["due_at"] == state["turn"]["due_at"]
        assert ("Your throw" if now == "Ana" else "Ben to throw") in (await ana.get("/my")).text


async def test_my_matches_is_two_queries_however_many_matches(make_client: Any, app: Any) -> None:
    ana, ben, cat = await people(make_client, ["Ana", "Ben", "Cat"])
    for _ in range(3):
        await start_match([ana, ben], "classic", bots=1)
        await start_match([ana, cat], "jackpot")
    await ana.post("/api/matches", json={"seats": 3, "bots": 0})  # still waiting
    me = (await ana.get("/api/account")).json()["id"]
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            statements.append(statement)

    async with app.state.db.read() as conn:
        event.listen(conn.sync_connection, "before_cursor_execute", count)
        rows = await my_matches(conn, me)
        event.remove(conn.sync_connection, "before_cursor_execute", count)
    assert len(rows) == 7 and len(statements) == 2
    assert [r["status"] for r in rows] == ["playing"] * 6 + ["waiting"]
    waiting = [r for r in rows if r["status"] == "waiting"]
    assert waiting[0]["opponents"] == [
        {"name": None, "bot": False, "profile": None},
        {"name": None, "bot": False, "profile": None},
    ]
    page = (await ana.get("/my")).text
    assert '<span class="free">2 free seats</span>' in page and "Waiting for players" in page


async def test_a_guest_sees_the_bot_and_a_finished_match(client: httpx.AsyncClient) -> None:
    state = (await client.post("/api/matches", json={"seats": 2, "bots": 1})).json()
    (row,) = (await client.get("/api/my/matches")).json()["matches"]
    me = next(s["name"] for s in state["seats"] if s["you"])
    assert row["your_turn"] is True and row["turn_name"] == me
    assert row["opponents"] == [{"name": "Bot", "bot": True, "profile": None}]
    await client.post(f"/api/matches/{state['id']}/resign")
    (row,) = (await client.get("/api/my/matches")).json()["matches"]
    assert row["status"] == "finished" and row["due_at"] is None and row["turn_name"] is None
    page = (await client.get("/my")).text
    assert "Finished, place 2" in page and links(page) == []


async def test_match_page_links_accounts_not_guests_nor_bots(make_client: Any) -> None:
    ana, ben = await people(make_client, ["Ana", "Ben"])
    await listed(ana)
    stranger = await make_client()
    state = await start_match([ana, ben], "jackpot", bots=1)
    mid = state["id"]
    secret = {"strength": None, "rating": None}  # nobody is rated yet
    names = [s["name"] for s in state["seats"]]  # in the order of play drawn
    # Ben may open his own profile and Ana's (listed); a stranger only Ana's.
    for client, opens in ((ben, {"Ana", "Ben"}), (ana, {"Ana"}), (stranger, {"Ana"})):
        api = (await client.get(f"/api/matches/{mid}/seats")).json()["seats"]
        assert api == [{"profile": n if n in opens else None, **secret} for n in names]
        assert seat_links_of((await client.get(f"/matches/{mid}")).text) == api

    # A guest playing the bot: no profile anywhere, not even for the guest.
    guest = await make_client()
    gstate = (await guest.post("/api/matches", json={"seats": 2, "bots": 1})).json()
    gid = gstate["id"]
    mine = next(i for i, s in enumerate(gstate["seats"]) if s["you"])
    assert (await guest.get(f"/api/matches/{gid}/seats")).json()["seats"] == [
        {"profile": None, **secret},
        {"profile": None, **secret},
    ]
    # Signing up turns the guest's seat into an account: their own name now links.
    await sign_up(guest, "Gail")
    assert (await guest.get(f"/api/matches/{gid}/seats")).json()["seats"][mine]["profile"] == "Gail"


async def test_the_link_follows_a_rename(make_client: Any) -> None:
    (ana,) = await people(make_client, ["Ana"])
    await listed(ana)
    mid = (await ana.post("/api/matches", json={"seats": 2, "bots": 0})).json()["id"]
    await ana.patch("/api/account", json={"name": "Anabel"})
    viewer = await make_client()
    assert (await viewer.get(f"/api/matches/{mid}/seats")).json()["seats"][0] == {
        "profile": "Anabel",
        "strength": None,
        "rating": None,
    }
    assert (await viewer.get("/players/Anabel", headers=HTML)).status_code == 200


async def test_seat_links_of_a_match_that_does_not_exist(client: httpx.AsyncClient) -> None:
    for mid in ("m_nope", "x" * 500, "m_0'--"):
        r = await client.get(f"/api/matches/{mid}/seats")
        assert r.status_code == 404, (mid, r.text)
        assert r.json()["error"]["code"] == "not_found"


async def test_a_bots_strength_is_secret_until_the_end(client: httpx.AsyncClient) -> None:
    state = (await client.post("/api/matches", json={"seats": 2, "bots": 1})).json()
    mid = state["id"]
    for _ in range(5000):
        if state["status"] == "finished":
            break
        seats = (await client.get(f"/api/matches/{mid}/seats")).json()["seats"]
        assert all(s["strength"] is None for s in seats)
        assert seat_links_of((await client.get(f"/matches/{mid}")).text) == seats
        state = (await move(client, state)).json()
    assert state["status"] == "finished"
    record = (await client.get(f"/api/matches/{mid}/record")).json()
    seats = (await client.get(f"/api/matches/{mid}/seats")).json()["seats"]
    bot = next(i for i, s in enumerate(state["seats"]) if s["bot"])
    assert [s["strength"] for s in seats] == [record["seats"][i]["bot"] for i in range(2)]
    assert seats[1 - bot]["strength"] is None
    assert seats[bot]["strength"] in ("lowest", "highest", "best")


async def test_history_and_replay_link_only_profiles_that_open(make_client: Any) -> None:
    ana, ben = await people(make_client, ["Ana", "Ben"])
    await listed(ana)
    done = await play([ana, ben], await start_match([ana, ben], "classic", bots=1))
    mid = done["id"]
    stranger = await make_client()

    replay = (await stranger.get(f"/matches/{mid}/replay", headers=HTML)).text
    # Ana twice (the seat line and the summary); Ben has not opted in; the bot never.
    assert links(replay) == ["Ana", "Ana"]
    assert re.search(r"\(a bot, rule: (lowest tile|highest tile|best move)\)", replay)
    assert "rule: hidden" not in replay

    # Ben looks at Ana's history: he is linked for himself, the bot is not.
    hist = (await ben.get("/players/Ana/history", headers=HTML)).text
    against = re.findall(r'<td class="against">(.*?)</td>', hist)
    # The opponents in the order of play, which the seed drew.
    others = [s["name"] for s in done["seats"] if s["name"] != "Ana"]
    shown = {"Ben": '<a class="player" href="/players/Ben">Ben</a>', "Bot": "Bot"}
    assert against == [", ".join(shown[n] for n in others)]
    api = (await ben.get("/api/players/Ana/matches")).json()["matches"][0]
    assert api["opponents"] == others
    assert api["opponent_seats"] == [
        {"name": n, "bot": n == "Bot", "profile": "Ben" if n == "Ben" else None} for n in others
    ]
    # The same history seen by a stranger: Ben's name is plain text.
    hist = (await stranger.get("/players/Ana", headers=HTML)).text
    assert re.findall(r'<td class="against">(.*?)</td>', hist) == [", ".join(others)]

    # Ana's own profile lists Ben as plain text too: his profile would not open.
    assert (await ana.get("/players/Ben", headers=HTML)).status_code == 404
    assert "/players/Ben" not in (await ana.get("/players/Ana/history", headers=HTML)).text


async def test_a_guests_replay_links_nobody(client: httpx.AsyncClient) -> None:
    mid = (await client.post("/api/matches", json={"seats": 2, "bots": 1})).json()["id"]
    await client.post(f"/api/matches/{mid}/resign")
    replay = await client.get(f"/matches/{mid}/replay", headers=HTML)
    assert replay.status_code == 200 and links(replay.text) == []


async def test_leaderboard_names_link_to_profiles_that_open(make_client: Any, app: Any) -> None:
    await add_player(app, "Ana Lee", mu=30.0)
    viewer = await make_client()
    html = (await viewer.get("/leaderboard", headers=HTML)).text
    assert links(html) == ["Ana%20Lee"]
    assert (await viewer.get("/players/Ana%20Lee", headers=HTML)).status_code == 200
