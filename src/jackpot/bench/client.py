"""A small HTTP/1.1 keep-alive client and SSE reader on bare asyncio streams.

Why not httpx: on this 2-core machine the load generator shares the CPU with the
server, and httpx spends several times more CPU per request than this client (its
connection pool, header models and async machinery), which would make the
benchmark measure the client. This client does only what the benchmark needs: one
request at a time per connection, ``Content-Length`` bodies for requests and
responses, and chunked bodies for the SSE stream. Loopback only.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import time
from collections.abc import Callable
from typing import Any

#: Called with each event's seq, when it arrived, and the event itself where the
#: transport parses it (the socket; an SSE watcher reads only the ids).
OnEvent = Callable[[int, float, dict[str, Any] | None], None]


class HTTPError(Exception):
    pass


class Connection:
    """One keep-alive connection; requests on it are sent one after the other."""

    def __init__(self, host: str, port: int, headers: dict[str, str] | None = None) -> None:
        self.host = host
        self.port = port
        extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        self._head_tail = f"Host: {host}:{port}\r\n{extra}".encode()
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def _connect(self) -> None:
        self._reader, self._writer = await asyncio.open_connection(self.host, self.port)

    async def request(
        self, method: str, path: str, body: Any = None
    ) -> tuple[int, bytes]:
        """Send and read one response. A kept-alive connection the server closed
        while idle (uvicorn's keep-alive timeout) is reopened and the request sent
        once more: the server never read it, so it was not applied."""
        reused = self._writer is not None
        try:
            return await self._request(method, path, body)
        except HTTPError:
            if not reused:
                raise
            return await self._request(method, path, body)

    async def _request(
        self, method: str, path: str, body: Any = None
    ) -> tuple[int, bytes]:
        if self._writer is None:
            await self._connect()
        assert self._reader is not None and self._writer is not None
        payload = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\n".encode() + self._head_tail
        if body is not None:
            head += b"Content-Type: application/json\r\n"
        head += b"Content-Length: %d\r\n\r\n" % len(payload)
        self._writer.write(head + payload)
        try:
            raw = await self._reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError) as exc:
            await self.close()
            raise HTTPError(f"connection lost: {exc}") from None
        if not raw.startswith(b"HTTP/1.1 "):
            await self.close()
            raise HTTPError(f"not an HTTP response: {raw[:40]!r}")
        status = int(raw[9:12])
        lower = raw.lower()
        i = lower.find(b"content-length:")
        if i < 0:
            raise HTTPError("response without Content-Length")
        n = int(lower[i + 15 : lower.index(b"\r\n", i)])
        data = await self._reader.readexactly(n)
        if b"connection: close" in lower:
            await self.close()
        return status, data

    async def json(self, method: str, path: str, body: Any = None, expect: int = 200) -> Any:
        status, data = await self.request(method, path, body)
        if status != expect:
            raise HTTPError(f"{method} {path}: {status} {data[:300]!r}")
        return json.loads(data)

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
            self._reader = None


class SSEWatcher:
    """Follows one match's event stream; calls ``on_event(seq, when)`` for each id."""

    def __init__(
        self, host: str, port: int, match_id: str, on_event: OnEvent
    ) -> None:
        self.host = host
        self.port = port
        self.match_id = match_id
        self.on_event = on_event
        self.connected = asyncio.Event()
        self.open = False
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _run(self) -> None:
        reader, writer = await asyncio.open_connection(self.host, self.port)
        try:
            writer.write(
                f"GET /api/matches/{self.match_id}/events HTTP/1.1\r\n"
                f"Host: {self.host}:{self.port}\r\nAccept: text/event-stream\r\n\r\n".encode()
            )
            head = await reader.readuntil(b"\r\n\r\n")
            if int(head[9:12]) != 200:
                raise HTTPError(f"SSE {self.match_id}: {head[:12]!r}")
            self.open = True
            self.connected.set()
            chunked = b"transfer-encoding: chunked" in head.lower()
            buf = b""
            while True:
                if chunked:
                    size = int((await reader.readline()).strip(), 16)
                    if size == 0:
                        return
                    data = await reader.readexactly(size + 2)
                    buf += data[:-2]
                else:
                    data = await reader.read(65536)
                    if not data:
                        return
                    buf += data
                now = time.perf_counter()
                while b"\n\n" in buf:
                    frame, buf = buf.split(b"\n\n", 1)
                    for line in frame.split(b"\n"):
                        if line.startswith(b"id: "):
                            self.on_event(int(line[4:]), now, None)
        finally:
            self.open = False
            writer.close()


class WSError(Exception):
    pass


class MatchSocket:
    """One player's WebSocket on a match (``/api/matches/{id}/socket``): sends moves
    one at a time and reads acknowledgements and events. A bare RFC 6455 client,
    for the same reason as ``Connection``: text frames only, masked as a client must."""

    def __init__(
        self, host: str, port: int, match_id: str, headers: dict[str, str],
        on_event: OnEvent,
    ) -> None:
        self.host = host
        self.port = port
        self.match_id = match_id
        self.headers = headers
        self.on_event = on_event
        self.open = False
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task[None] | None = None
        self._waiting: asyncio.Future[dict[str, Any]] | None = None
        self._next_id = 0

    async def connect(self) -> None:
        self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        key = base64.b64encode(os.urandom(16)).decode()
        extra = "".join(f"{k}: {v}\r\n" for k, v in self.headers.items())
        self._writer.write(
            f"GET /api/matches/{self.match_id}/socket HTTP/1.1\r\n"
            f"Host: {self.host}:{self.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n".encode()
        )
        head = await self._reader.readuntil(b"\r\n\r\n")
        if int(head[9:12]) != 101:
            raise WSError(f"socket {self.match_id}: {head[:40]!r}")
        self.open = True
        self._task = asyncio.create_task(self._read())

    async def move(self, action: str, body: dict[str, Any]) -> dict[str, Any]:
        """Send a move, wait for its answer: ``{"type": "ack"|"error", ...}``."""
        if self._writer is None or not self.open:
            raise WSError("the socket is closed")
        self._next_id += 1
        payload = json.dumps({"id": self._next_id, "action": action, **body}).encode()
        self._waiting = asyncio.get_running_loop().create_future()
        self._writer.write(_client_frame(payload))
        return await self._waiting

    async def _read(self) -> None:
        assert self._reader is not None
        reader = self._reader
        try:
            while True:
                b0, b1 = await reader.readexactly(2)
                n = b1 & 0x7F
                if n == 126:
                    n = int.from_bytes(await reader.readexactly(2), "big")
                elif n == 127:
                    n = int.from_bytes(await reader.readexactly(8), "big")
                data = await reader.readexactly(n)
                opcode = b0 & 0x0F
                if opcode == 8:  # close
                    return
                if opcode == 9:  # ping: uvicorn closes a socket whose pongs stop
                    if self._writer is not None:
                        self._writer.write(_client_frame(data, opcode=10))
                    continue
                if opcode != 1:
                    continue
                now = time.perf_counter()
                msg = json.loads(data)
                for ev in msg.get("events", ()):  # an ack carries its move's events
                    self.on_event(int(ev["seq"]), now, ev)
                waiting = self._waiting
                if msg["type"] != "events" and waiting is not None and not waiting.done():
                    waiting.set_result(msg)
        except (asyncio.IncompleteReadError, ConnectionError):
            return
        finally:
            self.open = False
            if self._waiting is not None and not self._waiting.done():
                self._waiting.set_exception(WSError("the socket closed"))

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.write(_client_frame(b"", opcode=8))
            self._writer.close()
            self._writer = None
        self.open = False


def _client_frame(payload: bytes, opcode: int = 1) -> bytes:
    """A final frame, masked (clients must mask; the XOR runs as one big integer)."""
    mask = os.urandom(4)
    n = len(payload)
    if n < 126:
        head = bytes((0x80 | opcode, 0x80 | n))
    elif n < 65536:
        head = bytes((0x80 | opcode, 0x80 | 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((0x80 | opcode, 0x80 | 127)) + n.to_bytes(8, "big")
    if n:
        key = int.from_bytes((mask * (n // 4 + 1))[:n], "big")
        payload = (int.from_bytes(payload, "big") ^ key).to_bytes(n, "big")
    return head + mask + payload
