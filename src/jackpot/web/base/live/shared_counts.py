"""Counts per key that each process keeps in memory, summed over every live process in Redis.

A process knows only what it holds itself (play/watchers.py: the streams and sockets
open in it), so with several processes behind Redis each one publishes its non-zero
counts into a Redis hash of its own, ``<prefix><process id>``, replacing it whole,
every ``period`` seconds and soon after a change (at most once a ``THROTTLE``).
The hash expires ``expiry`` seconds after it was last written: a process that dies
(SIGKILL, a lost machine) stops writing and its counts vanish by themselves, where
counts announced as "+1" and "-1" would stay wrong for ever after a missed "-1". A
process with nothing to count keeps no hash. The set ``<prefix>live`` names the
processes that wrote one, so a read never scans the keyspace.

Reading sums, in one script (one round trip, however many keys are asked: a whole
watch list at once), the hashes of the processes the set names, and drops from the
set those whose hash has expired; this process's own counts come from memory, exact
and current, not from its hash, which may be a throttle behind. The work of a read
is the processes holding counts times the keys asked. The script builds the hashes'
names from the set's members: a single Redis, as the bus's pub/sub needs, not Redis
Cluster.

Redis out of reach never breaks a page: a read gives this process's own counts (a
lower bound) and publishing tries again a period later; the first failure is logged,
and the recovery.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Mapping, Sequence

import redis.asyncio as aioredis
from redis.exceptions import RedisError
from redis.typing import EncodableT, FieldT

log = logging.getLogger("jackpot.shared_counts")

#: Seconds at least between two publications: a burst of streams opening and
#: closing (a popular match's end) makes one write, not one per stream.
THROTTLE = 1.0
#: Seconds a read or a publication may wait for Redis before the page goes without.
TIMEOUT = 2.0
#: Keys per HMGET in the script (Lua's unpack has a limit of a few thousand).
CHUNK = 500

_SUM = """
local n = #ARGV - 2
local total = {}
for i = 1, n do total[i] = 0 end
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if id ~= ARGV[2] then
    local key = ARGV[1] .. id
    if redis.call('EXISTS', key) == 0 then
      redis.call('SREM', KEYS[1], id)
    else
      for first = 3, #ARGV, CHUNK do
        local last = math.min(first + CHUNK - 1, #ARGV)
        local got = redis.call('HMGET', key, unpack(ARGV, first, last))
        for i = 1, #got do
          if got[i] then total[first - 3 + i] = total[first - 3 + i] + tonumber(got[i]) end
        end
      end
    end
  end
end
return total
""".replace("CHUNK", str(CHUNK))

#: What a publication or read may raise when Redis is out of reach.
UNREACHABLE = (RedisError, OSError, TimeoutError)


class SharedCounts:
    """``counts`` (this process's, read at each publication) and every other live
    process's, summed in Redis under ``prefix``."""

    def __init__(
        self,
        redis: aioredis.Redis | str,
        prefix: str,
        counts: Mapping[str, int],
        period: float,
        expiry: float,
    ) -> None:
        """``redis``: the process's shared client (base/redis_pool.py), or a URL for a
        client of its own."""
        self._owned = isinstance(redis, str)
        self._redis = (
            aioredis.Redis.from_url(redis, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT)
            if isinstance(redis, str)
            else redis
        )
        self._sum = self._redis.register_script(_SUM)
        self.counts = counts
        self.prefix = prefix
        self.process = secrets.token_hex(8)
        self.key = prefix + self.process
        self.live = prefix + "live"
        self.period = period
        self.expiry = expiry
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        #: Whether Redis holds nothing of this process (nothing to write while so).
        self._empty = True
        self._down = False

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    def changed(self) -> None:
        """A count changed: publish soon (within ``THROTTLE``), not a period later."""
        self._changed.set()

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.period):
                    await self._changed.wait()
            self._changed.clear()
            try:
                await self.publish()
            except UNREACHABLE:
                pass  # logged once; tried again a period later
            except Exception:
                log.exception("could not publish this process's counts")
            await asyncio.sleep(min(THROTTLE, self.period))

    async def publish(self) -> None:
        """Replace this process's hash with its non-zero counts, and renew its expiry."""
        counts: dict[FieldT, EncodableT] = {k: n for k, n in self.counts.items() if n > 0}
        if not counts and self._empty:
            return
        ms = max(1, round(self.expiry * 1000))
        try:
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.delete(self.key)
                if counts:
                    pipe.hset(self.key, mapping=counts)
                    pipe.pexpire(self.key, ms)
                    pipe.sadd(self.live, self.process)
                    pipe.pexpire(self.live, ms)
                else:
                    pipe.srem(self.live, self.process)
                await pipe.execute()
        except UNREACHABLE:
            self._failed("could not publish this process's counts to Redis")
            raise
        self._reached()
        self._empty = not counts

    async def totals(self, keys: Sequence[str]) -> dict[str, int]:
        """Every live process's count of each key, this one's included; only this
        process's when Redis cannot be reached."""
        own = {k: self.counts.get(k, 0) for k in keys}
        if not own:
            return own
        try:
            others = await self._sum(keys=[self.live], args=[self.prefix, self.process, *own])
        except UNREACHABLE:
            self._failed("could not read the other processes' counts from Redis; "
                         "showing this process's own")
            return own
        self._reached()
        return {k: n + int(m) for (k, n), m in zip(own.items(), others, strict=True)}

    def _failed(self, what: str) -> None:
        if not self._down:
            log.warning(what, exc_info=True)
            self._down = True

    def _reached(self) -> None:
        if self._down:
            log.info("reached Redis again: counts are summed over every process")
            self._down = False

    async def aclose(self) -> None:
        """Stop publishing and take this process's counts away at once (its streams
        are closing), rather than leaving them to expire."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        with contextlib.suppress(*UNREACHABLE):
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.delete(self.key)
                pipe.srem(self.live, self.process)
                await pipe.execute()
        if self._owned:
            await self._redis.aclose()
