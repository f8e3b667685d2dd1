"""The live events, applied to the state a page loaded first, give exactly what a
fresh load gives, in Python (web/matches/live.py) and in the page's own JavaScript."""

from __future__ import annotations

import httpx
from daily_helpers import deals_made, enter, play, player
from live_helpers import apply_in_node, events_after, parse_sse
from web_helpers import bot_match, move, play_out, seated, sign_up

from jackpot.web.matches.live import apply_event


async def test_events_replay_a_people_match_from_before_the_start(make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben, cat, watcher = [await make_client() for _ in range(4)]
    for c, name in ((ana, "Ana"), (ben, "Ben"), (cat, "Cat")):
        await sign_up(c, name)
    created = (await ana.post("/api/matches", json={"seats": 4, "bots": 1})).json()
    mid = created["id"]
    first = (await watcher.get(f"/api/matches/{mid}")).json()
    await ben.post(f"/api/matches/{mid}/join", json={})
    state = (await cat.post(f"/api/matches/{mid}/join", json={})).json()
    # A few moves, then Ben resigns mid-match, then the rest play out.
    by_seat = await seated([ana, ben, cat], mid)
    for _ in range(6):
        if state["status"] == "finished":  # a jackpot may end it early
            break
        state = (await move(by_seat[state["turn"]["seat"]], state)).json()
    state = (await ben.post(f"/api/matches/{mid}/resign")).json()
    if state["status"] != "finished":
        await play_out([ana, cat], state)

    events = await events_after(watcher, mid, first["seq"])
    assert [e["seq"] for e in events] == list(range(first["seq"] + 1, events[-1]["seq"] + 1))
    assert events[-1]["type"] == "match_ended"
    fresh = (await watcher.get(f"/api/matches/{mid}")).json()
    applied = first
    for ev in events:
        applied = apply_event(applied, ev)
    assert applied == fresh
    assert apply_in_node(first, events) == fresh


async def test_the_one_who_leaves_sees_what_a_fresh_load_shows(make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    mid = (await ana.post("/api/matches", json={"seats": 3, "bots": 0})).json()["id"]
    seated_view = (await ben.post(f"/api/matches/{mid}/join", json={})).json()
    assert [s["you"] for s in seated_view["seats"]] == [False, True, False]
    assert (await ben.post(f"/api/matches/{mid}/resign")).status_code == 200
    # Ana calls it off, so that the event stream ends (an open match's never does).
    assert (await ana.post(f"/api/matches/{mid}/resign")).status_code == 200
    events = await events_after(ben, mid, seated_view["seq"])
    assert [e["type"] for e in events] == ["left", "cancelled"]
    fresh = (await ben.get(f"/api/matches/{mid}")).json()
    assert not any(s["you"] for s in fresh["seats"])
    applied = seated_view
    for ev in events:
        applied = apply_event(applied, ev)
    assert applied == fresh
    assert apply_in_node(seated_view, events) == fresh


async def test_events_resume_mid_match_and_match_a_fresh_load(client: httpx.AsyncClient) -> None:
    # A match a bot ended at once would leave no middle to resume from.
    state = await bot_match(client, "classic")
    state = (await move(client, state)).json()
    loaded = (await client.get(f"/api/matches/{state['id']}")).json()
    final = await play_out({0: client}, state)
    events = await events_after(client, state["id"], loaded["seq"])
    applied = loaded
    for ev in events:
        applied = apply_event(applied, ev)
    assert applied == (await client.get(f"/api/matches/{state['id']}")).json()
    assert applied["server_seed"] == final["server_seed"]
    assert apply_in_node(loaded, events) == applied


async def test_a_client_with_every_event_is_told_to_stop(client: httpx.AsyncClient) -> None:
    state = (await client.post("/api/matches", json={"seats": 1, "bots": 0})).json()
    r = await client.post(f"/api/matches/{state['id']}/resign")
    seq = r.json()["seq"]
    r = await client.get(f"/api/matches/{state['id']}/events", headers={"Last-Event-ID": str(seq)})
    assert r.status_code == 204
    r = await client.get(f"/api/matches/{state['id']}/events?last_event_id=junk")
    assert r.status_code == 200 and parse_sse(r.text)[0]["seq"] == 1


async def test_a_daily_entry_s_turn_and_jackpots_follow_the_events(make_client) -> None:  # type: ignore[no-untyped-def]
    """A daily entry's state says its turn and jackpots so far: the live events keep
    them, in Python and in the page's script, as a fresh load has them."""
    ana = await player(make_client)
    await deals_made(ana)
    mid = await enter(ana, "classic")
    first = (await ana.get(f"/api/matches/{mid}")).json()
    assert first["daily"]["turn"] == 1
    await play(ana, mid, turns=4)
    middle = (await ana.get(f"/api/matches/{mid}")).json()
    assert middle["daily"]["turn"] == 5
    final = await play(ana, mid)
    events = await events_after(ana, mid, first["seq"])
    assert events[-1]["type"] == "match_ended"
    applied = first
    for ev in events:
        applied = apply_event(applied, ev)
    assert applied == final == (await ana.get(f"/api/matches/{mid}")).json()
    assert applied["daily"]["jackpots"] == final["result"]["jackpots"]
    assert apply_in_node(first, events) == applied
