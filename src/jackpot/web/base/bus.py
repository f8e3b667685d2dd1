"""The in-process live-event bus: moves publish after commit, streams subscribe.

In-process by default. Each subscriber gets its own bounded queue; a subscriber too
slow to keep up is dropped (its stream ends) rather than slowing the actions down,
and the browser's EventSource reconnects with ``Last-Event-ID`` and catches up from
the database, so nothing is lost. With ``JACKPOT_REDIS_URL`` set, several processes
share one bus over Redis instead (bus_redis.py, whose ``make_bus`` picks one).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

#: Marker put on a subscriber's queue when it must stop (overflow or shutdown).
CLOSED: dict[str, Any] = {"type": "__closed__"}


class Subscription:
    def __init__(self, bus: EventBus, match_id: str, maxsize: int) -> None:
        self.bus = bus
        self.match_id = match_id
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=maxsize)

    def close(self) -> None:
        self.bus._remove(self)


class EventBus:
    def __init__(self, queue_size: int = 1000) -> None:
        self._subs: dict[str, set[Subscription]] = defaultdict(set)
        self._queue_size = queue_size

    def subscribe(self, match_id: str) -> Subscription:
        sub = Subscription(self, match_id, self._queue_size)
        self._subs[match_id].add(sub)
        return sub

    def _remove(self, sub: Subscription) -> None:
        subs = self._subs.get(sub.match_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[sub.match_id]

    async def start(self) -> None:
        """Nothing to connect in-process (the Redis bus subscribes here)."""

    async def aclose(self) -> None:
        """Nothing to disconnect in-process."""

    async def publish(self, match_id: str, events: Sequence[dict[str, Any]]) -> None:
        self._deliver(match_id, events)

    def _deliver(self, match_id: str, events: Sequence[dict[str, Any]]) -> None:
        for sub in list(self._subs.get(match_id, ())):
            for ev in events:
                try:
                    sub.queue.put_nowait(ev)
                except asyncio.QueueFull:
                    self._end(sub)
                    break

    def close_all(self) -> None:
        """End every open stream (server shutdown), so uvicorn need not wait for them."""
        for subs in list(self._subs.values()):
            for sub in list(subs):
                self._end(sub)

    def _end(self, sub: Subscription) -> None:
        self._remove(sub)
        while not sub.queue.empty():
            sub.queue.get_nowait()
        sub.queue.put_nowait(CLOSED)

    @property
    def subscriber_count(self) -> int:
        return sum(len(s) for s in self._subs.values())

