"""SQLite's WAL checkpoints on a thread of their own, out of the writers' COMMITs.

Left to SQLite, the COMMIT that takes the WAL past ``wal_autocheckpoint`` pages
copies it back into the database file, with two fsyncs, while it holds the write
lock: under load every few batches. One process paid for it only in latency (its
commit runs on a thread); with several processes on the file every other writer
waited through it too (``file_lock.py``), and two server processes did 11-14 % more
moves a second with the checkpoints here (docs/benchmarks.md). A PASSIVE checkpoint
takes no write lock: writers go on meanwhile. The writers' own automatic checkpoint
stays as a bound (``MAX_WAL_PAGES``), should this thread fall behind.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading

#: Seconds between checkpoints.
INTERVAL = 0.2
#: WAL pages past which a writer's COMMIT checkpoints anyway (4 KB pages: 80 MB).
MAX_WAL_PAGES = 20_000


class Checkpointer:
    """A daemon thread checkpointing the WAL of the database at ``path`` every
    ``interval`` seconds on its own connection, until ``stop``."""

    def __init__(self, path: str, interval: float = INTERVAL) -> None:
        self._path = path
        self._interval = interval
        self._stopping = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name="sqlite-checkpoint", daemon=True
        )
        self._thread.start()

    def _run(self) -> None:
        conn = sqlite3.connect(self._path, check_same_thread=False)
        try:
            while not self._stopping.wait(self._interval):
                # Busy (another checkpoint or a writer's own): the next one catches up.
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        finally:
            conn.close()

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=5)
