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
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

#: Marker put on a subscriber's queue when it must stop (overflow or shutdown).
CLOSED: dict[str, Any] = {"type": "__closed__"}



def is_closed(ev: dict[str, Any]) -> bool:
    """The stop marker, whether put here or decoded from another process's bus."""
    return ev is CLOSED or ev.get("type") == CLOSED["type"]


async def bursts(
    queue: asyncio.Queue[dict[str, Any]], keepalive: float
) -> AsyncIterator[list[dict[str, Any]] | None]:
    """A stream's queue a burst at a time: everything already queued comes together
    (one write or one look for an action's events, several pings), and None after
    ``keepalive`` quiet seconds, when the stream should say it is still there."""
    while True:
        try:
            async with asyncio.timeout(keepalive):
                first = await queue.get()
        except TimeoutError:
            yield None
            continue
        burst = [first]
        while not queue.empty():
            burst.append(queue.get_nowait())
        yield burst


#: Called with every channel's events as this process receives them (after commit).
Listener = Callable[[str, Sequence[dict[str, Any]]], None]


class Subscription:
    def __init__(self, bus: EventBus, match_id: str, maxsize: int) -> None:
        self.bus = bus
        self.match_id = match_id
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=maxsize)
        #: Between ``hold`` and ``release``: the events delivered meanwhile.
        self.held: list[dict[str, Any]] | None = None

    def hold(self) -> None:
        """Keep the events delivered from now on aside, without waking whoever waits
        on the queue: a match socket answering its own move sends them with the
        answer (socket_moves.py), and its forwarding task would only wake to find
        them taken. The queue's bound still applies."""
        self.held = []

    def release(self) -> list[dict[str, Any]]:
        """The events held since ``hold``, in order; deliveries go to the queue again."""
        held, self.held = self.held or [], None
        return held

    def close(self) -> None:
        self.bus._remove(self)


class EventBus:
    #: Every process's events reach this one's listeners (not so in-process: a
    #: `jackpot sweep` or a second worker publishes where nobody here hears it).
    sees_every_process = False

    def __init__(self, queue_size: int = 1000) -> None:
        self._subs: dict[str, set[Subscription]] = defaultdict(set)
        self._queue_size = queue_size
        #: Watchers of every match's events (user_stream.UserHub); each must be quick.
        self.listeners: list[Listener] = []
        #: Called when events may have gone by unseen (a broken Redis subscription).
        self.gap_listeners: list[Callable[[], None]] = []

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
        self.post(match_id, events)

    def post(self, channel: str, events: Sequence[dict[str, Any]]) -> None:
        """``publish`` for code that cannot await (a transaction's end): nothing in
        it waits, here or on the Redis bus, which sends with the tick's message."""
        self._deliver(channel, events)

    def deliver_local(self, channel: str, events: Sequence[dict[str, Any]]) -> None:
        """Hand events to this process's subscribers only (no other process)."""
        self._deliver(channel, events)

    def _deliver(self, match_id: str, events: Sequence[dict[str, Any]]) -> None:
        for listener in self.listeners:
            listener(match_id, events)
        for sub in list(self._subs.get(match_id, ())):
            held = sub.held
            if held is not None:
                held.extend(events)
                if len(held) + sub.queue.qsize() > self._queue_size:
                    sub.held = None
                    self._end(sub)
                continue
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

