"""Entering the daily deal and playing it: one entry each, the same dice for everyone,
the seed kept back until the day ends, no clock per throw, and no rating."""

from __future__ import annotations

import json

import pytest
from daily_helpers import db_of, deal_seed, deals_made, enter, first, last, play, player
from sqlalchemy import func, select, update
from web_helpers import sign_up

from jackpot import fair
from jackpot.web.base.tables import players as r
from jackpot.web.base.tables.daily import daily_deals, daily_entries
from jackpot.web.daily.deals import shift

#: Repeated on PostgreSQL (make test): an upsert in each dialect.
pytestmark = pytest.mark.pg


def throws_by_number(record: dict) -> dict[int, list[int]]:  # type: ignore[type-arg]
    return {e["n"]: e["dice"] for e in record["events"] if e["type"] == "throw"}


async def test_two_players_meet_the_same_dice_turn_by_turn(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await player(make_client), await player(make_client)
    day = await deals_made(ana)
    a_id, b_id = await enter(ana), await enter(ben)
    # Different choices: ana covers the lowest option, ben the highest.
    a_state = await play(ana, a_id, first)
    b_state = await play(ben, b_id, last)
    assert b_state["status"] == "finished"
    jackpots = a_state["result"]["jackpots"]
    assert a_state["daily"] == {"date": day, "turn": 10, "turns": 10, "jackpots": jackpots}
    a_rec = (await ana.get(f"/api/matches/{a_id}/record")).json()
    b_rec = (await ben.get(f"/api/matches/{b_id}/record")).json()
    a_dice, b_dice = throws_by_number(a_rec), throws_by_number(b_rec)
    # Every turn starts at throw 16t, for both of them, with the same throw, whatever
    # they covered before.
    for t in range(10):
        assert a_dice[16 * t] == b_dice[16 * t]
    # They did choose differently (so their turns could have gone differently).
    covers = {e["n"]: e["cover"] for e in a_rec["events"] if e["type"] == "throw"}
    assert any(covers[e["n"]] != e["cover"] for e in b_rec["events"] if e["n"] in covers)
    # And they are the deal's dice by position: the seed (read here from the database)
    # makes each throw from its turn and the tiles still open.
    seed = await deal_seed(ana, day, "jackpot")
    client_seed = fair.daily_client_seed(day, "jackpot")
    for rec in (a_rec, b_rec):
        assert rec["format"] == "jackpot-record/4"
        assert rec["daily"] == {"date": day, "turns": 10, "dice": "by-position"}
        for n, open_tiles, dice in positions(rec):
            assert fair.position_dice(seed, client_seed, n // 16, open_tiles, len(dice)) == dice


def positions(record: dict) -> list[tuple[int, list[int], tuple[int, ...]]]:  # type: ignore[type-arg]
    """Each throw of a daily record with the tiles open when it was thrown."""
    out = []
    open_tiles: list[int] = []
    for e in record["events"]:
        if e["type"] != "throw":
            continue
        if e["n"] % 16 == 0:
            open_tiles = list(range(1, 10))
        out.append((e["n"], list(open_tiles), tuple(e["dice"])))
        open_tiles = [x for x in open_tiles if x not in (e["cover"] or [])]
    return out


async def test_a_deal_made_before_dice_by_position_keeps_them_by_number(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana = await player(make_client)
    day = await deals_made(ana)
    async with db_of(ana).write() as conn:
        await conn.execute(update(daily_deals).where(daily_deals.c.day == day).values(dice=None))
    mid = await enter(ana)
    await play(ana, mid, last)
    record = (await ana.get(f"/api/matches/{mid}/record")).json()
    assert record["format"] == "jackpot-record/3" and "dice" not in record["daily"]
    seed = await deal_seed(ana, day, "jackpot")
    client_seed = fair.daily_client_seed(day, "jackpot")
    for n, dice in throws_by_number(record).items():
        assert fair.throw_dice(seed, client_seed, n, len(dice)) == tuple(dice)


async def test_an_entry_is_a_daily_record_whose_seed_waits_for_the_day(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana = await player(make_client)
    day = await deals_made(ana)
    mid = await enter(ana, "classic")
    state = (await ana.get(f"/api/matches/{mid}")).json()
    assert state["daily"] == {"date": day, "turn": 1, "turns": 10, "jackpots": 0}
    assert state["deadline_seconds"] is None
    # No clock per throw: the one time the entry has is its day's close.
    assert state["turn"]["due_at"] == f"{shift(day, 1)}T00:00:00Z"
    final = await play(ana, mid)
    assert final["status"] == "finished"
    assert final["server_seed"] is None
    record = (await ana.get(f"/api/matches/{mid}/record")).json()
    assert record["format"] == "jackpot-record/4"
    assert list(record)[:6] == ["format", "id", "variant", "daily", "origin", "deadline_seconds"]
    assert record["daily"] == {"date": day, "turns": 10, "dice": "by-position"}
    assert record["deadline_seconds"] is None
    assert record["joined"] == [0]
    assert record["client_seed"] == f"daily-{day}-classic"
    assert record["seats"] == [{"name": record["seats"][0]["name"], "bot": None}]
    assert record["result"] == final["result"]
    assert set(record["result"]) == {"turn_scores", "jackpots", "total"}
    # Finished, and still no seed: everybody else plays the same dice until midnight.
    assert record["server_seed"] is None
    events = (await ana.get(f"/api/matches/{mid}/events")).text
    assert await deal_seed(ana, day, "classic") not in events
    assert await deal_seed(ana, day, "classic") not in (await ana.get(f"/matches/{mid}")).text
    # The verifier checks all it can and waits for the seed.
    report = fair.verify(fair.parse_record(record))
    assert report.awaiting_seed and not report.ok


async def test_one_entry_per_account_and_deal(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana = await player(make_client)
    await deals_made(ana)
    await enter(ana, "jackpot")
    again = await ana.post("/api/daily/jackpot")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "already_entered"
    # The other variant is another deal.
    await enter(ana, "classic")
    async with ana._transport.app.state.db.read() as conn:  # type: ignore[attr-defined]
        count = (await conn.execute(select(func.count()).select_from(daily_entries))).scalar()
    assert count == 2


async def test_guests_and_strangers_cannot_enter(app, make_client) -> None:  # type: ignore[no-untyped-def]
    anonymous = await make_client()
    await deals_made(anonymous)
    r1 = await anonymous.post("/api/daily/jackpot")
    assert r1.status_code == 403 and r1.json()["error"]["code"] == "account_required"
    guest = await make_client()
    played = await guest.post("/api/matches", json={"seats": 1, "bots": 0})
    assert played.status_code == 201  # a guest now
    r2 = await guest.post("/api/daily/jackpot")
    assert r2.status_code == 403 and r2.json()["error"]["code"] == "account_required"
    # In the reader's language.
    r3 = await guest.post("/api/daily/jackpot", headers={"accept-language": "pt"})
    assert r3.json()["error"]["message"] != r2.json()["error"]["message"]


async def test_bad_variants_and_days_are_refused_in_words(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana = await player(make_client)
    day = await deals_made(ana)
    for bad in ("poker", "JACKPOT", "jackpot "):
        r = await ana.post(f"/api/daily/{bad}")
        assert r.status_code == 422, r.text
        assert "variant" in r.json()["error"]["message"]
    assert (await ana.get(f"/api/daily/{day}/poker")).status_code == 422
    for bad_day in ("2026-13-01", "2026-02-30", "yesterday", "20261206", "2026-1-6"):
        r = await ana.get(f"/api/daily/{bad_day}/jackpot")
        assert r.status_code == 422, (bad_day, r.text)
        assert r.json()["error"]["code"] == "invalid"
    missing = await ana.get("/api/daily/2001-01-01/jackpot")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    for query in ("limit=0", "limit=101", "offset=-1", "limit=x"):
        r = await ana.get(f"/api/daily/{day}/jackpot?{query}")
        assert r.status_code == 422, (query, r.text)


async def test_daily_entries_are_not_rated(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana = await player(make_client)
    await deals_made(ana)
    mid = await enter(ana)
    await play(ana, mid)
    async with ana._transport.app.state.db.read() as conn:  # type: ignore[attr-defined]
        for table in (r.seat_stats, r.player_ratings, r.rating_history):
            assert (await conn.execute(select(func.count()).select_from(table))).scalar() == 0
    me = (await ana.get("/api/account")).json()
    profile = (await ana.get(f"/api/players/{me['name']}")).json()
    assert profile["variants"] == []
    assert profile["dailies"]["days_in_a_row"] == 1
    assert profile["dailies"]["recent"][0]["match"] == mid


async def test_no_odds_during_an_entry(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana = await player(make_client)
    await deals_made(ana)
    mid = await enter(ana)
    r = await ana.get(f"/api/matches/{mid}/odds")
    assert r.status_code == 403 and r.json()["error"]["code"] == "odds_hidden"


async def test_giving_up_scores_the_rest_45(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana = await player(make_client)
    await deals_made(ana)
    mid = await enter(ana)
    state = await play(ana, mid, turns=2)
    assert state["daily"]["turn"] == 3
    done = (await ana.post(f"/api/matches/{mid}/resign")).json()
    assert done["status"] == "finished"
    scores = done["result"]["turn_scores"]
    assert scores[2:] == [45] * 8 and len(scores) == 10
    overview = (await ana.get("/api/daily")).json()
    mine = next(d for d in overview["deals"] if d["variant"] == "jackpot")["entry"]
    assert mine["finished"] and mine["ending"] == "resigned" and mine["place"] == 1
    assert mine["result"] == done["result"]
    # Its replay waits for the day's seed, and says so rather than "not ended".
    r = await ana.get(f"/matches/{mid}/replay", headers={"accept": "text/html"})
    assert r.status_code == 409 and "when its day ends" in r.text


async def test_the_overview_shows_today_and_the_commitments_ahead(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana = await make_client()
    day = await deals_made(ana)
    data = (await ana.get("/api/daily")).json()
    assert data["date"] == day
    assert data["closes_at"] == f"{shift(day, 1)}T00:00:00Z"
    assert [d["variant"] for d in data["deals"]] == ["jackpot", "classic"]
    for d in data["deals"]:
        assert d["turns"] == 10 and d["entries"] == 0 and d["entry"] is None
        assert len(d["commitment"]) == 64
    ahead = sorted((d["date"], d["variant"]) for d in data["next"])
    tomorrow, after = shift(day, 1), shift(day, 2)
    assert ahead == sorted((x, v) for x in (tomorrow, after) for v in ("jackpot", "classic"))
    json.dumps(data)  # plain JSON
    await sign_up(ana, "Overviewer")
    mid = await enter(ana)
    data = (await ana.get("/api/daily")).json()
    jackpot = data["deals"][0]
    assert jackpot["entries"] == 1
    assert jackpot["entry"]["match"] == mid and jackpot["entry"]["finished"] is False
    assert jackpot["entry"]["turn"] == 1 and jackpot["entry"]["so_far"]["total"] == 0
