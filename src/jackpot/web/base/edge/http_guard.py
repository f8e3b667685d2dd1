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

Each process counts the HTTP connections open from each client address (its /64 for
IPv6) and answers one over ``connections_per_address`` 429 and closes it, so one
address cannot take every descriptor by opening connections and going quiet between
requests. A trusted proxy's connections are not counted: they carry everybody's. A
connection leaves the count when it closes or becomes a WebSocket (the match sockets
and streams are capped per address by the app).
"""

from __future__ import annotations

import asyncio
import functools
from collections import Counter
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from jackpot.web.base.edge.client import address_bucket, is_trusted_proxy
from jackpot.web.base.settings import Settings, load_settings

TOO_LARGE = b"the request's line and headers are over the server's cap"
TOO_MANY = b"too many connections from your address; close some and try again"

#: Open HTTP connections per client address, in this process.
OPEN_CONNECTIONS: Counter[str] = Counter()


class HeadTooLarge(Exception):
    """Raised in the parser's callback: httptools then stops reading the request."""


@functools.cache
def guard_settings() -> Settings:
    """This process's settings, read here, in each process that serves: uvicorn builds
    the protocol itself, in each worker."""
    return load_settings()


def becomes_websocket(headers: list[tuple[bytes, bytes]]) -> bool:
    """uvicorn's own test for handing a connection to its WebSocket protocol."""
    connection: list[bytes] = []
    upgrade = None
    for name, value in headers:
        if name == b"connection":
            connection = [token.lower().strip() for token in value.split(b",")]
        elif name == b"upgrade":
            upgrade = value.lower()
    return b"upgrade" in connection and upgrade == b"websocket"


class GuardedHttp(HttpToolsProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        settings = guard_settings()
        self.header_seconds = settings.header_seconds
        self.body_seconds = settings.body_seconds
        self.max_header_bytes = settings.max_header_bytes
        self.head_bytes = 0
        #: Whether a head is being read, and its raw bytes so far: httptools keeps a
        #: header line whole until it ends, so ``on_header`` alone cannot stop one
        #: endless line.
        self.in_head = True
        self.raw_head_bytes = 0
        #: The address this connection is counted under, while it is.
        self.counted: str | None = None
        #: The deadline of the request being read (its head, then its body), if any.
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.start_timer(self.header_seconds)
        peer = transport.get_extra_info("peername")
        settings = guard_settings()
        if not peer or is_trusted_proxy(peer[0], settings.trusted_proxies):
            return
        self.counted = address_bucket(peer[0])
        OPEN_CONNECTIONS[self.counted] += 1
        if OPEN_CONNECTIONS[self.counted] > settings.connections_per_address:
            self.stop_timer()
            self.refuse(b"429 Too Many Requests", TOO_MANY)

    def connection_lost(self, exc: Exception | None) -> None:
        self.stop_timer()
        self.uncount()
        super().connection_lost(exc)

    def uncount(self) -> None:
        if self.counted is not None:
            OPEN_CONNECTIONS[self.counted] -= 1
            if OPEN_CONNECTIONS[self.counted] <= 0:
                del OPEN_CONNECTIONS[self.counted]
            self.counted = None

    def refuse(self, status: bytes, text: bytes) -> None:
        self.transport.write(
            b"HTTP/1.1 %s\r\ncontent-type: text/plain; charset=utf-8\r\n"
            b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (status, len(text), text)
        )
        self.transport.close()

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

    def data_received(self, data: bytes) -> None:
        if self.timer is None and (self.cycle is None or self.cycle.response_complete):
            # Bytes after a finished exchange, even blank lines (which begin no
            # message) and cancel uvicorn's keep-alive timer: a head is due.
            self.start_timer(self.header_seconds)
            self.begin_head()
        if self.in_head:
            if self.raw_head_bytes > self.max_header_bytes:
                self.stop_timer()
                self.refuse(b"431 Request Header Fields Too Large", TOO_LARGE)
                return
            self.raw_head_bytes += len(data)
        super().data_received(data)

    def begin_head(self) -> None:
        self.in_head = True
        self.head_bytes = 0
        self.raw_head_bytes = 0

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
        self.refuse(b"431 Request Header Fields Too Large", TOO_LARGE)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.timer is None:  # the next request on a kept-alive connection
            self.start_timer(self.header_seconds)
            self.begin_head()
        self.in_head = True

    def on_url(self, url: bytes) -> None:
        self.count_head(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self.count_head(len(name) + len(value) + 4)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self.in_head = False
        if self.parser.should_upgrade() and becomes_websocket(self.headers):
            self.stop_timer()  # the connection is the WebSocket's now
            self.uncount()
        else:
            # Other upgrades (h2c) are served as plain HTTP: still counted and timed.
            self.start_timer(self.body_seconds)

    def on_message_complete(self) -> None:
        self.stop_timer()
        super().on_message_complete()
