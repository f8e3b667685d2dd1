"""WAL checkpoints on their own thread: the database file catches up with the WAL
without any writer's COMMIT doing it."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from jackpot.web.base.storage.db import Database
from jackpot.web.base.storage.sqlite_checkpoint import MAX_WAL_PAGES, Checkpointer


async def test_the_checkpointer_copies_the_wal_into_the_database(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA wal_autocheckpoint=0")  # no COMMIT checkpoints here
    conn.execute("CREATE TABLE t (s TEXT)")
    for _ in range(20):
        conn.executemany("INSERT INTO t VALUES (?)", [("x" * 1000,) for _ in range(100)])
    assert path.stat().st_size < 100_000  # it is all in the WAL
    checkpointer = Checkpointer(str(path), interval=0.05)
    try:
        for _ in range(100):
            if path.stat().st_size > 1_000_000:
                break
            await asyncio.sleep(0.05)
        assert path.stat().st_size > 1_000_000
    finally:
        checkpointer.stop()
        conn.close()


async def test_the_writer_leaves_checkpoints_to_it(tmp_path: Path) -> None:
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'j.sqlite3'}")
    try:
        async with db.write() as conn:
            pages = (await conn.exec_driver_sql("PRAGMA wal_autocheckpoint")).scalar()
        assert pages == MAX_WAL_PAGES
    finally:
        await db.dispose()
