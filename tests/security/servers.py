"""A real `jackpot serve` for the security tests, with its own settings and limits.

On PostgreSQL when JACKPOT_TEST_DATABASE_URL is set (a fresh database, dropped
after), else on SQLite in the test's directory.
"""

from __future__ import annotations

import contextlib
import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from testdb import create_pg_database, drop_pg_database


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running_server(
    var_dir: Path, env: dict[str, str], open_files: int | None = None
) -> Iterator[str]:
    """The base URL of a server with ``env`` added, its soft open-file limit set to
    ``open_files``; stopped (and its database dropped) on leaving."""
    port = free_port()
    full = {**os.environ, "JACKPOT_VAR_DIR": str(var_dir), **env}
    full.pop("DATABASE_URL", None)
    pg_url = None
    if os.environ.get("JACKPOT_TEST_DATABASE_URL"):
        pg_url = full["DATABASE_URL"] = create_pg_database()

    def limit_files() -> None:
        if open_files is not None:
            _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, hard))

    log = open(var_dir / "server.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-m", "jackpot.cli", "serve", "--port", str(port),
         "--log-level", "warning"],
        env=full,
        stdout=log,
        stderr=subprocess.STDOUT,
        preexec_fn=limit_files,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            if proc.poll() is not None:
                raise RuntimeError((var_dir / "server.log").read_text())
            try:
                if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise RuntimeError("the server did not start")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        if pg_url is not None:
            drop_pg_database(pg_url)
