"""The live-event bus over Redis pub/sub for several processes, and make_bus.

Same interface as :class:`jackpot.web.base.live.bus.EventBus`, and the same local
subscribers with their bounded queues; only ``publish`` differs: it hands the
events to this process's subscribers at once, and sends them to Redis, from where
every other process receives them on one channel and hands them to its own. So a
spectator connected to process B sees a move made through process A.

One message per loop tick, not one per move: the moves a group commit acknowledges
together publish in the same tick, and one PUBLISH carries all their events, tagged
with the sending process so that it skips its own message unread. Under load that
was a sixth of each process's time as a PUBLISH round trip and a message to parse
per move in every process (docs/benchmarks.md). ``publish`` does not wait for
Redis: the events are committed, and delivered here, before it is called.

Why one channel for every match rather than one per match: subscribing while
another task reads the same pub/sub connection is racy in redis-py, and a channel
per match would cost a round trip on every SSE connect. Every process then sees
every match's events, which is cheap at this site's scale (measured in
docs/benchmarks.md).

Redis pub/sub is fire-and-forget, so it is never the source of truth: events
carry their per-match ``seq``, the SSE stream fills any gap from the database and
drops repeats (a local event may overtake another process's earlier one), and when
the Redis connection breaks every local stream is ended so that browsers reconnect
with ``Last-Event-ID`` and catch up from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Sequence
from typing import Any

import orjson
import redis.asyncio as aioredis

from jackpot.web.base.live.bus import EventBus

log = logging.getLogger("jackpot.bus")

#: The channel every process publishes to and listens on.
CHANNEL = "jackpot:events"


class RedisEventBus(EventBus):
    sees_every_process = True

    def __init__(self, url: str, queue_size: int = 1000) -> None:
        super().__init__(queue_size)
        self.url = url
        self._redis: aioredis.Redis | None = None
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        #: Starts each message this process sends: its own come back and are skipped.
        self._origin = secrets.token_hex(8).encode() + b" "
        #: (channel, events) waiting for the next message, and the task sending it.
        self._outbox: list[tuple[str, list[dict[str, Any]]]] = []
        self._sender: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Connect and subscribe before the app serves: a stream opened before the
        subscription exists could miss an event (it is in neither the backlog read
        nor the bus). Fails at start-up when Redis is unreachable."""
        self._redis = aioredis.from_url(self.url)
        await self._redis.ping()
        self._task = asyncio.create_task(self._listen())
        await asyncio.wait_for(self._ready.wait(), timeout=10)

    async def aclose(self) -> None:
        if self._sender is not None:
            # What was published is sent before the connection closes (a `jackpot
            # sweep --once` publishes its timeouts and stops).
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._sender), timeout=5)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        if self._redis is not None:
            await self._redis.aclose()
            self._redis = None

    async def _listen(self) -> None:
        assert self._redis is not None
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANNEL)
                self._gap()  # what went by before the subscription was not seen
                self._ready.set()
                while True:
                    msg = await pubsub.get_message(timeout=None)
                    if msg is None or msg.get("type") != "message":
                        continue
                    data: bytes = msg["data"]
                    if data.startswith(self._origin):
                        continue  # delivered here when it was published
                    for channel, events in orjson.loads(data[data.index(b" ") + 1 :]):
                        # Most matches have no watcher here (listeners: open user streams).
                        if channel in self._subs or self.listeners:
                            self._deliver(channel, events)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("lost the Redis subscription; reconnecting", exc_info=True)
                # Events may have gone by unseen: end every stream, so each client
                # reconnects with Last-Event-ID and catches up from the database.
                self.close_all()
                self._gap()
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]

    def _gap(self) -> None:
        for listener in self.gap_listeners:
            listener()

    def post(self, match_id: str, events: Sequence[dict[str, Any]]) -> None:
        """Deliver here now, and send to the other processes with whatever else this
        tick publishes, without waiting for Redis: the mover's answer need not wait
        for another process's watchers (a round trip less on every move). Called
        after commit. A failure to send is logged, not raised: the action is already
        committed and acknowledged, and the other processes' watchers recover it
        from the database."""
        if not events:
            return
        if self._redis is None:
            raise RuntimeError("RedisEventBus.start() was not awaited")
        self._deliver(match_id, events)
        self._outbox.append((match_id, list(events)))
        if self._sender is None:
            # Runs after the tasks already resumed in this loop iteration: the other
            # moves of the same group commit join this message.
            self._sender = asyncio.create_task(self._send())

    async def _send(self) -> None:
        assert self._redis is not None
        try:
            while self._outbox:  # and what was published while the last one went
                outbox, self._outbox = self._outbox, []
                try:
                    await self._redis.publish(CHANNEL, self._origin + orjson.dumps(outbox))
                except Exception:
                    log.warning("could not publish %d matches' events to Redis",
                                len(outbox), exc_info=True)
        finally:
            self._sender = None  # with no await after the last look at the outbox


def make_bus(redis_url: str | None) -> EventBus:
    """The Redis bus when ``JACKPOT_REDIS_URL`` is set (several processes), else in-process."""
    return RedisEventBus(redis_url) if redis_url else EventBus()
