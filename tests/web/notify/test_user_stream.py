"""The player's own live stream (/api/my/events): what it says, when it says it,
and its cap. In-process for the hub's pokes, on a real server for the stream."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
from test_notify import DAY, play_turn, player, start_match

from jackpot.web.base.live.stream_caps import StreamCaps
from jackpot.web.notify.stream import snapshot
from jackpot.web.notify.user_hub import POKE, UserHub


async def test_a_move_pokes_the_players_streams_after_commit(app, make_client) -> None:  # type: ignore[no-untyped-def]
    hub = app.state.user_hub
    ana, ben, cal = [await player(make_client) for _ in range(3)]
    state = await start_match(ana, ben)
    before = app.state.bus.subscriber_count
    bens = hub.subscribe(ben.id)
    cals = hub.subscribe(cal.id)
    try:
        assert json.loads(await snapshot(app.state.db, ben.id)) == {"matches": [], "offers": []}
        state = await play_turn(ana, state)  # Ben's throw now
        assert await asyncio.wait_for(bens.queue.get(), timeout=10) == POKE
        picture = json.loads(await snapshot(app.state.db, ben.id))
        assert [m["id"] for m in picture["matches"]] == [state["id"]]
        assert picture["matches"][0]["due_at"] == state["turn"]["due_at"]
        # Cal plays nowhere here: his stream hears nothing.
        assert cals.queue.empty()
    finally:
        hub.unsubscribe(bens, ben.id)
        hub.unsubscribe(cals, cal.id)
    # With no stream left open, the hub stops watching the bus.
    assert hub.on_events not in app.state.bus.listeners
    assert app.state.bus.subscriber_count == before


class SlowReads:
    """The app's database, but a read's rows are handed over only when ``gate``
    opens: the query itself runs at once (``read_done``), so what it returns is
    the table as it was then, whatever was committed meanwhile."""

    def __init__(self, db: Any) -> None:
        self.db = db
        self.read_done = asyncio.Event()
        self.gate = asyncio.Event()

    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[Any]:
        async with self.db.read() as conn:
            yield self.Conn(conn, self)

    class Conn:
        def __init__(self, conn: Any, slow: SlowReads) -> None:
            self.conn, self.slow = conn, slow

        async def execute(self, *args: Any) -> list[Any]:
            rows = list(await self.conn.execute(*args))
            self.slow.read_done.set()
            await self.slow.gate.wait()
            return rows


async def test_seats_read_before_a_join_are_not_kept(app, make_client) -> None:  # type: ignore[no-untyped-def]
    """A join that commits while the hub is reading the match's seats: the hub must
    not keep the old seats, or the new player's stream would never hear of it."""
    ana, ben = await player(make_client), await player(make_client)
    state = (
        await ana.client.post("/api/matches", json={"seats": 2, "bots": 0, "deadline_seconds": DAY})
    ).json()
    slow = SlowReads(app.state.db)
    hub = UserHub(app.state.bus)
    hub.start(slow)  # type: ignore[arg-type]
    bens = hub.subscribe(ben.id)
    try:
        hub.on_events(state["id"], [{"type": "joined"}])  # Ana's seat, news to the hub
        await asyncio.wait_for(slow.read_done.wait(), timeout=10)  # seats read: Ana only
        r = await ben.client.post(f"/api/matches/{state['id']}/join", json={})
        assert r.status_code == 200, r.text
        slow.gate.set()  # the read from before Ben's join comes back
        assert await asyncio.wait_for(bens.queue.get(), timeout=10) == POKE
    finally:
        hub.unsubscribe(bens, ben.id)
        await hub.aclose()


class FailsOnce:
    """The app's database, whose first read fails (a lost connection, say)."""

    def __init__(self, db: Any) -> None:
        self.db, self.failed = db, False

    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[Any]:
        if not self.failed:
            self.failed = True
            raise ConnectionError("the database went away for a moment")
        async with self.db.read() as conn:
            yield conn


async def test_a_failed_read_of_the_seats_is_tried_again(app, make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await player(make_client), await player(make_client)
    state = await start_match(ana, ben)
    flaky = FailsOnce(app.state.db)
    hub = UserHub(app.state.bus)
    hub.start(flaky)  # type: ignore[arg-type]
    bens = hub.subscribe(ben.id)
    try:
        hub.on_events(state["id"], [{"type": "deadline"}])
        assert await asyncio.wait_for(bens.queue.get(), timeout=10) == POKE
        assert flaky.failed
    finally:
        hub.unsubscribe(bens, ben.id)
        await hub.aclose()


async def test_the_stream_needs_an_account_and_has_a_cap(app, make_client, settings) -> None:  # type: ignore[no-untyped-def]
    guest = await make_client()
    assert (await guest.get("/api/my/events")).status_code == 401
    ana = await player(make_client)
    hub = app.state.user_hub
    subs = [hub.subscribe(ana.id) for _ in range(settings.user_streams_per_account)]
    try:
        r = await ana.client.get("/api/my/events")
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_streams"
    finally:
        for s in subs:
            hub.unsubscribe(s, ana.id)


async def test_the_stream_has_the_match_streams_caps(app, make_client) -> None:  # type: ignore[no-untyped-def]
    """Per client address and in all, as a match's stream (base/live/stream_caps.py); a
    refused stream holds no place anywhere."""
    ana = await player(make_client)
    kept = app.state.stream_caps
    try:
        app.state.stream_caps = StreamCaps(per_address=0, total=100)
        r = await ana.client.get("/api/my/events")
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_streams"
        assert "address" in r.json()["error"]["message"]
        app.state.stream_caps = StreamCaps(per_address=32, total=0)
        r = await ana.client.get("/api/my/events")
        assert r.status_code == 503 and r.json()["error"]["code"] == "busy"
        assert app.state.stream_caps.open == 0
    finally:
        app.state.stream_caps = kept
    assert ana.id not in app.state.user_hub.open


def account(url: str, name: str) -> httpx.Client:
    c = httpx.Client(base_url=url, timeout=30)
    r = c.post(
        "/api/account",
        json={"email": f"{name}@example.org", "password": "correct horse battery", "name": name},
    )
    assert r.status_code == 201, r.text
    # Every move pressed here: autoplay could play a whole turn, leaving no wait to see.
    r = c.put("/api/account/autoplay", json={"throws": False, "single_covers": False})
    assert r.status_code == 200, r.text
    return c


def read_pictures(
    client: httpx.Client,
    until: Callable[[dict[str, Any]], bool],
    out: list[dict[str, Any]],
    ready: threading.Event,
    stop: threading.Event | None = None,
) -> None:
    """Every picture the stream sends, until one that ``until`` accepts (or ``stop``
    is set: the keep-alive lines wake the loop twice a second on the test server)."""
    with client.stream("GET", "/api/my/events") as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        event = None
        for line in r.iter_lines():
            if stop is not None and stop.is_set():
                return
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "waiting":
                out.append(json.loads(line[6:]))
                ready.set()
                if until(out[-1]):
                    return


def watch(
    client: httpx.Client, until: Callable[[dict[str, Any]], bool]
) -> tuple[threading.Thread, list[dict[str, Any]], threading.Event]:
    got: list[dict[str, Any]] = []
    ready, stop = threading.Event(), threading.Event()
    reader = threading.Thread(target=read_pictures, args=(client, until, got, ready, stop))
    reader.start()
    assert ready.wait(30)
    return reader, got, stop


def play_seat(client: httpx.Client, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Play ``seat``'s turn to its end."""
    mid = state["id"]
    for _ in range(50):
        if state["status"] != "playing" or state["turn"]["seat"] != seat:
            return state
        turn = state["turn"]
        if turn["dice"] is None:
            r = client.post(f"/api/matches/{mid}/throw", json={})
        else:
            r = client.post(f"/api/matches/{mid}/cover", json={"tiles": turn["options"][-1]})
        assert r.status_code == 200, r.text
        state = r.json()
    raise AssertionError("the turn did not end")


def test_the_stream_tells_whose_throw_and_rematch_offers(live_server) -> None:  # type: ignore[no-untyped-def]
    url = live_server.url
    tag = secrets.token_hex(3)
    ana, ben = account(url, f"us_a{tag}"), account(url, f"us_b{tag}")
    # Ben joins; the order of play is drawn then. Whoever throws first plays a turn
    # while the other's stream is open: then the match waits for the other. (Should
    # the first shut the box, the match is over with no wait: another match then.)
    for _ in range(10):
        state = ana.post(
            "/api/matches",
            json={"seats": 2, "bots": 0, "variant": "classic", "deadline_seconds": DAY},
        ).json()
        mid = state["id"]
        state = ben.post(f"/api/matches/{mid}/join", json={}).json()
        ben_seat = next(i for i, seat in enumerate(state["seats"]) if seat["you"])
        first_seat = state["turn"]["seat"]
        (first, first_name), (second, _) = sorted(
            [(ana, f"us_a{tag}"), (ben, f"us_b{tag}")],
            key=lambda who: (who[0] is ben) != (ben_seat == first_seat),
        )
        reader, got, stop = watch(second, lambda p: bool(p["matches"]))
        assert got[0] == {"matches": [], "offers": []}  # a fresh load: nothing waits
        state = play_seat(first, state, first_seat)
        if state["status"] == "playing":
            break
        stop.set()
        reader.join(30)
    else:
        raise AssertionError("the first to throw shut the box ten times")
    reader.join(30)
    assert not reader.is_alive()
    [waiting] = got[-1]["matches"]
    assert waiting["id"] == mid and waiting["due_at"] == state["turn"]["due_at"]
    # What the stream said is what a fresh stream says now.
    fresh: list[dict[str, Any]] = []
    read_pictures(second, lambda p: True, fresh, threading.Event())
    assert fresh == [got[-1]]

    # The second plays: the match (one round of Classic) ends, nothing waits for them.
    reader, got, _ = watch(second, lambda p: bool(p["offers"]))
    state = play_seat(second, state, 1 - first_seat)
    assert state["status"] == "finished"
    # The first offers a rematch: the second's stream says so, without any match event.
    r = first.post(f"/api/matches/{mid}/rematch", json={})
    assert r.status_code == 200, r.text
    reader.join(30)
    assert not reader.is_alive()
    assert got[-1]["matches"] == []
    [offer] = got[-1]["offers"]
    assert offer["id"] == mid and offer["by"] == first_name and offer["variant"] == "classic"
    # The second accepts: the offer is gone from their stream.
    reader, got, _ = watch(second, lambda p: not p["offers"])
    assert second.post(f"/api/matches/{mid}/rematch", json={}).status_code == 200
    reader.join(30)
    assert not reader.is_alive() and got[-1]["offers"] == []
    # (The rematch's order is drawn again: it may wait for the second already.)
    assert all(m["id"] != mid for m in got[-1]["matches"])
