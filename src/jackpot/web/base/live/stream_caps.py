"""Caps on open live-event streams: per client address, and in all, below the file limit.

Each open stream holds a socket, one file descriptor, for as long as the client
likes. Uncapped, one client opened thousands; under ``ulimit -n 1024`` the process
then could not open its database files or accept a connection, and health checks,
new matches and match pages failed with 500s. So a stream is refused with 429 past
``JACKPOT_STREAMS_PER_ADDRESS`` from one address, and with 503 past the total,
which stays ``JACKPOT_FD_RESERVE`` descriptors below the process's open-file limit
(read once, when the app is made), leaving those for the database, the listening
socket and ordinary requests.
"""

from __future__ import annotations

import resource
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from jackpot.web.base.errors import ApiError
from jackpot.web.base.settings import Settings


def open_file_limit() -> int:
    """This process's limit on open files (the soft one, which is what counts)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1_000_000


def total_streams(settings: Settings) -> int:
    """Streams allowed at once: the file limit less the reserve, or less if set lower."""
    room = max(0, open_file_limit() - settings.fd_reserve)
    return min(settings.max_streams, room) if settings.max_streams else room


class StreamCaps:
    """Counts open streams per address and in all; ``acquire`` refuses past a cap."""

    def __init__(self, per_address: int, total: int) -> None:
        self.per_address = per_address
        self.total = total
        self.open = 0
        self._by_address: dict[str, int] = {}

    def acquire(self, address: str) -> None:
        held = self._by_address.get(address, 0)
        if held >= self.per_address:
            raise ApiError(
                429,
                "too_many_streams",
                "this address already has %(count)s live-event streams open; "
                "close some (each match page holds one)",
                count=self.per_address,
            )
        if self.open >= self.total:
            raise ApiError(
                503,
                "busy",
                "the server has as many live-event streams as it can hold; "
                "try again in a little while",
            )
        self._by_address[address] = held + 1
        self.open += 1

    def release(self, address: str) -> None:
        held = self._by_address.get(address, 0)
        if held <= 1:
            self._by_address.pop(address, None)
        else:
            self._by_address[address] = held - 1
        self.open = max(0, self.open - 1)


class CappedStream(StreamingResponse):
    """A streaming response that gives its place back however it ends (finished,
    client gone, server shutting down)."""

    def __init__(self, on_close: Callable[[], None], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._on_close = on_close

    @classmethod
    def events(cls, on_close: Callable[[], None], body: AsyncIterator[Any]) -> CappedStream:
        """Server-Sent Events, never cached nor held back by a buffering proxy."""
        return cls(
            on_close,
            body,
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._on_close()


class EventStream(StreamingResponse):
    """A stream route's ``response_class``, for its OpenAPI schema, which then says
    that it answers ``text/event-stream`` (the route returns its ``CappedStream``)."""

    media_type = "text/event-stream"
