"""The live-event bus over Redis pub/sub for several processes, and make_bus.

Same interface as :class:`jackpot.web.base.bus.EventBus`, and the same local
subscribers with their bounded queues; only ``publish`` differs: it sends the
events to Redis, and every process (this one included) receives them back on one
pattern subscription and hands them to its own subscribers. So a spectator
connected to process B sees a move made through process A.

Why one pattern subscription per process rather than one channel per match:
subscribing while another task reads the same pub/sub connection is racy in
redis-py, and a channel per match would cost a round trip on every SSE connect.
Every process then sees every match's events; for a match with no local
subscriber that costs a dict lookup (the events are decoded only where someone
watches), which is cheap at this site's scale (measured in docs/benchmarks.md).

Redis pub/sub is fire-and-forget, so it is never the source of truth: events
carry their per-match ``seq``, the SSE stream fills any gap from the database and
drops repeats, and when the Redis connection breaks every local stream is ended
so that browsers reconnect with ``Last-Event-ID`` and catch up from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Sequence
from typing import Any

import redis.asyncio as aioredis

from jackpot.web.base.bus import EventBus

log = logging.getLogger("jackpot.bus")

#: Channel of a match's events: PREFIX + match id.
PREFIX = "jackpot:match:"


class RedisEventBus(EventBus):
    sees_every_process = True

    def __init__(self, url: str, queue_size: int = 1000) -> None:
        super().__init__(queue_size)
        self.url = url
        self._redis: aioredis.Redis | None = None
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self) -> None:
        """Connect and subscribe before the app serves: a stream opened before the
        subscription exists could miss an event (it is in neither the backlog read
        nor the bus). Fails at start-up when Redis is unreachable."""
        self._redis = aioredis.from_url(self.url)
        await self._redis.ping()
        self._task = asyncio.create_task(self._listen())
        await asyncio.wait_for(self._ready.wait(), timeout=10)

    async def aclose(self) -> None:
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
                await pubsub.psubscribe(PREFIX + "*")
                self._gap()  # what went by before the subscription was not seen
                self._ready.set()
                while True:
                    msg = await pubsub.get_message(timeout=None)
                    if msg is None or msg.get("type") != "pmessage":
                        continue
                    channel = msg["channel"]
                    if isinstance(channel, bytes):
                        channel = channel.decode()
                    match_id = channel[len(PREFIX) :]
                    # Most matches have no watcher here (listeners: open user streams).
                    if match_id in self._subs or self.listeners:
                        self._deliver(match_id, json.loads(msg["data"]))
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
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    def _gap(self) -> None:
        for listener in self.gap_listeners:
            listener()

    async def publish(self, match_id: str, events: Sequence[dict[str, Any]]) -> None:
        """Send after commit. A failure is logged, not raised: the action is already
        committed and acknowledged, and watchers recover it from the database."""
        if not events:
            return
        if self._redis is None:
            raise RuntimeError("RedisEventBus.start() was not awaited")
        try:
            await self._redis.publish(PREFIX + match_id, json.dumps(list(events)))
        except Exception:
            log.warning("could not publish %s's events to Redis", match_id, exc_info=True)
            # Local watchers at least get them now; the others resume from the
            # database when their streams end on the broken subscription.
            self._deliver(match_id, events)


def make_bus(redis_url: str | None) -> EventBus:
    """The Redis bus when ``JACKPOT_REDIS_URL`` is set (several processes), else in-process."""
    return RedisEventBus(redis_url) if redis_url else EventBus()
