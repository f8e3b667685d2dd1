"""Shared fixtures: an app on a fresh SQLite file, HTTP clients, a real server.

API tests drive the ASGI app in-process (fast, no sockets). Tests that need a
genuine stream (SSE) or a browser use ``live_server``: a real ``jackpot serve``
process on a free port with its own database and a short minimum deadline.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import processes
from testdb import (
    app_url,
    create_pg_database,
    database_from,
    drop_pg_database,
    migrated_template,
    sqlite_url,
)

CHROMIUM = "/usr/bin/chromium"
#: Per-address limits for test servers whose many players all come from 127.0.0.1.
MANY_PLAYERS_ONE_ADDRESS = {
    "JACKPOT_SIGNUP_LIMIT": "100000/1h",
    "JACKPOT_SIGNUP_TRY_LIMIT": "100000/1h",
    "JACKPOT_NAME_LOOKUP_LIMIT": "100000/1h",
    "JACKPOT_LOGIN_LIMIT": "100000/1h",
    "JACKPOT_PASSWORD_CHANGE_LIMIT": "100000/1h",
    "JACKPOT_RESET_LIMIT": "100000/1h",
    "JACKPOT_GUESTS_PER_ADDRESS_HOUR": "100000",
    "JACKPOT_COMMITMENT_LIMIT": "100000/1h",
}
#: argon2 at its lowest cost: the suite signs up thousands of accounts, and what it
#: checks there is not argon2. Set for every server process the tests start too; the
#: tests about hashing (marked ``real_password_cost``) keep the production default.
CHEAP_HASHING = {"hash_time_cost": 1, "hash_memory_kib": 32}
os.environ.setdefault("JACKPOT_HASH_TIME_COST", str(CHEAP_HASHING["hash_time_cost"]))
os.environ.setdefault("JACKPOT_HASH_MEMORY_KIB", str(CHEAP_HASHING["hash_memory_kib"]))

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The database every test's ``database_url`` copies, migrated once per test
    process (tests/testdb.py)."""
    template = migrated_template(tmp_path_factory.mktemp("template"))
    yield template
    if template.startswith("postgresql://"):
        drop_pg_database(template)


@pytest.fixture
def database_url(tmp_path: Path, migrated_database: str) -> Iterator[str]:
    """SQLite by default; with JACKPOT_TEST_DATABASE_URL a fresh PostgreSQL database
    per test, dropped after (tests/testdb.py), so the suite runs on both. Migrated
    already: a copy of ``migrated_database``."""
    url = database_from(migrated_database, tmp_path)
    try:
        yield url
    finally:
        if not url.startswith("sqlite"):
            drop_pg_database(url)


@pytest.fixture
def empty_database_url(tmp_path: Path) -> Iterator[str]:
    """Like ``database_url`` but empty, for the tests of the migrations themselves."""
    if not os.environ.get("JACKPOT_TEST_DATABASE_URL"):
        yield sqlite_url(tmp_path)
        return
    url = create_pg_database()
    try:
        yield app_url(url)
    finally:
        drop_pg_database(url)


@pytest.fixture
def settings(request: pytest.FixtureRequest, tmp_path: Path, database_url: str) -> Any:
    from jackpot.web.base.settings import Settings

    cost = {} if request.node.get_closest_marker("real_password_cost") else CHEAP_HASHING
    return Settings(
        **cost,
        database_url=database_url,
        secret_key="test-secret-key-0123456789abcdef",
        var_dir=tmp_path,
        min_deadline_seconds=1,
        outbox_dir=tmp_path / "outbox",
        sweeper_in_process=False,
        # httpx's in-process clients send Host: testserver
        allowed_hosts=("testserver",),
    )


@pytest.fixture
async def app(settings: Any) -> AsyncIterator[Any]:
    from jackpot.web.app import create_app

    application = create_app(settings)
    async with application.router.lifespan_context(application):
        yield application


ClientFactory = Callable[[], Awaitable[httpx.AsyncClient]]


@pytest.fixture
async def make_client(app: Any) -> AsyncIterator[ClientFactory]:
    """Each client is one browser or program, with its own cookie jar."""
    clients: list[httpx.AsyncClient] = []

    async def make() -> httpx.AsyncClient:
        c = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app, client=(f"10.0.0.{len(clients) + 1}", 1234)),
            base_url="http://testserver",
        )
        clients.append(c)
        return c

    yield make
    for c in clients:
        await c.aclose()


@pytest.fixture
async def client(make_client: ClientFactory) -> httpx.AsyncClient:
    return await make_client()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    def __init__(self, url: str, var_dir: Path, database_url: str) -> None:
        self.url = url
        self.var_dir = var_dir
        #: The server's database, for tests that change a row behind its back.
        self.database_url = database_url


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    var_dir = tmp_path_factory.mktemp("live")
    port = free_port()
    env = {
        **os.environ,
        "JACKPOT_VAR_DIR": str(var_dir),
        "JACKPOT_MIN_DEADLINE_SECONDS": "2",
        "JACKPOT_SWEEP_INTERVAL": "0.2",
        "JACKPOT_SSE_KEEPALIVE_SECONDS": "0.5",
        # every browser test's players come from 127.0.0.1
        **MANY_PLAYERS_ONE_ADDRESS,
    }
    env.pop("DATABASE_URL", None)
    pg_url = None
    if os.environ.get("JACKPOT_TEST_DATABASE_URL"):
        pg_url = env["DATABASE_URL"] = create_pg_database()
    log = open(var_dir / "server.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jackpot.cli",
            "serve",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    else:
        proc.kill()
        raise RuntimeError("the test server did not start")
    if proc.poll() is not None:
        raise RuntimeError((var_dir / "server.log").read_text())
    yield LiveServer(url, var_dir, pg_url or f"sqlite:///{var_dir / 'jackpot.sqlite3'}")
    processes.stop(proc, grace=10)
    log.close()
    if pg_url is not None:
        drop_pg_database(pg_url)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright: Debian's Chromium, never a downloaded browser."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}
