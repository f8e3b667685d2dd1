"""A request's line and headers have a deadline and a size cap, its body a deadline
(web/base/edge/http_guard.py): a client cannot hold connections open by sending half a
request, nor make the server keep a head of any size. Against a real `jackpot serve`."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import httpx
from servers import running_server

HEAD_SECONDS = "1"
BODY_SECONDS = "2"


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
    env = {
        "JACKPOT_HEADER_SECONDS": HEAD_SECONDS,
        "JACKPOT_BODY_SECONDS": BODY_SECONDS,
        "JACKPOT_MAX_HEADER_BYTES": "4096",
    }
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
        # A body that stops short of its length, or a chunked one that never ends: the
        # connection is closed once the body's time is up (nothing was answered).
        short_body = (
            b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"seats\""
        )
        endless = (
            b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n"
        )
        for payload in (short_body, endless):
            assert exchange(url, payload, wait=20) == b"", payload
        # Blank lines after an answer begin no request but stop uvicorn's keep-alive
        # timer (30 s): the next head's deadline runs from them.
        host, port = url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port))) as s:
            s.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            s.settimeout(10)
            answer = b""
            while not answer.endswith(b'{"status":"ok"}'):
                answer += s.recv(65536)
            s.sendall(b"\r\n")
            s.settimeout(20)
            assert s.recv(65536) == b""
        # Heads within the cap, on one kept-alive connection that idles past the
        # deadline between requests: served as ever.
        with httpx.Client(base_url=url) as client:
            for _ in range(2):
                r = client.get("/api/health", headers={"x-a": "a" * 3000})
                assert r.status_code == 200
                time.sleep(float(HEAD_SECONDS) + 0.5)


def test_one_address_has_a_cap_on_open_connections(tmp_path: Path) -> None:
    env = {"JACKPOT_CONNECTIONS_PER_ADDRESS": "3", "JACKPOT_HEADER_SECONDS": "60"}
    with running_server(tmp_path, env) as url:
        host, port = url.removeprefix("http://").split(":")
        quiet = [socket.create_connection((host, int(port))) for _ in range(3)]
        # An h2c upgrade is answered as plain HTTP: that connection still counts.
        quiet[0].sendall(
            b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Connection: Upgrade\r\nUpgrade: h2c\r\n\r\n"
        )
        quiet[0].settimeout(10)
        assert quiet[0].recv(65536).startswith(b"HTTP/1.1 200 ")
        # The fourth is told why at once and closed; the three quiet ones stay open.
        # (It sends nothing: a request the server never reads could turn its close
        # into a reset that loses the answer.)
        over = exchange(url, b"", wait=10)
        assert over.startswith(b"HTTP/1.1 429 ") and b"too many connections" in over, over
        quiet.pop().close()
        # Once one closes, a new connection is served (the server may take a moment
        # to see the close).
        answered = b""
        for _ in range(50):
            answered = exchange(
                url, b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            )
            if answered.startswith(b"HTTP/1.1 200 "):
                break
            time.sleep(0.1)
        assert answered.startswith(b"HTTP/1.1 200 "), answered
        for s in quiet:
            s.close()


def test_one_endless_header_line_is_cut_off_at_the_cap(tmp_path: Path) -> None:
    """httptools keeps a header line whole until it ends: the raw bytes of a head are
    counted too, so one endless line cannot fill memory until the head's deadline."""
    env = {"JACKPOT_HEADER_SECONDS": "60", "JACKPOT_MAX_HEADER_BYTES": "4096"}
    with running_server(tmp_path, env) as url:
        host, port = url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port))) as s:
            s.settimeout(20)
            got = b""
            try:
                s.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: ")
                for _ in range(100):
                    s.sendall(b"a" * 10_000)
                    time.sleep(0.01)
                got = s.recv(65536)
            except (BrokenPipeError, ConnectionResetError):
                got = b"<closed>"  # cut off while sending: what is asked
            except TimeoutError:
                got = b"<still open>"
        assert got.startswith(b"HTTP/1.1 431 ") or got in (b"", b"<closed>"), got
