"""The SQLite writer's lock across processes, waited for off the event loop.

Each process on one SQLite file has its one writer connection (db.py). Left to
SQLite, a second process's ``BEGIN IMMEDIATE`` retries in SQLite's busy handler,
which sleeps 1, 2, 5, 10... ms between tries *on the event loop's thread*: that
process serves no socket while it waits, and it wakes up late. So two server
processes did no more than one, with a p99 three times as long, and a `jackpot
sweep` beside the server stalled it the same way (docs/benchmarks.md). An
``flock`` on a file beside the database, taken before BEGIN and given back after
COMMIT, hands the write over the moment the holder lets go, and the wait happens
on a thread while the loop goes on serving sockets. The kernel drops the lock of
a process that dies, and SQLite's own locking stays in force underneath: this
only decides who tries next.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import sqlite3
from pathlib import Path


class FileLock:
    """An exclusive ``flock`` on ``path``, for one task at a time in this process
    (``Database.write`` holds its asyncio lock around it)."""

    def __init__(self, path: Path, timeout: float) -> None:
        self._path = path
        self._fd = -1
        self._timeout = timeout
        #: The wait on a thread for the lock, while there is one; ``_claimed`` while
        #: a caller awaits it. One given up (cancelled, out of time) gives the lock
        #: back as soon as it gets it, unless a new caller has claimed it meanwhile.
        self._waiting: asyncio.Future[None] | None = None
        self._claimed = False

    async def acquire(self) -> None:
        """Hold the lock, waiting on a thread if another process has it; after
        ``timeout`` seconds the same error SQLite gives ("database is locked")."""
        if self._fd < 0:  # opened on first use, and again after ``close``
            self._fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o600)
        waiting = self._waiting
        if waiting is None:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                loop = asyncio.get_running_loop()
                waiting = loop.run_in_executor(None, fcntl.flock, self._fd, fcntl.LOCK_EX)
                waiting.add_done_callback(self._taken)
                self._waiting = waiting
        self._claimed = True
        try:
            await asyncio.wait_for(asyncio.shield(waiting), self._timeout)
        except TimeoutError:
            raise sqlite3.OperationalError("database is locked") from None
        finally:
            self._claimed = False
            if waiting.done():
                self._waiting = None

    def _taken(self, waiting: asyncio.Future[None]) -> None:
        """The thread got the lock (or failed): runs before the caller resumes."""
        if self._claimed:
            return
        self._waiting = None
        if not waiting.cancelled() and waiting.exception() is None:
            self.release()

    def release(self) -> None:
        fcntl.flock(self._fd, fcntl.LOCK_UN)

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(self, *exc: object) -> None:
        self.release()

    def close(self) -> None:
        """Let go of the file (and so of the lock, should a wait given up hold it)."""
        if self._fd >= 0 and self._waiting is None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = -1
