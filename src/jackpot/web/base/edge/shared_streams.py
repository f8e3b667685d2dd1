"""The per-address cap on live streams and sockets, counted across processes in Redis.

``StreamCaps`` counts one process's streams, so N processes behind a proxy let one
address hold N x ``JACKPOT_STREAMS_PER_ADDRESS``. With ``JACKPOT_REDIS_URL`` set,
``SharedStreamCaps`` (a middleware, before any route) also holds a place per stream
in Redis for as long as it is open: a sorted set per address whose members are the
open streams, each scored with the time its lease ends. Taking a place drops the
expired members and counts the rest in one script, so two processes cannot both
take the last place. Each process renews its streams' leases every ``RENEW``
seconds; a process that dies (SIGKILL) stops renewing, and its places fall free
within ``LEASE`` seconds instead of blocking the address for ever.

The streams are known by their paths (the same ones a proxy must not buffer:
docs/deploy.md): a match's and the lobby's events, the player's own, a match's
socket. The process-wide cap (the open-file limit) stays per process, as it is
about this process's descriptors.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import time

import redis.asyncio as aioredis
from fastapi.responses import JSONResponse
from redis.exceptions import RedisError
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from jackpot.i18n import gettext
from jackpot.web.base.edge.client import client_bucket

log = logging.getLogger("jackpot.streams")

#: What holds a descriptor for as long as the client likes.
STREAM_PATHS = re.compile(r"^/api/(?:matches/[^/]+/(?:events|socket)|lobby/events|my/events)$")
#: Seconds a place is held without renewal, and how often open ones are renewed.
LEASE = 90
RENEW = 30
#: The close code a refused socket gets: try again later (play/edge/socket_moves.py's too).
TRY_AGAIN = 1013

_TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""


class SharedStreams:
    """Places for streams per address in Redis, ``per_address`` at most."""

    def __init__(self, redis: aioredis.Redis | str, prefix: str, per_address: int) -> None:
        """``redis``: the process's shared client (base/redis_pool.py), or a URL for a
        client of its own."""
        self._owned = isinstance(redis, str)
        self._redis = (
            aioredis.Redis.from_url(redis, socket_timeout=5, socket_connect_timeout=5)
            if isinstance(redis, str)
            else redis
        )
        self._take = self._redis.register_script(_TAKE)
        self.prefix = prefix + "streams:"
        self.per_address = per_address
        self._process = secrets.token_hex(8)
        self._count = 0
        #: member -> its address's key, for every place this process holds.
        self.held: dict[str, str] = {}
        self._renewer: asyncio.Task[None] | None = None

    async def acquire(self, address: str) -> str | None:
        """A place for one more stream from ``address`` (its member), or None when
        the address holds ``per_address`` in all processes together."""
        self._count += 1
        member = f"{self._process}:{self._count}"
        key = self.prefix + address
        now = time.time()
        taken = await self._take(
            keys=[key], args=[now, self.per_address, now + LEASE, member, LEASE * 2]
        )
        if not taken:
            return None
        self.held[member] = key
        if self._renewer is None:
            self._renewer = asyncio.create_task(self._renew())
        return member

    async def release(self, member: str) -> None:
        key = self.held.pop(member, None)
        if key is not None:
            with contextlib.suppress(RedisError):  # its lease runs out anyway
                await self._redis.zrem(key, member)

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(RENEW)
            if not self.held:
                continue
            until = time.time() + LEASE
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for member, key in list(self.held.items()):
                        pipe.zadd(key, {member: until}, xx=True)
                        pipe.expire(key, LEASE * 2)
                    await pipe.execute()
            except RedisError:
                log.warning("could not renew %d stream places in Redis", len(self.held))

    async def aclose(self) -> None:
        if self._renewer is not None:
            self._renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._renewer
        for member in list(self.held):
            await self.release(member)
        if self._owned:
            await self._redis.aclose()


class SharedStreamCaps:
    """Refuses a stream or socket past the address's places in every process
    together: 429 ``too_many_streams`` as ``StreamCaps`` answers it (a socket is
    accepted and closed with 1013, as the socket's own caps do)."""

    def __init__(self, app: ASGIApp, streams: SharedStreams) -> None:
        self.app = app
        self.streams = streams

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket") or not STREAM_PATHS.match(scope["path"]) or (
            kind == "http" and scope["method"] != "GET"
        ):
            await self.app(scope, receive, send)
            return
        try:
            member = await self.streams.acquire(client_bucket(HTTPConnection(scope)))
        except RedisError:
            await _refuse(scope, receive, send, 503, "unavailable", gettext(
                "the site cannot check its limits right now; try again"))
            return
        if member is None:
            await _refuse(scope, receive, send, 429, "too_many_streams", gettext(
                "this address already has %(count)s live-event streams open; "
                "close some (each match page holds one)", count=self.streams.per_address))
            return
        try:
            await self.app(scope, receive, send)
        finally:
            await asyncio.shield(self.streams.release(member))


async def _refuse(
    scope: Scope, receive: Receive, send: Send, status: int, code: str, message: str
) -> None:
    if scope["type"] == "websocket":
        await receive()  # the handshake
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": TRY_AGAIN, "reason": code})
        return
    response = JSONResponse({"error": {"code": code, "message": message}}, status_code=status)
    await response(scope, receive, send)
