"""The players: two seated accounts per table playing real matches the way the
match page does, over HTTP and SSE or over a WebSocket per seat.

A seat acts on its own answer while it keeps the turn (throw, then cover), and the
other seat acts only once its stream or socket has shown it the turn.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

from jackpot.bench.client import Connection, MatchSocket, SSEWatcher


@dataclass
class Stats:
    measuring: bool = False
    actions: int = 0
    refused: int = 0
    latencies: list[float] = field(default_factory=list)
    sse: list[float] = field(default_factory=list)
    sse_early: int = 0
    sse_missing: int = 0
    finished_matches: int = 0



def next_move(state: dict[str, Any]) -> tuple[int, str, dict[str, Any]] | None:
    """(seat, action, body) for whoever must move, or None once finished.

    The multi-process tests drive their matches with this too.
    """
    turn = state["turn"]
    if state["status"] != "playing" or turn is None:
        return None
    if turn["dice"] is None:
        return turn["seat"], "throw", {"dice": 2}
    return turn["seat"], "cover", {"tiles": turn["options"][0]}


Move = tuple[int, str, dict[str, Any]]
#: ``after_event``'s mark for a match that is over.
OVER: Move = (-1, "over", {})


def after_event(move: Move | None, ev: dict[str, Any]) -> Move | None:
    """The move due after ``ev``, given the one due before it (None: not known yet,
    as between a turn's end and the next one's start): what a socket client that
    follows the events knows without the whole state. People only, as the bench
    seats them: a bot's or autoplay's moves come as events like anyone's."""
    kind = ev["type"]
    if kind == "thrown":
        return (ev["seat"], "cover", {"tiles": ev["options"][0]}) if ev["options"] else None
    if kind in ("covered", "turn_started"):
        return ev["seat"], "throw", {"dice": 2}
    if kind in ("turn_ended", "seat_out"):
        return None
    if kind in ("match_ended", "cancelled"):
        return OVER
    return move


class Table:
    """Two seated players at one match: two API connections, two SSE streams."""

    def __init__(self, host: str, port: int, tokens: list[str], stats: Stats,
                 interval: float = 0.0, transport: str = "http") -> None:
        self.host = host
        self.port = port
        self.tokens = tokens
        self.stats = stats
        self.api = [Connection(host, port, {"Authorization": f"Bearer {t}"}) for t in tokens]
        #: "http": moves as POSTs, events over SSE; "ws": both on one socket per seat.
        self.transport = transport
        self.watchers: list[SSEWatcher] = []
        self.sockets: list[MatchSocket] = []
        # Indexed by player (0 made the match, 1 joined it), not by seat.
        self.seen = [0, 0]
        #: Over the socket: the move due after the last event each player saw.
        self.due: list[Move | None] = [None, None]
        self.acked: list[dict[int, float]] = [{}, {}]
        self.arrived = [asyncio.Event(), asyncio.Event()]
        #: The player in each seat: the order of play is drawn when player 1 joins.
        self.player_of = [0, 1]
        #: With ``--rate``: seconds between this table's actions (0: as fast as it can).
        self.interval = interval
        self.next_at = 0.0

    async def _pace(self) -> None:
        """Wait for this table's next slot. A table that fell behind (the server was
        slower than the offered rate) goes at once but does not burst to catch up."""
        if not self.interval:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        if not self.next_at:
            self.next_at = now + random.uniform(0, self.interval)  # spread the tables
        if self.next_at > now:
            await asyncio.sleep(self.next_at - now)
        self.next_at = max(self.next_at, loop.time() - self.interval) + self.interval

    async def new_match(self) -> dict[str, Any]:
        for w in self.watchers:
            await w.stop()
        for sock in self.sockets:
            await sock.close()
        state = await self.api[0].json("POST", "/api/matches", {
            "seats": 2, "bots": 0, "deadline_seconds": 3600}, expect=201)
        state = await self.api[1].json("POST", f"/api/matches/{state['id']}/join", {})
        joiner = next(i for i, seat in enumerate(state["seats"]) if seat["you"])
        self.player_of = [1, 0] if joiner == 0 else [0, 1]
        self.seen = [0, 0]
        self.due = [None, None]
        self.acked = [{}, {}]
        if self.transport == "ws":
            self.sockets = [
                MatchSocket(self.host, self.port, state["id"],
                            {"Authorization": f"Bearer {self.tokens[player]}"},
                            self._on_event(player))
                for player in (0, 1)
            ]
            await asyncio.wait_for(
                asyncio.gather(*(sock.connect() for sock in self.sockets)), timeout=30
            )
            return dict(state)
        self.watchers = [
            SSEWatcher(self.host, self.port, state["id"], self._on_event(player))
            for player in (0, 1)
        ]
        for w in self.watchers:
            w.start()
        await asyncio.wait_for(
            asyncio.gather(*(w.connected.wait() for w in self.watchers)), timeout=30
        )
        return dict(state)

    def _on_event(self, player: int) -> Any:
        def on_event(seq: int, when: float, ev: dict[str, Any] | None) -> None:
            self.seen[player] = max(self.seen[player], seq)
            if ev is not None:
                self.due[player] = after_event(self.due[player], ev)
            acked_at = self.acked[player].pop(seq, None)
            if acked_at is not None and self.stats.measuring:
                self.stats.sse.append(when - acked_at)
            self.arrived[player].set()

        return on_event

    async def _wait_seen(self, player: int, seq: int) -> bool:
        async def until() -> None:
            while self.seen[player] < seq:
                self.arrived[player].clear()
                await self.arrived[player].wait()

        try:
            await asyncio.wait_for(until(), timeout=10)
            return True
        except TimeoutError:
            return False

    async def play(self, stop: asyncio.Event, state: dict[str, Any]) -> None:
        """Play ``state``'s match, then the next, until ``stop``. Over HTTP each answer
        is the new state; over the socket the events say what is due next."""
        match_id = state["id"]
        move = next_move(state)
        while not stop.is_set():
            if move is None or move is OVER:
                self.stats.finished_matches += 1
                state = await self.new_match()
                match_id = state["id"]
                move = next_move(state)
                continue
            seat, action, body = move
            player = self.player_of[seat]
            await self._pace()
            t0 = time.perf_counter()
            if self.transport == "ws":
                reply = await self.sockets[player].move(action, body)
                ok = reply["type"] == "ack"
                seq = reply.get("seq", 0)
                # The socket has delivered every event up to the ack's seq.
                nxt = self.due[player]
            else:
                status, data = await self.api[player].request(
                    "POST", f"/api/matches/{match_id}/{action}", body)
                ok = status == 200
                if ok:
                    state = json.loads(data)
                    seq, nxt = state["seq"], next_move(state)
            t1 = time.perf_counter()
            if not ok:
                self.stats.refused += 1
                state = await self.api[player].json("GET", f"/api/matches/{match_id}")
                move = next_move(state)
                continue
            other = 1 - player
            if self.stats.measuring:
                self.stats.actions += 1
                self.stats.latencies.append(t1 - t0)
                if self.seen[other] >= seq:
                    self.stats.sse.append(0.0)
                    self.stats.sse_early += 1
                else:
                    self.acked[other][seq] = t1
            if nxt is None and self.transport == "ws":
                # Between turns (a throw with no cover ends one): the next begins
                # in the same action, so its events are here too; else ask.
                state = await self.api[player].json("GET", f"/api/matches/{match_id}")
                nxt = next_move(state)
            waits = nxt is not None and nxt is not OVER and self.player_of[nxt[0]] == other
            if waits and not await self._wait_seen(other, seq):
                self.stats.sse_missing += 1  # the other seat never saw its turn
            move = nxt

    async def close(self) -> None:
        for w in self.watchers:
            await w.stop()
        for sock in self.sockets:
            await sock.close()
        for c in self.api:
            await c.close()
