"""The HTTP protocol the server speaks: uvicorn's, with deadlines and a size for requests.

uvicorn reads a request's headers for as long as a client cares to send them and
keeps every byte of them: one client holding thousands of half-sent requests ran
the server out of file descriptors, and a header of 50 MB took 50 MB (an attack
pass, docs/security.md). Here a connection that has not finished its request line
and headers within ``header_seconds`` of connecting (or of starting its next
request) is closed, and a head over ``max_header_bytes`` is answered 431 and
closed. Then the body (capped in size by the app) has ``body_seconds`` to arrive, or
the connection is closed: a body sent a byte a minute would hold a connection and a
task as long. The timer stops once the request is in: a long answer, an open stream
or a WebSocket are other limits' business, and uvicorn's keep-alive timeout closes
an idle kept connection.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from jackpot.web.base.settings import load_settings

TOO_LARGE = b"the request's line and headers are over the server's cap"


class HeadTooLarge(Exception):
    """Raised in the parser's callback: httptools then stops reading the request."""


@functools.cache
def limits() -> tuple[float, float, int]:
    """(header_seconds, body_seconds, max_header_bytes) from this process's settings.
    Read here, in each process that serves: uvicorn builds the protocol itself, in
    each worker."""
    settings = load_settings()
    return settings.header_seconds, settings.body_seconds, settings.max_header_bytes


class GuardedHttp(HttpToolsProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.header_seconds, self.body_seconds, self.max_header_bytes = limits()
        self.head_bytes = 0
        #: The deadline of the request being read (its head, then its body), if any.
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.start_timer(self.header_seconds)

    def connection_lost(self, exc: Exception | None) -> None:
        self.stop_timer()
        super().connection_lost(exc)

    def start_timer(self, seconds: float) -> None:
        self.stop_timer()
        self.timer = self.loop.call_later(seconds, self.too_slow)

    def stop_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def too_slow(self) -> None:
        self.timer = None
        self.transport.close()

    def count_head(self, size: int) -> None:
        """Count bytes of the head; past the cap, stop the parser (uvicorn then answers
        through ``send_400_response``, which says 431 here)."""
        self.head_bytes += size
        if self.head_bytes > self.max_header_bytes:
            self.stop_timer()
            raise HeadTooLarge

    def send_400_response(self, msg: str) -> None:
        if self.head_bytes <= self.max_header_bytes:
            super().send_400_response(msg)
            return
        self.transport.write(
            b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
            b"content-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
            b"content-length: %d\r\n\r\n%s" % (len(TOO_LARGE), TOO_LARGE)
        )
        self.transport.close()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.timer is None:  # the next request on a kept-alive connection
            self.start_timer(self.header_seconds)
            self.head_bytes = 0

    def on_url(self, url: bytes) -> None:
        self.count_head(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self.count_head(len(name) + len(value) + 4)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        if self.parser.should_upgrade():
            self.stop_timer()  # the connection is a WebSocket's now (or refused)
        else:
            self.start_timer(self.body_seconds)

    def on_message_complete(self) -> None:
        self.stop_timer()
        super().on_message_complete()
