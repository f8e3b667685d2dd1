"""The HTTP protocol the server speaks: uvicorn's, with a deadline and a size for headers.

uvicorn reads a request's headers for as long as a client cares to send them and
keeps every byte of them: one client holding thousands of half-sent requests ran
the server out of file descriptors, and a header of 50 MB took 50 MB (an attack
pass, docs/security.md). Here a connection that has not finished its request line
and headers within ``header_seconds`` of connecting (or of starting its next
request) is closed, and a head over ``max_header_bytes`` is answered 431 and
closed. The timer stops once the headers are in: a slow body, a long answer, an
open stream or a WebSocket are other limits' business.
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
def limits() -> tuple[float, int]:
    """(header_seconds, max_header_bytes) from this process's settings. Read here, in
    each process that serves: uvicorn builds the protocol itself, in each worker."""
    settings = load_settings()
    return settings.header_seconds, settings.max_header_bytes


class GuardedHttp(HttpToolsProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.header_seconds, self.max_header_bytes = limits()
        self.head_bytes = 0
        self.head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.start_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self.stop_head_timer()
        super().connection_lost(exc)

    def start_head_timer(self) -> None:
        self.stop_head_timer()
        self.head_bytes = 0
        self.head_timer = self.loop.call_later(self.header_seconds, self.head_too_slow)

    def stop_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def head_too_slow(self) -> None:
        self.head_timer = None
        self.transport.close()

    def count_head(self, size: int) -> None:
        """Count bytes of the head; past the cap, stop the parser (uvicorn then answers
        through ``send_400_response``, which says 431 here)."""
        self.head_bytes += size
        if self.head_bytes > self.max_header_bytes:
            self.stop_head_timer()
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
        if self.head_timer is None:  # the next request on a kept-alive connection
            self.start_head_timer()

    def on_url(self, url: bytes) -> None:
        self.count_head(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self.count_head(len(name) + len(value) + 4)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self.stop_head_timer()
        super().on_headers_complete()
