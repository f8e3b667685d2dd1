"""Counters for rate limits and failed-password lockouts, in Redis or in the process.

In Redis when JACKPOT_REDIS_URL is set (so every process counts together), else in
this process.

A counter is a fixed window that starts with its first hit: ``hit`` adds one and
returns the count so far, and the key expires ``window`` seconds after that first
hit. Fixed windows are coarse (a burst at a window's edge gets twice the rate once)
but cost one round trip, and every limit here is about minutes, not milliseconds.

Keys in Redis start with a prefix derived from the database's URL, so two sites (or
two test suites, each on its own database) sharing one Redis never count each
other's attempts.
"""

from __future__ import annotations

import hashlib
import time
from typing import Protocol

import redis.asyncio as aioredis
from redis.exceptions import RedisError
from starlette.requests import HTTPConnection

from jackpot.i18n import gettext, ngettext
from jackpot.web.base.env_values import Rate
from jackpot.web.base.errors import ApiError


def wait_words(seconds: int) -> str:
    """'about 12 minutes': how long until a window ends, for error messages."""
    if seconds < 90:
        return gettext("a minute")
    if seconds < 5400:
        return ngettext("about %(num)d minute", "about %(num)d minutes", round(seconds / 60))
    return ngettext("about %(num)d hour", "about %(num)d hours", round(seconds / 3600))


class Counters(Protocol):
    async def hit(self, key: str, window: int, limit: int = 0) -> tuple[int, int]:
        """Count one more; returns the count and the seconds until the window ends.
        ``limit``: the count past which the key's owner is refused; from then on the
        key is a lockout, which the process's counters never drop before its end."""

    async def peek(self, key: str) -> tuple[int, int]:
        """The count and seconds left, without counting."""

    async def undo(self, key: str) -> None:
        """Take back one ``hit`` of a window still open (an attempt that got no
        answer: a 503 is no wrong password)."""

    async def clear(self, key: str) -> None: ...

    async def aclose(self) -> None: ...


class LocalCounters:
    """Counters for one process. Bounded: past ``MAX_KEYS`` the expired keys go, and
    if that is not enough the windows that end soonest are dropped, down to half,
    but never a lockout (a key at its ``limit``): 100,000 fresh keys from a flood of
    new addresses made the process forget every lockout, an account's wrong
    passwords included. Lockouts stay until they end, so only they may take the
    count past ``MAX_KEYS``, and each one cost its maker ``limit`` counted attempts."""

    MAX_KEYS = 100_000

    def __init__(self) -> None:
        #: key -> (end of its window, count, the limit it counts for; 0: none given)
        self._counts: dict[str, tuple[float, int, int]] = {}

    def _live(self, key: str, now: float) -> tuple[float, int, int] | None:
        entry = self._counts.get(key)
        if entry is not None and entry[0] <= now:
            del self._counts[key]
            return None
        return entry

    async def hit(self, key: str, window: int, limit: int = 0) -> tuple[int, int]:
        now = time.monotonic()
        entry = self._live(key, now)
        if entry is None:
            if len(self._counts) >= self.MAX_KEYS:
                self._prune(now)
            entry = (now + window, 0, limit)
        ends, count = entry[0], entry[1] + 1
        self._counts[key] = (ends, count, max(limit, entry[2]))
        return count, max(int(ends - now), 1)

    async def peek(self, key: str) -> tuple[int, int]:
        now = time.monotonic()
        entry = self._live(key, now)
        return (0, 0) if entry is None else (entry[1], max(int(entry[0] - now), 1))

    async def undo(self, key: str) -> None:
        entry = self._live(key, time.monotonic())
        if entry is not None and entry[1] > 0:
            self._counts[key] = (entry[0], entry[1] - 1, entry[2])

    async def clear(self, key: str) -> None:
        self._counts.pop(key, None)

    def _prune(self, now: float) -> None:
        self._counts = {k: v for k, v in self._counts.items() if v[0] > now}
        if len(self._counts) < self.MAX_KEYS:
            return
        droppable = sorted(
            (v[0], k) for k, v in self._counts.items() if not (v[2] and v[1] >= v[2])
        )
        for _ends, key in droppable[: len(self._counts) - self.MAX_KEYS // 2]:
            del self._counts[key]

    async def aclose(self) -> None:
        self._counts.clear()


_HIT = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('TTL', KEYS[1])
if ttl < 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}
"""


#: DECR only a key that still exists (one that expired meanwhile stays gone, never
#: comes back at -1 without an expiry).
_UNDO = """
if redis.call('EXISTS', KEYS[1]) == 1 and tonumber(redis.call('GET', KEYS[1])) > 0 then
  redis.call('DECR', KEYS[1])
end
return 0
"""


def _unavailable() -> ApiError:
    return ApiError(503, "unavailable", "the site cannot check its limits right now; try again")


class RedisCounters:
    """The same counters in Redis: INCR and EXPIRE in one script, so a process that
    dies between the two never leaves a key that lives for ever. If Redis cannot be
    reached the attempt is refused (503), never let through uncounted."""

    def __init__(self, redis: aioredis.Redis | str, prefix: str) -> None:
        """``redis``: the process's shared client (redis_pool.py), or a URL for a
        client of its own, closed with the counters."""
        self._owned = isinstance(redis, str)
        self._redis = (
            aioredis.Redis.from_url(redis, socket_timeout=5, socket_connect_timeout=5)
            if isinstance(redis, str)
            else redis
        )
        self._prefix = prefix
        self._hit = self._redis.register_script(_HIT)
        self._undo = self._redis.register_script(_UNDO)

    async def hit(self, key: str, window: int, limit: int = 0) -> tuple[int, int]:
        try:
            count, ttl = await self._hit(keys=[self._prefix + key], args=[window])
        except RedisError:
            raise _unavailable() from None
        return int(count), max(int(ttl), 1)

    async def peek(self, key: str) -> tuple[int, int]:
        full = self._prefix + key
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                pipe.get(full)
                pipe.ttl(full)
                value, ttl = await pipe.execute()
        except RedisError:
            raise _unavailable() from None
        return (int(value), max(int(ttl), 1)) if value is not None else (0, 0)

    async def undo(self, key: str) -> None:
        try:
            await self._undo(keys=[self._prefix + key])
        except RedisError:
            raise _unavailable() from None

    async def clear(self, key: str) -> None:
        try:
            await self._redis.delete(self._prefix + key)
        except RedisError:
            raise _unavailable() from None

    async def aclose(self) -> None:
        if self._owned:
            await self._redis.aclose()


def redis_prefix(database_url: str) -> str:
    """Keys of one site: a digest of its database URL (never the URL: it may hold a
    password)."""
    return "jackpot:limits:" + hashlib.sha256(database_url.encode()).hexdigest()[:16] + ":"


def counters_of(request: HTTPConnection) -> Counters:
    """The app's counters (made by ``make_counters`` at start)."""
    counters: Counters = request.app.state.counters
    return counters


def make_counters(redis: aioredis.Redis | None, database_url: str) -> Counters:
    """In Redis through the process's shared client, else in the process."""
    if redis is not None:
        return RedisCounters(redis, redis_prefix(database_url))
    return LocalCounters()


class TooMany(ApiError):
    """429 ``too_many_attempts``: what was counted (a catalog entry, marked with ``N_``
    where it is written) and how long to wait, both said in the reader's language."""

    def __init__(self, what: str, seconds: int) -> None:
        super().__init__(429, "too_many_attempts", what)
        self.seconds = seconds

    @property
    def message(self) -> str:
        return gettext(
            "%(what)s; try again in %(wait)s",
            what=gettext(self.template),
            wait=wait_words(self.seconds),
        )


async def take(counters: Counters, key: str, rate: Rate, what: str) -> None:
    """Count one attempt against ``rate``; 429 (saying ``what``, a catalog entry, and
    how long to wait) once the window holds more than ``rate.count``."""
    count, left = await counters.hit(key, rate.window, rate.count)
    if count > rate.count:
        raise TooMany(what, left)
