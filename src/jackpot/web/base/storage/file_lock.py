"""The SQLite writer's lock across processes, waited for off the event loop.

Each process on one SQLite file has its one writer connection (db.py). Left to
SQLite, a second process's ``BEGIN IMMEDIATE`` retries in SQLite's busy handler,
which sleeps 1, 2, 5, 10... ms between tries *on the event loop's thread*: that
process serves no socket while it waits, and it wakes up late. So two server
processes did no more than one, with a p99 three times as long, and a `jackpot
sweep` beside the server stalled it the same way (docs/benchmarks.md). An
``flock`` on a file beside the database, taken before BEGIN and given back right
after COMMIT, decides who writes next; a waiting process learns on a thread that it
is free while its loop goes on serving sockets. The kernel drops the lock of
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
    (``Database.write`` holds its asyncio lock around it).

    A waiter is told on a thread when the lock is free, and takes it on the loop,
    when its task runs: a lock taken on the thread would be held, idle, for the loop
    iteration the task waits to resume, while the other processes wait too (under
    the load benchmark that was a third of the time the lock was held)."""

    def __init__(self, path: Path, timeout: float) -> None:
        self._path = path
        self._fd = -1
        #: The waiting thread's own descriptor: its ``flock`` calls must never touch
        #: the lock this process holds through ``_fd``.
        self._wait_fd = -1
        self._timeout = timeout
        #: The thread waiting until the lock is free, while there is one (a caller
        #: that gave up leaves it running, and the next one waits on it).
        self._waiting: asyncio.Future[None] | None = None

    async def acquire(self) -> None:
        """Hold the lock, waiting (on a thread) while another process has it; after
        ``timeout`` seconds the same error SQLite gives ("database is locked")."""
        if self._fd < 0:  # opened on first use, and again after ``close``
            self._fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o600)
            self._wait_fd = os.open(self._path, os.O_RDWR)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._timeout
        while True:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                pass
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise sqlite3.OperationalError("database is locked")
            waiting = self._waiting
            if waiting is None or waiting.done():
                waiting = self._waiting = loop.run_in_executor(None, self._until_free)
            try:
                await asyncio.wait_for(asyncio.shield(waiting), remaining)
            except TimeoutError:
                raise sqlite3.OperationalError("database is locked") from None

    def _until_free(self) -> None:
        """On a thread: return once nobody holds the lock, without keeping it."""
        fcntl.flock(self._wait_fd, fcntl.LOCK_EX)
        fcntl.flock(self._wait_fd, fcntl.LOCK_UN)

    def release(self) -> None:
        """Give the lock back; nothing if it is not held. Safe from any thread (the
        writer's commit thread gives it back right after COMMIT, sqlite_inline.py)."""
        if self._fd >= 0:
            fcntl.flock(self._fd, fcntl.LOCK_UN)

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(self, *exc: object) -> None:
        self.release()

    def close(self) -> None:
        """Give the lock back, and let go of the file once no thread waits on it.
        Given back first: a wait this lock gave up may still be running on a thread
        and, the lock taken on the loop since, be waiting for this very lock (the
        loop's shutdown would wait for that thread for ever)."""
        self.release()
        if self._fd >= 0 and (self._waiting is None or self._waiting.done()):
            for fd in (self._fd, self._wait_fd):
                with contextlib.suppress(OSError):
                    os.close(fd)
            self._fd = self._wait_fd = -1
