"""Fixtures for the attacks of tests/security: real ``jackpot serve`` processes and
in-process apps with chosen settings, on SQLite or (with JACKPOT_TEST_DATABASE_URL)
on a fresh PostgreSQL database, like tests/web."""

from __future__ import annotations

import dataclasses
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import httpx
import pytest

import processes
from jackpot.web.app import create_app
from jackpot.web.base.passwords import MEMORY_KIB, TIME_COST

SECRET = "security-test-secret-0123456789ab"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Served:
    """One ``jackpot serve --host 127.0.0.1 --port <free>`` on the test's database."""

    def __init__(self, database_url: str, var_dir: Path, env: dict[str, str]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.var_dir = var_dir
        self.outbox = var_dir / "outbox"
        var_dir.mkdir(parents=True, exist_ok=True)
        full_env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "JACKPOT_VAR_DIR": str(var_dir),
            "JACKPOT_SECRET_KEY": SECRET,
            "JACKPOT_SWEEP_INTERVAL": "0.2",
            **env,
        }
        for name in ("JACKPOT_BASE_URL", "JACKPOT_ALLOWED_HOSTS", "JACKPOT_TRUSTED_PROXIES"):
            if name not in env:
                full_env.pop(name, None)
        log = open(var_dir / "server.log", "ab")  # noqa: SIM115 - the child keeps it
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "jackpot.cli", "serve", "--host", "127.0.0.1",
             "--port", str(self.port), "--log-level", "warning"],
            env=full_env, stdout=log, stderr=subprocess.STDOUT,
        )
        log.close()
        # Start-up imports numpy and builds tables; on a machine shared by several
        # test suites it has taken 25 s. Only a bound on a server that never comes up.
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError((var_dir / "server.log").read_text())
            try:
                if httpx.get(self.url + "/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("the server did not start:\n" + (var_dir / "server.log").read_text())

    def stop(self) -> None:
        processes.stop(self.proc)


@pytest.fixture
def serve(
    request: pytest.FixtureRequest, tmp_path: Path, database_url: str
) -> Iterator[Callable[..., Served]]:
    """A factory: ``serve(JACKPOT_TRUSTED_PROXIES="127.0.0.1")`` starts a server on
    the test's database (``on=URL``: on another one)."""
    started: list[Served] = []
    cost = (
        {"JACKPOT_HASH_TIME_COST": str(TIME_COST), "JACKPOT_HASH_MEMORY_KIB": str(MEMORY_KIB)}
        if request.node.get_closest_marker("real_password_cost")
        else {}
    )

    def make(on: str | None = None, **env: str) -> Served:
        srv = Served(on or database_url, tmp_path / f"srv{len(started)}", {**cost, **env})
        started.append(srv)
        return srv

    yield make
    for srv in started:
        srv.stop()


AppClients = Callable[..., Awaitable[Callable[..., httpx.AsyncClient]]]


@pytest.fixture
async def app_with(settings: Any) -> AsyncIterator[AppClients]:
    """``clients = await app_with(base_url=...)`` starts an in-process app with those
    settings changed; ``clients("10.0.0.7")`` is a client at that address."""
    stack: list[Any] = []
    clients: list[httpx.AsyncClient] = []

    async def start(**changes: Any) -> Callable[..., httpx.AsyncClient]:
        application = create_app(dataclasses.replace(settings, **changes))
        lifespan = application.router.lifespan_context(application)
        await lifespan.__aenter__()
        stack.append(lifespan)

        def client(
            address: str = "10.0.0.1", host: str = "testserver", scheme: str = "http"
        ) -> httpx.AsyncClient:
            c = httpx.AsyncClient(
                transport=httpx.ASGITransport(app=application, client=(address, 1234)),
                base_url=f"{scheme}://{host}",
            )
            clients.append(c)
            return c

        return client

    yield start
    for c in clients:
        await c.aclose()
    for lifespan in reversed(stack):
        await lifespan.__aexit__(None, None, None)


@pytest.fixture
def smtp(settings: Any) -> Iterator[tuple[dict[str, Any], list[EmailMessage]]]:
    """A real SMTP server on 127.0.0.1 (aiosmtpd): the settings' changes that send to
    it (for ``app_with``), and every message it received."""
    from aiosmtpd.controller import Controller
    from aiosmtpd.handlers import Message

    received: list[EmailMessage] = []

    class Keep(Message):  # type: ignore[misc]
        def handle_message(self, message: Any) -> None:
            received.append(message)

    port = free_port()
    server = Controller(Keep(), hostname="127.0.0.1", port=port)
    server.start()
    try:
        yield {"smtp_host": "127.0.0.1", "smtp_port": port}, received
    finally:
        server.stop()
