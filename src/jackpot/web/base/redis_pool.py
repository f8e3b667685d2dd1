"""One bounded pool of Redis connections per process, for every request-time use of Redis.

The limit counters, the streams' places per address and the watcher counts each
made a client of their own with redis-py's default pool: up to 100 connections
each, and the 101st concurrent call failed at once ("Too many connections"). Under
400 sign-ups at once that was 102 answers of 503, and an owner's log-in in a crowd
of 300 addresses got one too. So they share one pool, ``JACKPOT_REDIS_CONNECTIONS``
connections, and a call that finds them all busy waits for one (up to
``JACKPOT_REDIS_WAIT_SECONDS``, then 503 ``unavailable``) instead of failing.

The live-event bus keeps its own connection: its subscription holds one for as
long as the process runs and reads without a time-out.
"""

from __future__ import annotations

import redis.asyncio as aioredis

#: Seconds a Redis command or a new connection may take (a Redis that stopped
#: answering must not hold a request for ever).
SOCKET_SECONDS = 5.0


def shared_redis(url: str, connections: int, wait_seconds: float) -> aioredis.Redis:
    """A client over a pool of at most ``connections``, waiting up to ``wait_seconds``
    for a free one. Its owner closes it with ``aclose(close_connection_pool=True)``."""
    pool = aioredis.BlockingConnectionPool.from_url(
        url,
        max_connections=connections,
        timeout=wait_seconds,
        socket_timeout=SOCKET_SECONDS,
        socket_connect_timeout=SOCKET_SECONDS,
    )
    return aioredis.Redis(connection_pool=pool)
