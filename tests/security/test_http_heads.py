"""A request's line and headers have a deadline and a size cap (web/base/http_guard.py):
a client cannot hold connections open by sending half a request, nor make the server
keep a head of any size. Against a real `jackpot serve`."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import httpx
from servers import running_server

HEAD_SECONDS = "1"


def exchange(url: str, payload: bytes, wait: float = 30) -> bytes:
    """Send ``payload`` and read until the server closes (or ``wait`` runs out)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port))) as s:
        s.sendall(payload)
        s.settimeout(wait)
        got = b""
        try:
            while chunk := s.recv(65536):
                got += chunk
        except TimeoutError:
            return got + b"<still open>"
    return got


def test_half_sent_heads_are_closed_and_big_heads_refused(tmp_path: Path) -> None:
    env = {"JACKPOT_HEADER_SECONDS": HEAD_SECONDS, "JACKPOT_MAX_HEADER_BYTES": "4096"}
    with running_server(tmp_path, env) as url:
        # Half a request, then silence; and a connection that never says anything.
        assert exchange(url, b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: b") == b""
        assert exchange(url, b"") == b""
        # A head over the cap, in a header or in the request line.
        big_header = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: %s\r\n\r\n" % (
            b"a" * 5000
        )
        big_line = b"GET /api/health?%s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" % (b"a" * 5000)
        for payload in (big_header, big_line):
            assert exchange(url, payload).startswith(b"HTTP/1.1 431 ")
        # Heads within the cap, on one kept-alive connection that idles past the
        # deadline between requests: served as ever.
        with httpx.Client(base_url=url) as client:
            for _ in range(2):
                r = client.get("/api/health", headers={"x-a": "a" * 3000})
                assert r.status_code == 200
                time.sleep(float(HEAD_SECONDS) + 0.5)
