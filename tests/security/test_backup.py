"""Issue 40 item 10: a backup taken while the site serves moves, restored into a
fresh site, holds every move acknowledged before it began, and every finished
match's record in it verifies.

On SQLite the backup is ``jackpot backup FILE`` (SQLite's online backup) and the
restore is that file as the new site's database; on PostgreSQL it is what
docs/deploy.md says to do instead, ``pg_dump --format=custom`` and ``pg_restore``
into a new database. Meanwhile one account plays several matches against the bot
over HTTP, resigning each after a few moves (so matches finish all the time) and
starting the next; each acknowledged move is logged with the moment its answer came.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from jackpot.bench.table import next_move
from testdb import create_pg_database, drop_pg_database

#: Repeated on PostgreSQL (make test): backups (pg_dump on PostgreSQL).
pytestmark = pytest.mark.pg

PASSWORD = "correct horse battery"
PLAYERS = 6
#: Seconds of play before the backup, and after it.
BEFORE, AFTER = 3.0, 1.5
ENV = {
    "JACKPOT_MIN_DEADLINE_SECONDS": "60",
    "JACKPOT_ACCOUNT_ACTIVE_MATCHES": "1000",
    "JACKPOT_CONNECTIONS_PER_ADDRESS": "100000",
}


def plain(url: str) -> str:
    return url.replace("+asyncpg", "").replace("+aiosqlite", "")


def jackpot(*args: str, database_url: str, var_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": plain(database_url), "JACKPOT_VAR_DIR": str(var_dir)}
    return subprocess.run([sys.executable, "-m", "jackpot.cli", *args], env=env,
                          capture_output=True, text=True, timeout=300)


class Acks:
    """Every acknowledged move: (match, its seq after the move, when the answer came)."""

    def __init__(self) -> None:
        self.moves: list[tuple[str, int, float]] = []
        self.finished: list[tuple[str, float]] = []


async def play(
    http: httpx.AsyncClient, acks: Acks, stop: asyncio.Event, rng: random.Random
) -> None:
    while not stop.is_set():
        r = await http.post("/api/matches", json={"seats": 2, "bots": 1, "deadline_seconds": 3600})
        assert r.status_code == 201, r.text
        state = r.json()
        for _ in range(rng.randint(4, 30)):
            move = next_move(state)
            if move is None or stop.is_set():
                break
            _seat, action, body = move
            r = await http.post(f"/api/matches/{state['id']}/{action}", json=body)
            assert r.status_code == 200, r.text
            state = r.json()
            acks.moves.append((state["id"], state["seq"], time.monotonic()))
        if state["status"] == "playing":
            r = await http.post(f"/api/matches/{state['id']}/resign")
            assert r.status_code == 200, r.text
            state = r.json()
            acks.moves.append((state["id"], state["seq"], time.monotonic()))
        if state["status"] == "finished":
            acks.finished.append((state["id"], time.monotonic()))


def take_backup(database_url: str, var_dir: Path, target: Path) -> str:
    if database_url.startswith("sqlite"):
        done = jackpot("backup", str(target), database_url=database_url, var_dir=var_dir)
        assert done.returncode == 0, done.stderr
        assert "backed up" in done.stdout
    else:
        subprocess.run(["pg_dump", "--format=custom", f"--file={target}", plain(database_url)],
                       check=True, capture_output=True, timeout=300)
    return str(target)


def restore(database_url: str, backup: Path, var_dir: Path) -> str:
    """A fresh site's database from the backup; its URL."""
    var_dir.mkdir(parents=True)
    if database_url.startswith("sqlite"):
        shutil.copy(backup, var_dir / "restored.sqlite3")
        return f"sqlite:///{var_dir / 'restored.sqlite3'}"
    fresh = create_pg_database()
    subprocess.run(["pg_restore", "--no-owner", f"--dbname={fresh}", str(backup)],
                   check=True, capture_output=True, timeout=300)
    return fresh


async def test_a_backup_in_the_middle_of_play_restores_every_acknowledged_move(  # type: ignore[no-untyped-def]
    serve, database_url, tmp_path
) -> None:
    site = serve(**ENV, JACKPOT_LOGIN_LIMIT="100000/1h")
    acks = Acks()
    stop = asyncio.Event()
    async with httpx.AsyncClient(base_url=site.url, timeout=30) as http:
        r = await http.post("/api/account", json={"email": "ana@example.org",
                                                  "password": PASSWORD, "name": "Ana"})
        assert r.status_code == 201, r.text
        off = {"throws": False, "single_covers": False}
        assert (await http.put("/api/account/autoplay", json=off)).status_code == 200
        players = [asyncio.create_task(play(http, acks, stop, random.Random(i)))
                   for i in range(PLAYERS)]
        await asyncio.sleep(BEFORE)
        began = time.monotonic()
        backup = await asyncio.to_thread(take_backup, database_url, site.var_dir,
                                         tmp_path / "site.backup")
        ended = time.monotonic()
        await asyncio.sleep(AFTER)
        stop.set()
        await asyncio.gather(*players)
    moves_during = [m for m in acks.moves if began <= m[2] <= ended]
    assert moves_during, "the site served no move while the backup ran"

    fresh_url = restore(database_url, Path(backup), tmp_path / "fresh")
    try:
        fresh = serve(on=fresh_url, **ENV)
        try:
            acked: dict[str, int] = {}
            for match_id, seq, when in acks.moves:
                if when < began:
                    acked[match_id] = max(acked.get(match_id, 0), seq)
            assert len(acked) >= PLAYERS
            async with httpx.AsyncClient(base_url=fresh.url, timeout=30) as http:
                for match_id, seq in acked.items():
                    r = await http.get(f"/api/matches/{match_id}")
                    assert r.status_code == 200, (match_id, r.text)
                    assert r.json()["seq"] >= seq, (match_id, r.json()["seq"], seq)
        finally:
            fresh.stop()
        records = tmp_path / "records"
        done = jackpot("export-records", str(records), database_url=fresh_url,
                       var_dir=fresh.var_dir)
        assert done.returncode == 0, done.stderr
        exported = {p.stem for p in records.glob("*.json")}
        finished_before = {m for m, when in acks.finished if when < began}
        assert finished_before and finished_before <= exported
        for path in sorted(records.glob("*.json")):
            verified = subprocess.run([sys.executable, "-m", "jackpot.cli", "verify", str(path)],
                                      capture_output=True, text=True, timeout=60)
            assert verified.returncode == 0, (path.name, verified.stdout, verified.stderr)
            assert json.loads(path.read_text())["result"] is not None
    finally:
        if not fresh_url.startswith("sqlite"):
            drop_pg_database(fresh_url)


def test_backup_refuses_postgresql_and_says_pg_dump(tmp_path: Path) -> None:
    done = jackpot("backup", str(tmp_path / "x"), var_dir=tmp_path,
                   database_url="postgresql://jackpot:secret@db.example/jackpot")
    assert done.returncode == 2
    assert "pg_dump" in done.stderr and "secret" not in done.stderr
    assert not (tmp_path / "x").exists()
