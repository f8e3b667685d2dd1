"""The day's close at midnight: unfinished entries end with 45 a turn left, par is the
best bot's play of the same dice, places are final, the seed is public and every
entry's record verifies. The clock moves through the close's own ``now``."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from daily_helpers import db_of, deal_seed, deals_made, enter, first, last, play, player
from sqlalchemy import select

from jackpot import fair
from jackpot.engine import DailyResult, Match, Variant, daily_places
from jackpot.fair.par import daily_par
from jackpot.strategy.autoplay import play_bots
from jackpot.strategy.strength import Strength
from jackpot.web.base.clock import utcnow
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables.daily import daily_deals, daily_entries
from jackpot.web.daily.close import close_days
from jackpot.web.daily.deals import closes_at, make_deals, shift
from jackpot.web.play.sweeper import sweep_once


def best_bot(seed: str, day: str, variant: str) -> DailyResult:
    """The best bot's entry in the deal, played here move by move on the engine."""
    client_seed = fair.daily_client_seed(day, variant)
    m, _ = play_bots(
        Match.new_daily(Variant(variant)),
        [Strength.BEST],
        lambda n, count: fair.throw_dice(seed, client_seed, n, count),
    )
    assert isinstance(m.result, DailyResult)
    return m.result


async def test_the_day_closes_at_midnight(app, make_client, clock) -> None:  # type: ignore[no-untyped-def]
    ana, ben, cy, dee = [await player(make_client, n) for n in ("Ana", "Ben", "Cy", "Dee")]
    day = await deals_made(ana)
    ids = {c: await enter(c) for c in (ana, ben, cy, dee)}
    await play(ana, ids[ana], last)
    await play(dee, ids[dee], first)
    await play(ben, ids[ben], last, turns=3)  # three turns done, the fourth begun
    state = (await ben.get(f"/api/matches/{ids[ben]}")).json()
    if state["turn"]["dice"] is None:
        await ben.post(f"/api/matches/{ids[ben]}/throw", json={})
    # cy entered and never threw.
    db = db_of(ana)
    midnight = closes_at(day)
    assert await close_days(db, midnight - timedelta(seconds=1)) == 0
    board = (await ana.get(f"/api/daily/{day}/jackpot")).json()
    assert board["closed"] is False and board["server_seed"] is None and board["par"] is None
    assert board["count"] == 4 and board["finished"] == 2
    # Midnight: both of today's deals close (Classic had no entries), tomorrow's not.
    clock(midnight)
    assert await close_days(db, midnight) == 2
    assert await close_days(db, midnight + timedelta(minutes=1)) == 0

    seed = await deal_seed(ana, day, "jackpot")
    ben_state = (await ben.get(f"/api/matches/{ids[ben]}")).json()
    assert ben_state["status"] == "finished" and ben_state["seats"][0]["out"] == "timeout"
    assert ben_state["result"]["turn_scores"][3:] == [45] * 7
    assert ben_state["server_seed"] == seed
    cy_state = (await cy.get(f"/api/matches/{ids[cy]}")).json()
    assert cy_state["result"] == {"turn_scores": [45] * 10, "jackpots": 0, "total": 450}

    board = (await cy.get(f"/api/daily/{day}/jackpot")).json()
    assert board["closed"] is True and board["server_seed"] == seed
    assert board["finished"] == 4
    # The deal's dice go by position (as every deal made now): so does its par.
    par = daily_par(seed, day, "jackpot", by_position=True).result
    assert board["par"] == par.to_dict()
    by_number = daily_par(seed, day, "jackpot").result
    assert by_number.to_dict() == best_bot(seed, day, "jackpot").to_dict()
    results = [
        DailyResult(tuple(e["turn_scores"]), e["jackpots"], e["total"]) for e in board["entries"]
    ]
    assert [e["place"] for e in board["entries"]] == daily_places(results)
    keys = [(-r.jackpots, r.total) for r in results]
    assert keys == sorted(keys)
    # The day is over: every entry is linked, and its record verifies, par included.
    by_match = {e["match"]: e for e in board["entries"]}
    assert set(by_match) == set(ids.values())
    for client, mid in ids.items():
        record = (await client.get(f"/api/matches/{mid}/record")).json()
        assert record["server_seed"] == seed
        report = fair.verify(fair.parse_record(record))
        assert report.ok, report.problem
        assert report.daily is not None and report.daily.par == par
        assert record["result"]["total"] == by_match[mid]["total"]
    assert report.daily.ending in ("finished", "gave_up", "day_closed")
    # Places are kept on the entries, final.
    async with db.read() as conn:
        rows = await conn.execute(select(daily_entries.c.match_id, daily_entries.c.place))
        places = dict(rows.all())
    assert places == {e["match"]: e["place"] for e in board["entries"]}
    # The replay opens now that the seed is public; before, it waited.
    assert (await ana.get(f"/matches/{ids[ana]}/replay")).status_code == 200
    # And the entry's page and the player's pages say how it ended.
    you = board["you"]
    assert you["place"] == by_match[ids[cy]]["place"] and you["versus_par"]["standing"] in (
        "better",
        "level",
        "worse",
    )


async def test_the_seed_and_replay_wait_for_the_close(app, make_client, clock) -> None:  # type: ignore[no-untyped-def]
    ana = await player(make_client)
    day = await deals_made(ana)
    mid = await enter(ana)
    await play(ana, mid)
    assert (await ana.get(f"/matches/{mid}/replay")).status_code == 409
    assert (await ana.get(f"/api/matches/{mid}/record")).json()["server_seed"] is None
    clock(closes_at(day) - timedelta(seconds=1))
    assert (await ana.get(f"/api/matches/{mid}/record")).json()["server_seed"] is None
    clock(closes_at(day))
    await close_days(db_of(ana), closes_at(day))
    seed = await deal_seed(ana, day, "jackpot")
    assert (await ana.get(f"/api/matches/{mid}/record")).json()["server_seed"] == seed
    assert (await ana.get(f"/api/matches/{mid}")).json()["server_seed"] == seed


async def test_the_sweeper_ends_an_entry_at_midnight_too(app, make_client) -> None:  # type: ignore[no-untyped-def]
    """An entry has no clock per throw, but its day's close is its one time limit: the
    deadline sweeper ends it then as a throw whose time ran out, so no move can be
    made on it once the seed is out."""
    ana = await player(make_client)
    day = await deals_made(ana)
    mid = await enter(ana)
    await play(ana, mid, turns=1)
    db = db_of(ana)
    assert await sweep_once(db, closes_at(day) - timedelta(seconds=1)) == 0
    assert await sweep_once(db, closes_at(day)) == 1
    state = (await ana.get(f"/api/matches/{mid}")).json()
    assert state["status"] == "finished" and state["seats"][0]["out"] == "timeout"
    late = await ana.post(f"/api/matches/{mid}/throw", json={})
    assert late.status_code == 409 and late.json()["error"]["code"] == "match_over"
    # The close then finds nothing left to end, and fixes the board.
    assert await close_days(db, closes_at(day)) == 2
    board = (await ana.get(f"/api/daily/{day}/jackpot")).json()
    assert board["entries"][0]["place"] == 1 and board["entries"][0]["ending"] == "timeout"


@pytest.mark.pg
async def test_several_processes_close_a_day_once(app, make_client, settings, clock) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await player(make_client), await player(make_client)
    day = await deals_made(ana)
    a, b = await enter(ana), await enter(ben)
    await play(ana, a, turns=2)
    others = [Database(settings.database_url) for _ in range(2)]
    clock(closes_at(day))
    try:
        counts = await asyncio.gather(
            close_days(db_of(ana), closes_at(day)),
            *(close_days(db, closes_at(day)) for db in others),
        )
    finally:
        for db in others:
            await db.dispose()
    assert sum(counts) == 2
    for client, mid in ((ana, a), (ben, b)):
        record = (await client.get(f"/api/matches/{mid}/record")).json()
        outs = [e for e in record["events"] if e["type"] == "out"]
        assert outs == [{"type": "out", "seat": 0, "reason": "timeout"}]
        assert fair.verify(fair.parse_record(record)).ok


async def test_deals_are_made_a_day_ahead(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana = await make_client()
    db = db_of(ana)
    now = utcnow()
    today = await deals_made(ana, now)

    async def deals() -> dict[tuple[str, str], Any]:
        async with db.read() as conn:
            rows = (await conn.execute(select(daily_deals))).mappings().all()
        return {(r["day"], r["variant"]): dict(r) for r in rows}

    first_start = await deals()
    # A site started for the first time makes today's and tomorrow's at once, and the
    # day after's, whose commitment is out a whole day before it begins.
    variants = ("jackpot", "classic")
    assert set(first_start) == {(shift(today, k), v) for k in range(3) for v in variants}
    later = now + timedelta(days=1)
    assert await make_deals(db, later) == 2
    assert await make_deals(db, later) == 0
    after = await deals()
    for key, deal in first_start.items():
        assert after[key]["server_seed"] == deal["server_seed"]  # never made again
    for v in ("jackpot", "classic"):
        new = after[(shift(today, 3), v)]
        begins = closes_at(shift(today, 2))
        assert begins - new["created_at"] >= timedelta(hours=24)
        assert new["commitment"] == fair.commitment(new["server_seed"])
