"""Each process's hub of open player streams, and the watcher that pokes them.

A player's stream (stream.py) subscribes to the bus channel ``user:<id>``. The hub
watches every match's events as the bus hands them over (published after commit,
so this is after commit too; over Redis every process sees every match) and, for
the events that can change whose throw it is, pokes the channels of the match's
players that have a stream open in this process. News with no match event (a
rematch offer) pokes the channels itself (listeners.py), through the bus so it
reaches every process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter, OrderedDict
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from jackpot.web.base.live.bus import EventBus, Subscription
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables import core as t

log = logging.getLogger("jackpot.user_stream")

PREFIX = "user:"
#: Match events after which someone's throw may have come or gone.
RELEVANT = {"deadline", "started", "match_ended", "cancelled"}
#: Events after which a match's players may have changed.
SEATING = {"joined", "left"}
POKE: dict[str, Any] = {"type": "poke"}
#: Matches whose players the hub remembers.
CACHE = 4096
#: After a failed read of the players, the wait before trying the same matches again.
RETRY_SECONDS = 1.0


def channel(user_id: int) -> str:
    return f"{PREFIX}{user_id}"


class UserHub:
    """This process's open user streams, and the watcher that pokes them."""

    def __init__(self, bus: EventBus) -> None:
        self.bus = bus
        self.db: Database | None = None
        self.open: Counter[int] = Counter()
        self.dirty: set[str] = set()
        self.wake = asyncio.Event()
        self.players: OrderedDict[str, tuple[int, ...]] = OrderedDict()
        #: Matches whose seats changed while their players were being read: what was
        #: read may be from before the change, so it is used once and not kept.
        self.reseated: set[str] = set()
        self.task: asyncio.Task[None] | None = None

    def start(self, db: Database) -> None:
        self.db = db
        self.task = asyncio.create_task(self._run())

    async def aclose(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    def subscribe(self, user_id: int) -> Subscription:
        if not self.open:
            # Watch the matches only while someone here listens: over Redis that
            # costs decoding every match's events.
            self.bus.listeners.append(self.on_events)
        self.open[user_id] += 1
        return self.bus.subscribe(channel(user_id))

    def unsubscribe(self, sub: Subscription, user_id: int) -> None:
        sub.close()
        self.open[user_id] -= 1
        if self.open[user_id] <= 0:
            del self.open[user_id]
        if not self.open and self.on_events in self.bus.listeners:
            self.bus.listeners.remove(self.on_events)

    def on_events(self, match_id: str, events: Sequence[dict[str, Any]]) -> None:
        """Called by the bus for every channel's events: must be quick."""
        if match_id.startswith(PREFIX):
            return
        kinds = {ev.get("type") for ev in events}
        if kinds & SEATING:
            self.players.pop(match_id, None)
            self.reseated.add(match_id)
        if kinds & (RELEVANT | SEATING):
            self.dirty.add(match_id)
            self.wake.set()

    async def _players(self, match_ids: set[str]) -> dict[str, tuple[int, ...]]:
        found = {m: self.players[m] for m in match_ids if m in self.players}
        missing = match_ids - found.keys()
        if missing and self.db is not None:
            self.reseated -= missing
            async with self.db.read() as conn:
                rows = await conn.execute(
                    select(t.seats.c.match_id, t.seats.c.user_id).where(
                        t.seats.c.match_id.in_(sorted(missing)), t.seats.c.user_id.is_not(None)
                    )
                )
                seated: dict[str, list[int]] = {m: [] for m in missing}
                for r in rows:
                    seated[r.match_id].append(int(r.user_id))
            for m, users in seated.items():
                found[m] = tuple(users)
                if m not in self.reseated:
                    self.players[m] = found[m]
            while len(self.players) > CACHE:
                self.players.popitem(last=False)
        return found

    async def _run(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            batch, self.dirty = self.dirty, set()
            try:
                players = await self._players(batch)
                for user_id in {u for users in players.values() for u in users}:
                    if user_id in self.open:
                        self.bus.deliver_local(channel(user_id), [POKE])
            except Exception:  # the streams stay open: the same matches again shortly
                log.exception("could not find the players of %d matches", len(batch))
                self.dirty |= batch
                await asyncio.sleep(RETRY_SECONDS)
                self.wake.set()
