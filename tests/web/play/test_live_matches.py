"""The live matches kept in the process (live_matches.LiveMatches): a move reuses the
state the previous one committed, and never a state the database no longer has."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from sqlalchemy import update
from web_helpers import move, sign_up

from jackpot.engine import Match, Variant
from jackpot.web.base.errors import ApiError
from jackpot.web.base.identity import Actor
from jackpot.web.base.live.bus import EventBus
from jackpot.web.base.tables import core as t
from jackpot.web.play import actions
from jackpot.web.play.moves import CoverBody, ThrowBody, play_move
from jackpot.web.play.outcome import Outcome
from jackpot.web.play.storage.live_matches import LiveMatches, follow, live_matches_of


def _live(app: Any) -> LiveMatches:
    return live_matches_of(app.state.db.writer.sync_engine)


async def _bot_match(client: httpx.AsyncClient) -> dict[str, Any]:
    r = await client.post("/api/matches", json={"seats": 2, "bots": 1})
    assert r.status_code == 201, r.text
    return dict(r.json())


async def test_a_move_reuses_the_committed_state(app: Any, client: httpx.AsyncClient) -> None:
    await sign_up(client, "Ada")
    state = await _bot_match(client)
    mid = state["id"]
    for _ in range(6):
        r = await move(client, state)
        assert r.status_code == 200, r.text
        state = r.json()
        if state["status"] == "finished":
            assert mid not in _live(app).entries
            return
        version, row, _seats, _m, _quiet = _live(app).entries[mid]
        assert version == state["seq"] == row["version"]
        # Whatever the cache held, the answer is what a fresh load shows.
        assert state == (await client.get(f"/api/matches/{mid}")).json()


async def test_a_version_moved_elsewhere_is_reloaded(app: Any, client: httpx.AsyncClient) -> None:
    me = await sign_up(client, "Bea")
    state = await _bot_match(client)
    mid = state["id"]
    r = await move(client, state)
    assert r.status_code == 200, r.text
    state = r.json()
    assert mid in _live(app).entries
    # Another process moved the match on: here, its version changes behind the
    # cache's back, with a state the cache does not have (the throw undone).
    db = app.state.db
    entry = _live(app).entries[mid]
    async with db.write() as conn:
        await conn.execute(
            update(t.matches).where(t.matches.c.id == mid).values(version=entry[0] + 100)
        )
    assert _live(app).entries == {}  # any Core UPDATE of matches clears it
    _live(app).entries[mid] = entry  # as if it had been kept: the version check must catch it
    actor = Actor(me["id"], me["name"], False)
    turn = state["turn"]
    body = ThrowBody() if turn["dice"] is None else CoverBody(tiles=turn["options"][-1])
    after = await play_move(db, actor, mid, body)
    assert after["seq"] > entry[0] + 100
    assert after == (await client.get(f"/api/matches/{mid}")).json()


async def test_a_change_to_one_match_forgets_that_match_only(
    app: Any, client: httpx.AsyncClient
) -> None:
    """A match starting elsewhere (a Core UPDATE of its row and seats) must not make
    every live match load again; a change that names no one match forgets them all."""
    await sign_up(client, "Dot")
    kept = []
    for _ in range(2):
        state = await _bot_match(client)
        r = await move(client, state)
        assert r.status_code == 200, r.text
        if r.json()["status"] == "playing":
            kept.append(state["id"])
    live = _live(app)
    assert set(kept) <= set(live.entries) and kept
    other = await _bot_match(client)  # its seats taken and its row started through Core
    assert set(kept) <= set(live.entries)
    async with app.state.db.write() as conn:
        await conn.execute(
            update(t.matches).where(t.matches.c.id == kept[0]).values(private=False)
        )
    assert kept[0] not in live.entries and set(kept[1:]) <= set(live.entries)
    async with app.state.db.write() as conn:
        await conn.execute(
            update(t.seats).where(t.seats.c.match_id.in_([other["id"]])).values(acted=True)
        )
    assert live.entries == {}


async def test_a_rolled_back_move_is_not_kept(app: Any, client: httpx.AsyncClient) -> None:
    await sign_up(client, "Cy")
    state = await _bot_match(client)
    mid = state["id"]
    db = app.state.db

    class Boom(Exception):
        pass

    actor_state = (await client.get("/api/account")).json()
    actor = Actor(actor_state["id"], actor_state["name"], False)
    try:
        async with db.write() as conn:
            await actions.play(conn, actor, mid, actions.throw_step(actor, None), None)
            raise Boom
    except Boom:
        pass
    kept = _live(app).entries.get(mid)
    assert kept is None or kept[0] == state["seq"]  # the committed start, not the throw
    assert (await client.get(f"/api/matches/{mid}")).json()["seq"] == state["seq"]


async def test_a_trusted_stale_entry_is_caught_by_the_save(
    app: Any, client: httpx.AsyncClient
) -> None:
    """With the Redis bus an entry is used without reading the version; one that is
    stale anyway (a move racing the other process's event) makes the save's
    conditional UPDATE match nothing, and the move runs again on a fresh load."""
    me = await sign_up(client, "Dee")
    state = await _bot_match(client)
    mid = state["id"]
    state = (await move(client, state)).json()
    db = app.state.db
    entry = _live(app).entries[mid]
    async with db.write() as conn:
        await conn.execute(
            update(t.matches).where(t.matches.c.id == mid).values(version=entry[0] + 100)
        )
    _live(app).entries[mid] = entry
    _live(app).trusted = True
    try:
        actor = Actor(me["id"], me["name"], False)
        turn = state["turn"]
        body = ThrowBody() if turn["dice"] is None else CoverBody(tiles=turn["options"][-1])
        after = await play_move(db, actor, mid, body)
    finally:
        _live(app).trusted = False
    assert after["seq"] > entry[0] + 100
    assert after == (await client.get(f"/api/matches/{mid}")).json()
    # The record holds each throw once: the stale attempt left nothing behind.
    record = (await client.get(f"/api/matches/{mid}/record")).json()
    throws = [e["n"] for e in record["events"] if e["type"] == "throw"]
    assert throws == list(range(len(throws)))


def test_events_of_a_later_version_outdate_an_entry() -> None:
    """``follow``: trusted only on a bus that hears every process, or alone; an event past an
    entry's version drops it, one at or before it (this process's own, late) keeps
    it, and a gap in the subscription drops them all."""
    live = LiveMatches()
    in_process = EventBus()
    follow(live, in_process)
    assert live.trusted is False and in_process.listeners == in_process.gap_listeners == []
    # The only server process: nobody else moves but a sweeper (its timeouts a save catches).
    alone = LiveMatches()
    follow(alone, EventBus(), alone=True)
    assert alone.trusted is True

    class EveryProcess(EventBus):
        sees_every_process = True

    bus = EveryProcess()
    follow(live, bus)
    assert live.trusted is True
    row: dict[str, Any] = {"id": "m_1", "version": 7}
    match = Match.new(Variant.JACKPOT, 2)
    live.put(row, [], match, frozenset())
    live.put({"id": "m_2", "version": 3}, [], match, frozenset())
    bus.deliver_local("m_1", [{"type": "thrown", "seq": 6}, {"type": "deadline", "seq": 7}])
    assert "m_1" in live.entries
    bus.deliver_local("m_1", [{"type": "covered", "seq": 8}])
    assert "m_1" not in live.entries and "m_2" in live.entries
    for gap in bus.gap_listeners:
        gap()
    assert live.entries == {}


async def _ada_at_her_throw(app: Any, client: httpx.AsyncClient) -> tuple[Actor, str]:
    """Ada against a bot, her first throw due (Classic: any two dice have a cover
    then), the match kept by this (lone) process."""
    me = await sign_up(client, "Ada")
    for _ in range(5):  # a bot that throws first may shut the box at once: rare
        r = await client.post("/api/matches", json={"seats": 2, "bots": 1, "variant": "classic"})
        assert r.status_code == 201, r.text
        state = r.json()
        if state["status"] == "playing":
            break
    # Bots answer at once: the turn waiting is hers, and at the start it is a throw.
    assert state["status"] == "playing" and state["turn"]["dice"] is None
    assert state["id"] in _live(app).entries and _live(app).trusted
    return Actor(me["id"], me["name"], False), state["id"]


async def test_a_move_worked_out_before_its_transaction_is_saved(
    app: Any, client: httpx.AsyncClient
) -> None:
    """A throw is worked out from the kept match before the write transaction, which
    then only saves it: the answer is the prepared move's, and a fresh load agrees."""
    actor, mid = await _ada_at_her_throw(app, client)
    db = app.state.db
    step = actions.throw_step(actor, 2)
    prepared = actions.prepare(db, actor, mid, step)
    assert prepared is not None
    out = await db.moves.run(lambda conn: actions.play(conn, actor, mid, step, prepared))
    assert out.match is prepared.plan.match  # saved as worked out, not worked out again
    fresh = (await client.get(f"/api/matches/{mid}")).json()
    assert fresh["seq"] == out.row["version"] == prepared.entry[0] + len(out.events)
    assert _live(app).entries[mid][0] == fresh["seq"]


async def test_a_move_prepared_from_an_outdated_match_is_worked_out_again(
    app: Any, client: httpx.AsyncClient
) -> None:
    """The same throw twice, both prepared before either is saved: the second was
    worked out from the match before the first, so it is not saved as it was; worked
    out again on the match as it is, it is refused (the dice are already thrown), and
    the record holds the throw once."""
    actor, mid = await _ada_at_her_throw(app, client)
    db = app.state.db
    step = actions.throw_step(actor, 2)
    first = actions.prepare(db, actor, mid, step)
    second = actions.prepare(db, actor, mid, step)
    assert first is not None and second is not None
    await db.moves.run(lambda conn: actions.play(conn, actor, mid, step, first))
    refused = None
    try:
        await db.moves.run(lambda conn: actions.play(conn, actor, mid, step, second))
    except ApiError as exc:
        refused = exc
    assert refused is not None and refused.code == "wrong_phase"
    record = (await client.get(f"/api/matches/{mid}/record")).json()
    throws = [e["n"] for e in record["events"] if e["type"] == "throw"]
    assert throws == list(range(len(throws)))
    fresh = (await client.get(f"/api/matches/{mid}")).json()
    assert fresh["seq"] == first.plan.new_row["version"] and fresh["turn"]["dice"] is not None


@pytest.mark.pg
async def test_moves_prepared_together_on_one_match_share_a_batch(
    app: Any, client: httpx.AsyncClient
) -> None:
    """Two moves of one match in one group-committed transaction, both prepared from
    the same kept state: the first is saved as prepared, the second is worked out
    again in the transaction (seeing the first), and is refused there alone."""
    actor, mid = await _ada_at_her_throw(app, client)
    db = app.state.db
    step = actions.throw_step(actor, 2)
    prepared = [actions.prepare(db, actor, mid, step) for _ in range(2)]
    results = await asyncio.gather(
        *(db.moves.run(lambda conn, p=p: actions.play(conn, actor, mid, step, p))
          for p in prepared),
        return_exceptions=True,
    )
    assert isinstance(results[0], Outcome) and isinstance(results[1], ApiError)
    assert results[1].code == "wrong_phase"
    fresh = (await client.get(f"/api/matches/{mid}")).json()
    assert fresh["seq"] == results[0].row["version"]
