"""Real server processes on SQLite and PostgreSQL, for the concurrency, crash,
several-process and Redis tests.

Every test here runs on both databases (``db_url`` is parametrised), always: a
PostgreSQL or Redis that is down makes these tests fail, never skip. PostgreSQL is
found through ``JACKPOT_TEST_DATABASE_URL`` (default: the local server's ``test``
database) and each test gets a fresh database, dropped afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import processes
from jackpot.bench.table import OVER as OVER  # re-exported for the tests
from jackpot.bench.table import Move as Move
from jackpot.bench.table import after_event
from jackpot.bench.table import next_move as next_move
from testdb import create_pg_database, drop_pg_database, sqlite_url

REDIS_URL = os.environ.get("JACKPOT_TEST_REDIS_URL") or "redis://127.0.0.1:6379/0"
SECRET = "multi-test-secret-0123456789abcdef"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield sqlite_url(tmp_path)
        return
    url = create_pg_database()
    try:
        yield url
    finally:
        drop_pg_database(url)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One ``jackpot serve`` process; ``kill()`` is SIGKILL, ``start()`` restarts it
    on the same port and database."""

    def __init__(self, db_url: str, var_dir: Path, *, redis: bool, env: dict[str, str],
                 args: tuple[str, ...] = (), prefix: tuple[str, ...] = ()) -> None:
        self.args = args
        #: A command the server runs under (a clock of its own: ``faketime``).
        self.prefix = prefix
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.var_dir = var_dir
        var_dir.mkdir(parents=True, exist_ok=True)
        self.env = {
            **os.environ,
            "DATABASE_URL": db_url,
            "JACKPOT_VAR_DIR": str(var_dir),
            "JACKPOT_SECRET_KEY": SECRET,
            "JACKPOT_MIN_DEADLINE_SECONDS": "1",
            "JACKPOT_SWEEPER": "false",
            # every player of these tests comes from 127.0.0.1
            "JACKPOT_SIGNUP_LIMIT": "100000/1h",
            "JACKPOT_SIGNUP_TRY_LIMIT": "100000/1h",
            "JACKPOT_CONNECTIONS_PER_ADDRESS": "100000",
            "JACKPOT_LOGIN_LIMIT": "100000/1h",
            **env,
        }
        self.env.pop("JACKPOT_REDIS_URL", None)
        if redis:
            self.env["JACKPOT_REDIS_URL"] = REDIS_URL
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        log = open(self.var_dir / "server.log", "ab")  # noqa: SIM115 - the child keeps it
        self.proc = subprocess.Popen(
            [*self.prefix, sys.executable, "-m", "jackpot.cli", "serve", "--port", str(self.port),
             "--log-level", "warning", *self.args],
            env=self.env, stdout=log, stderr=subprocess.STDOUT,
            # A wrapper (faketime) gets a process group of its own, so stop() can end
            # the server it started too.
            start_new_session=bool(self.prefix),
        )
        log.close()
        # A liveness bound, not a timing check: start-up builds the odds tables,
        # which a busy machine may take a while over.
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError((self.var_dir / "server.log").read_text())
            try:
                if httpx.get(self.url + "/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.stop()
        log_text = (self.var_dir / "server.log").read_text()
        raise RuntimeError("the server did not start:\n" + log_text)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        processes.stop(self.proc)
        if self.prefix and self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)


@pytest.fixture
def servers(tmp_path: Path, db_url: str) -> Iterator[Any]:
    """A factory: ``servers(redis=True)`` starts one more server on the test's database."""
    started: list[Server] = []

    def make(
        *, redis: bool = False, args: tuple[str, ...] = (), prefix: tuple[str, ...] = (),
        **env: str,
    ) -> Server:
        srv = Server(db_url, tmp_path / f"srv{len(started)}", redis=redis, env=env, args=args,
                     prefix=prefix)
        started.append(srv)
        srv.start()
        return srv

    yield make
    for srv in started:
        srv.stop()


# -- clients -------------------------------------------------------------------


async def sign_up(client: httpx.AsyncClient, base: str, name: str) -> str:
    """A new account; returns a bearer token for it (a program, not a browser)."""
    jar = httpx.AsyncClient(base_url=base, timeout=30)
    try:
        email = f"{name.lower()}-{secrets.token_hex(4)}@example.com"
        r = await jar.post("/api/account", json={"email": email, "password": "correct horse",
                                                 "name": name})
        assert r.status_code == 201, r.text
        # Every move pressed here (autoplay has its own tests).
        r = await jar.put("/api/account/autoplay", json={"throws": False, "single_covers": False})
        assert r.status_code == 200, r.text
        r = await jar.post("/api/tokens", json={"label": "test", "password": "correct horse"})
        assert r.status_code == 201, r.text
        return str(r.json()["token"])
    finally:
        await jar.aclose()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def new_people_match(
    client: httpx.AsyncClient, tokens: list[str], deadline: int = 3600
) -> dict[str, Any]:
    r = await client.post("/api/matches", headers=bearer(tokens[0]),
                          json={"seats": 2, "bots": 0, "deadline_seconds": deadline})
    assert r.status_code == 201, r.text
    match_id = r.json()["id"]
    r = await client.post(f"/api/matches/{match_id}/join", headers=bearer(tokens[1]), json={})
    assert r.status_code == 200, r.text
    state: dict[str, Any] = r.json()
    assert state["status"] == "playing"
    # The order of play is drawn from the seed: ``tokens`` is put in it, in place, so
    # tokens[seat] is the token of the person in that seat.
    mine = await client.get(f"/api/matches/{match_id}", headers=bearer(tokens[0]))
    if not mine.json()["seats"][0]["you"]:
        tokens.reverse()
    return state


class Watcher:
    """An SSE client for one match: collects (id, event) until the stream ends."""

    def __init__(self, base: str, match_id: str, last_event_id: int = 0) -> None:
        self.base = base
        self.match_id = match_id
        self.last = last_event_id
        self.events: list[tuple[int, dict[str, Any]]] = []
        self.connected = asyncio.Event()
        self.arrived = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Watcher:
        self._task = asyncio.create_task(self._run())
        await asyncio.wait_for(self.connected.wait(), timeout=10)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        headers = {"Last-Event-ID": str(self.last)} if self.last else {}
        async with httpx.AsyncClient(base_url=self.base, timeout=None) as c, c.stream(
            "GET", f"/api/matches/{self.match_id}/events", headers=headers
        ) as resp:
            assert resp.status_code == 200
            self.connected.set()
            ev_id = None
            async for line in resp.aiter_lines():
                if line.startswith("id: "):
                    ev_id = int(line[4:])
                elif line.startswith("data: ") and ev_id is not None:
                    self.events.append((ev_id, json.loads(line[6:])))
                    self.arrived.set()
                    ev_id = None

    async def wait_for_seq(self, seq: int, timeout: float = 10) -> None:
        """Until an event with id >= seq arrived (fails after ``timeout`` seconds)."""
        async def until() -> None:
            while not self.events or self.events[-1][0] < seq:
                self.arrived.clear()
                await self.arrived.wait()

        await asyncio.wait_for(until(), timeout=timeout)

    async def wait_done(self, timeout: float = 10) -> None:
        assert self._task is not None
        await asyncio.wait_for(asyncio.shield(self._task), timeout=timeout)


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(timeout=30) as c:
        yield c


class Player:
    """A player's WebSocket on one match (``/api/matches/{id}/socket``), through the
    ``websockets`` library: sends moves, keeps every event the socket delivers."""

    def __init__(self, base: str, match_id: str, token: str | None,
                 last_event_id: int = 0, headers: dict[str, str] | None = None) -> None:
        self.url = (base.replace("http://", "ws://", 1)
                    + f"/api/matches/{match_id}/socket?last_event_id={last_event_id}")
        self.headers = {**(bearer(token) if token else {}), **(headers or {})}
        self.events: list[dict[str, Any]] = []
        self._ids = 0
        self.ws: Any = None

    async def __aenter__(self) -> Player:
        from websockets.asyncio.client import connect

        self.ws = await connect(self.url, additional_headers=self.headers, compression=None)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.ws.close()

    async def send(self, frame: Any) -> None:
        await self.ws.send(frame if isinstance(frame, str | bytes) else json.dumps(frame))

    async def reply(self, timeout: float = 10) -> dict[str, Any]:
        """The next answer (ack or error), keeping the events read on the way."""
        while True:
            data = json.loads(await asyncio.wait_for(self.ws.recv(), timeout=timeout))
            self.events.extend(data.get("events", ()))
            if data["type"] != "events":
                return dict(data)

    async def move(self, action: str, body: dict[str, Any]) -> dict[str, Any]:
        self._ids += 1
        await self.send({"id": self._ids, "action": action, **body})
        answer = await self.reply()
        assert answer["id"] == self._ids, answer
        return answer

    def due(self) -> Move | None:
        """The move due after the events seen so far (``OVER`` once the match is)."""
        move: Move | None = None
        for ev in self.events:
            move = after_event(move, ev)
        return move

    async def wait_for_seq(self, seq: int, timeout: float = 10) -> None:
        async def until() -> None:
            while not self.events or self.events[-1]["seq"] < seq:
                data = json.loads(await self.ws.recv())
                assert data["type"] == "events", data
                self.events.extend(data["events"])

        await asyncio.wait_for(until(), timeout=timeout)
