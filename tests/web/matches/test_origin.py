"""Every match says where it comes from, and the rules that follow are read from there:
the API shows the origin, the watch list lists what is made to be listed, the
rematch is offered where it is, and the ratings move where the match is rated."""

from __future__ import annotations

from typing import Any

import httpx
from daily_helpers import deals_made, enter
from daily_helpers import player as daily_player
from ratings_helpers import people, play, start_match
from sqlalchemy import select, update
from web_helpers import bot_match, sign_up

from jackpot.web.base.tables import core as t
from jackpot.web.base.tables import players as r

DAY = 86400


async def origin(client: httpx.AsyncClient, match_id: str) -> dict[str, Any]:
    r = await client.get(f"/api/matches/{match_id}")
    assert r.status_code == 200, r.text
    return dict(r.json()["origin"])


async def rules(app: Any, match_id: str) -> tuple[bool, bool, bool]:
    async with app.state.db.read() as conn:
        row = (
            await conn.execute(
                select(t.matches.c.rated, t.matches.c.offers_rematch, t.matches.c.on_watch).where(
                    t.matches.c.id == match_id
                )
            )
        ).one()
    return bool(row.rated), bool(row.offers_rematch), bool(row.on_watch)


async def test_a_persons_own_matches_say_so(app: Any, make_client: Any) -> None:
    guest = await make_client()
    solo = await guest.post("/api/matches", json={"variant": "jackpot", "seats": 1, "bots": 0})
    assert solo.status_code == 201, solo.text
    assert await origin(guest, solo.json()["id"]) == {"kind": "solo", "id": None}
    assert await rules(app, solo.json()["id"]) == (False, False, False)
    vs_bot = await bot_match(guest, "classic")
    assert await origin(guest, vs_bot["id"]) == {"kind": "bot", "id": None}
    assert await rules(app, vs_bot["id"]) == (False, False, False)
    ana, ben = await people(make_client, ["Ana", "Ben"])
    public = await start_match([ana, ben], "jackpot")
    assert await origin(ana, public["id"]) == {"kind": "people", "id": None}
    assert await rules(app, public["id"]) == (True, True, True)
    private = await ana.post(
        "/api/matches", json={"variant": "jackpot", "seats": 2, "bots": 0, "private": True}
    )
    assert await rules(app, private.json()["id"]) == (True, True, False)
    with_bot = await ana.post("/api/matches", json={"variant": "jackpot", "seats": 3, "bots": 1})
    assert await origin(ana, with_bot.json()["id"]) == {"kind": "people", "id": None}
    assert await rules(app, with_bot.json()["id"]) == (True, True, False)


async def test_matches_made_for_people_name_what_made_them(app: Any, make_client: Any) -> None:
    ana, ben = [await make_client() for _ in range(2)]
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    kind = {"variant": "jackpot", "deadline_seconds": DAY, "seats": 2}
    first = await ana.post("/api/seeks", json=kind)
    second = await ben.post("/api/seeks", json=kind)
    assert first.status_code == second.status_code == 201, second.text
    seeks = {s["id"]: s for s in [first.json(), second.json()]}
    match_id = second.json()["match"]
    made = await origin(ana, match_id)
    assert made["kind"] == "play_now" and made["id"] in seeks
    assert await rules(app, match_id) == (True, True, True)

    sent = await ana.post(
        "/api/challenges", json={"to": "ben", "variant": "classic", "deadline_seconds": DAY}
    )
    challenge = sent.json()["id"]
    accepted = await ben.post(f"/api/challenges/{challenge}/accept")
    assert accepted.status_code == 200, accepted.text
    match_id = accepted.json()["match"]
    assert await origin(ben, match_id) == {"kind": "challenge", "id": challenge}
    assert await rules(app, match_id) == (True, True, True)


async def test_a_rematch_names_the_match_it_follows(app: Any, make_client: Any) -> None:
    ana, ben = await people(make_client, ["Ana", "Ben"])
    done = await play([ana, ben], await start_match([ana, ben], "classic"))
    for c in (ana, ben):
        r = await c.post(f"/api/matches/{done['id']}/rematch", json={})
        assert r.status_code == 200, r.text
    new_id = r.json()["offer"]["new_match_id"]
    assert await origin(ana, new_id) == {"kind": "rematch", "id": done["id"]}
    assert await rules(app, new_id) == (True, True, True)


async def test_a_daily_entry_is_of_its_deal_and_none_of_the_rest(
    app: Any, make_client: Any
) -> None:
    ana = await daily_player(make_client, "Ana")
    day = await deals_made(ana)
    match_id = await enter(ana, "jackpot")
    assert await origin(ana, match_id) == {"kind": "daily", "id": f"{day}:jackpot"}
    assert await rules(app, match_id) == (False, False, False)


async def test_the_rules_are_read_from_the_row_not_worked_out_again(
    app: Any, make_client: Any
) -> None:
    """A match between people whose row says it is neither rated, nor offered again,
    nor listed is none of these: the row decides (as a tournament's table will say
    its own)."""
    ana, ben = await people(make_client, ["Ana", "Ben"])
    state = await start_match([ana, ben], "classic")
    watched = (await ana.get("/api/matches/live")).json()["matches"]
    assert state["id"] in [m["id"] for m in watched]
    async with app.state.db.write() as conn:
        await conn.execute(
            update(t.matches)
            .where(t.matches.c.id == state["id"])
            .values(rated=False, offers_rematch=False, on_watch=False)
        )
    watched = (await ana.get("/api/matches/live")).json()["matches"]
    assert state["id"] not in [m["id"] for m in watched]
    done = await play([ana, ben], state)
    offer = (await ana.get(f"/api/matches/{done['id']}/rematch")).json()
    assert offer["possible"] is False
    async with app.state.db.read() as conn:
        history = (
            await conn.execute(
                select(r.rating_history).where(r.rating_history.c.match_id == done["id"])
            )
        ).all()
        stats = (
            await conn.execute(select(r.seat_stats).where(r.seat_stats.c.match_id == done["id"]))
        ).all()
    assert history == []
    assert len(stats) == 2  # the figures are kept: the match was played
