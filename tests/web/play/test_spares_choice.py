"""Choosing spare deadlines: the API (0 to 5, default 0, 422 naming the field), the
new-match form (1 by default between people), play now (seeks pair only with equal
spares) and challenges; a match shows its spares and each seat's left."""

from __future__ import annotations

import re

import pytest
from web_helpers import sign_up

from jackpot.web.base.tables import core as t

pytestmark = pytest.mark.pg

_names = iter(range(10_000))


async def person(make_client):  # type: ignore[no-untyped-def]
    c = await make_client()
    await sign_up(c, f"Spare{next(_names)}")
    return c


async def test_the_api_defaults_to_no_spares_and_shows_them(make_client) -> None:  # type: ignore[no-untyped-def]
    ana = await person(make_client)
    made = (await ana.post("/api/matches", json={"seats": 2, "bots": 0})).json()
    assert made["spares"] == 0
    assert [s["spares_left"] for s in made["seats"]] == [0, 0]
    bot = (await ana.post("/api/matches", json={"seats": 2, "bots": 1})).json()
    assert bot["spares"] == 0


async def test_a_match_with_spares_shows_each_seat_s_left(make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await person(make_client), await person(make_client)
    made = (await ana.post("/api/matches", json={"seats": 2, "bots": 0, "spares": 3})).json()
    assert made["spares"] == 3 and made["seats"][0]["spares_left"] == 3
    # The lobby says what a joiner gets.
    listed = (await ben.get("/api/matches")).json()["matches"]
    assert [m["spares"] for m in listed if m["id"] == made["id"]] == [3]
    started = (await ben.post(f"/api/matches/{made['id']}/join", json={})).json()
    assert started["status"] == "playing"
    assert [s["spares_left"] for s in started["seats"]] == [3, 3]
    record = (await ben.get(f"/api/matches/{made['id']}/record")).json()
    assert record["format"] == "jackpot-record/4" and record["spares"] == 3


@pytest.mark.parametrize("spares", [-1, 6, 100])
async def test_spares_out_of_range_are_refused_naming_the_field(make_client, app, spares) -> None:  # type: ignore[no-untyped-def]
    ana = await person(make_client)
    r = await ana.post("/api/matches", json={"seats": 2, "bots": 0, "spares": spares})
    assert r.status_code == 422, r.text
    assert "spares" in r.json()["error"]["message"]
    async with app.state.db.read() as conn:
        assert (await conn.execute(t.matches.select())).first() is None


@pytest.mark.parametrize("body", [{"spares": "1"}, {"spares": True}, {"spares": 1.5}])
async def test_spares_that_are_not_a_whole_number_are_refused(make_client, body) -> None:  # type: ignore[no-untyped-def]
    ana = await person(make_client)
    r = await ana.post("/api/matches", json={"seats": 2, "bots": 0, **body})
    assert r.status_code == 422, r.text
    assert "spares" in r.text


@pytest.mark.parametrize("shape", [{"seats": 2, "bots": 1}, {"seats": 1, "bots": 0}])
async def test_a_bot_or_solo_match_has_no_spares(make_client, shape) -> None:  # type: ignore[no-untyped-def]
    ana = await person(make_client)
    r = await ana.post("/api/matches", json={**shape, "spares": 1})
    assert r.status_code == 422, r.text
    assert "spares" in r.json()["error"]["message"]


async def test_the_form_offers_one_spare_between_people(make_client) -> None:  # type: ignore[no-untyped-def]
    ana = await person(make_client)
    page = (await ana.get("/matches/new")).text
    chosen = re.search(r'<select name="spares".*?</select>', page, re.S)
    assert chosen is not None and "<option selected>1</option>" in chosen.group(0)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token is not None
    form = {"csrf_token": token.group(1), "variant": "jackpot", "seats": "3", "bots": "0",
            "deadline_seconds": "3600", "expiry_seconds": "86400", "spares": "2"}
    made = await ana.post("/matches/new", data=form)
    assert made.status_code == 303, made.text
    mid = made.headers["location"].rsplit("/", 1)[1]
    assert (await ana.get(f"/api/matches/{mid}")).json()["spares"] == 2
    # Against a bot the choice does not count: the bot never waits for a spare.
    with_bot = await ana.post("/matches/new", data={**form, "seats": "2", "bots": "1"})
    bot_id = with_bot.headers["location"].rsplit("/", 1)[1]
    assert (await ana.get(f"/api/matches/{bot_id}")).json()["spares"] == 0
    bad = await ana.post("/matches/new", data={**form, "spares": "9"})
    assert bad.status_code == 422 and "spare deadlines" in bad.text


async def test_seeks_pair_only_with_equal_spares(make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben, cat = [await person(make_client) for _ in range(3)]
    kind = {"variant": "jackpot", "deadline_seconds": 3600, "seats": 2}
    first = (await ana.post("/api/seeks", json={**kind, "spares": 1})).json()
    other = (await ben.post("/api/seeks", json={**kind, "spares": 2})).json()
    assert first["status"] == other["status"] == "waiting"
    listed = (await cat.get("/api/seeks")).json()["kinds"]
    assert sorted(k["spares"] for k in listed) == [1, 2]
    paired = (await cat.post("/api/seeks", json={**kind, "spares": 1})).json()
    assert paired["status"] == "paired"
    state = (await cat.get(f"/api/matches/{paired['match']}")).json()
    assert state["spares"] == 1
    assert (await ana.get(f"/api/seeks/{first['id']}")).json()["status"] == "paired"
    assert (await ben.get(f"/api/seeks/{other['id']}")).json()["status"] == "waiting"
    bad = await cat.post("/api/seeks", json={**kind, "spares": 6})
    assert bad.status_code == 422 and "spares" in bad.json()["error"]["message"]


async def test_a_challenge_carries_its_spares(make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await person(make_client), await person(make_client)
    ben_name = (await ben.get("/api/account")).json()["name"]
    made = await ana.post("/api/challenges", json={"to": ben_name, "spares": 4})
    assert made.status_code == 201, made.text
    incoming = (await ben.get("/api/challenges")).json()["incoming"]
    assert incoming[0]["spares"] == 4
    assert "4 spare deadlines" in (await ben.get("/play-now")).text
    accepted = (await ben.post(f"/api/challenges/{made.json()['id']}/accept")).json()
    state = (await ben.get(f"/api/matches/{accepted['match']}")).json()
    assert state["spares"] == 4 and [s["spares_left"] for s in state["seats"]] == [4, 4]
    bad = await ana.post("/api/challenges", json={"to": ben_name, "spares": -1})
    assert bad.status_code == 422 and "spares" in bad.json()["error"]["message"]
