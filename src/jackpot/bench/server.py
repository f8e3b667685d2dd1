"""The server under test: ``jackpot serve`` on a fresh database, and what its
processes use (read from /proc, so the load generator's own use is kept apart)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from jackpot.bench.client import Connection, HTTPError

DEFAULT_REDIS = "redis://127.0.0.1:6379/0"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def pg_admin_sql(url: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql://", "postgres://", 1), timeout=10)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


class Server:
    """``jackpot serve`` on a fresh database (SQLite file or new PostgreSQL database)."""

    def __init__(self, db: str, workers: int, redis: bool, pg_admin: str) -> None:
        self.db = db
        self.workers = workers
        self.redis = redis
        self.pg_admin = pg_admin
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="jackpot-bench-"))
        self.pg_name: str | None = None
        self.proc: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        env = {**os.environ, "JACKPOT_VAR_DIR": str(self.dir),
               "JACKPOT_SECRET_KEY": secrets.token_hex(16),
               # Every benchmark player comes from this one address: the limits a
               # stranger meets per address would stop the benchmark, not measure it.
               "JACKPOT_SIGNUP_LIMIT": "1000000/1h",
               "JACKPOT_SIGNUP_TRY_LIMIT": "1000000/1h",
               "JACKPOT_CONNECTIONS_PER_ADDRESS": "1000000",
               "JACKPOT_LOGIN_LIMIT": "1000000/1h",
               "JACKPOT_STREAMS_PER_ADDRESS": "100000",
               "JACKPOT_ACCOUNT_ACTIVE_MATCHES": "100000"}
        env.pop("JACKPOT_REDIS_URL", None)
        env.pop("DATABASE_URL", None)
        if self.db == "postgresql":
            self.pg_name = "jackpot_bench_" + secrets.token_hex(4)
            await pg_admin_sql(self.pg_admin, f'CREATE DATABASE "{self.pg_name}"')
            parts = urlsplit(self.pg_admin)
            query = f"?{parts.query}" if parts.query else ""
            env["DATABASE_URL"] = f"{parts.scheme}://{parts.netloc}/{self.pg_name}{query}"
        if self.redis:
            env["JACKPOT_REDIS_URL"] = os.environ.get("JACKPOT_REDIS_URL") or DEFAULT_REDIS
        cmd = [sys.executable, "-m", "jackpot.cli", "serve", "--port", str(self.port),
               "--log-level", "warning", "--workers", str(self.workers)]
        with open(self.dir / "server.log", "wb") as log:
            self.proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
        for _ in range(300):
            if self.proc.poll() is not None:
                raise RuntimeError((self.dir / "server.log").read_text())
            with contextlib.suppress(OSError, HTTPError):
                c = Connection("127.0.0.1", self.port)
                status, _ = await c.request("GET", "/api/health")
                await c.close()
                if status == 200 and len(self.pids()) >= self.workers:
                    await asyncio.sleep(0.5 if self.workers > 1 else 0)
                    return
            await asyncio.sleep(0.1)
        raise RuntimeError("the server did not start")

    def pids(self) -> list[int]:
        """The server's processes: the one started, and its workers if any."""
        if self.proc is None:
            return []
        return [self.proc.pid, *children(self.proc.pid)]

    async def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.to_thread(self.proc.wait, 20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        if self.pg_name is not None:
            await pg_admin_sql(
                self.pg_admin, f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)')


def children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry))
    return out


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


def cpu_seconds(pids: list[int]) -> float:
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / tick


def self_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime
