"""SQLite for SQLAlchemy's asyncio engine without a thread hop per call.

aiosqlite runs each connection in its own thread and sends every call there and
back (execute, fetch, cursor close, commit... about 40 round trips for one throw),
each costing a queue put, a thread wake-up and an event-loop wake-up. Profiled
under the benchmark (docs/benchmarks.md) that was most of an action's time, while
the SQLite work itself is a few microseconds per statement: in WAL mode readers
never wait, and ``synchronous=NORMAL`` does not fsync at commit.

So this module makes the calls directly on the event-loop thread, behind the same
interface as aiosqlite's objects (what SQLAlchemy's aiosqlite dialect uses), and
``Database`` plugs it in through ``async_creator``. The cost is that the loop is
blocked for the duration of each SQLite call: microseconds, except when another
*process* holds the write lock (a ``jackpot sweep`` on the same file), when the
writer waits up to ``busy_timeout``. That is why several processes should use
PostgreSQL (docs/deploy.md); SQLite is the one-process default.

The one exception is the writer's COMMIT of a large batch: SQLite writing its pages
to the WAL was a tenth of the server's time under load, spent with the GIL
released. It runs on a thread of its own, so the loop serves sockets meanwhile on
the other core (+9 % actions/s measured, docs/benchmarks.md); a small one runs
inline (``INLINE_COMMIT_ROWS``). The caller still resumes only once
the commit has returned: nothing is acknowledged before it is durable, and nothing
else touches the connection meanwhile (``Database.write`` holds its lock).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

#: A writer's COMMIT of at most this many changed rows (about six moves) runs on
#: the loop thread: writing their few pages takes tens of microseconds, less than
#: the hop to the commit thread and back (~0.1 ms of CPU: a queue, a thread and a
#: loop wake-up), which at a steady pace, where batches are small, was a quarter of
#: a move's CPU (bench/action_cost.py --matches 2, docs/benchmarks.md).
INLINE_COMMIT_ROWS = 32


class InlineCursor:
    __slots__ = ("_cur",)

    def __init__(self, cur: sqlite3.Cursor) -> None:
        self._cur = cur

    async def __aenter__(self) -> InlineCursor:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._cur.close()

    @property
    def description(self) -> Any:
        return self._cur.description

    @property
    def rowcount(self) -> int:
        return self._cur.rowcount

    @property
    def lastrowid(self) -> int | None:
        return self._cur.lastrowid

    @property
    def arraysize(self) -> int:
        return self._cur.arraysize

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        self._cur.arraysize = value

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> InlineCursor:
        self._cur.execute(sql, parameters)
        return self

    async def executemany(self, sql: str, seq: Iterable[Sequence[Any]]) -> InlineCursor:
        self._cur.executemany(sql, seq)
        return self

    async def fetchone(self) -> Any:
        return self._cur.fetchone()

    async def fetchmany(self, size: int | None = None) -> list[Any]:
        return self._cur.fetchmany(size if size is not None else self._cur.arraysize)

    async def fetchall(self) -> list[Any]:
        return self._cur.fetchall()

    async def close(self) -> None:
        self._cur.close()

    async def setinputsizes(self, *sizes: Any) -> None:
        return None

    async def nextset(self) -> None:
        return None


class _RunNow:
    """Stands in for aiosqlite's request queue, which SQLAlchemy's isolation-level
    setter uses directly: run the function now and resolve its future."""

    def put_nowait(self, item: tuple[Any, Callable[[], Any]]) -> None:
        future, function = item
        try:
            result = function()
        except Exception as exc:  # handed to the awaiting caller
            future.set_exception(exc)
        else:
            future.set_result(result)


class InlineConnection:
    def __init__(
        self,
        conn: sqlite3.Connection,
        commits: ThreadPoolExecutor | None = None,
        after_commit: Callable[[], None] | None = None,
    ) -> None:
        self._conn = conn
        self._connection: sqlite3.Connection | None = conn
        self._tx = _RunNow()
        self._commits = commits
        self._after_commit = after_commit
        #: ``total_changes`` when the last transaction ended: what the open one changed
        #: is the difference.
        self._changes_before = conn.total_changes

    @property
    def sqlite(self) -> sqlite3.Connection:
        """The sqlite3 connection itself, for callers that skip the async interface
        (play/storage/match_sql.py)."""
        return self._conn

    @property
    def isolation_level(self) -> str | None:
        return self._conn.isolation_level

    def cursor(self) -> InlineCursor:
        return InlineCursor(self._conn.cursor())

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> InlineCursor:
        return InlineCursor(self._conn.execute(sql, parameters))

    async def commit(self) -> None:
        changed = self._conn.total_changes - self._changes_before
        if self._commits is None or changed <= INLINE_COMMIT_ROWS:
            self._commit()
        else:
            await asyncio.get_running_loop().run_in_executor(self._commits, self._commit)

    def _commit(self) -> None:
        self._conn.commit()
        self._changes_before = self._conn.total_changes
        if self._after_commit is not None:
            self._after_commit()

    async def rollback(self) -> None:
        self._conn.rollback()
        self._changes_before = self._conn.total_changes

    async def create_function(self, *args: Any, **kw: Any) -> None:
        self._conn.create_function(*args, **kw)

    async def close(self) -> None:
        if self._connection is not None:
            self._connection = None
            self._conn.close()

    def stop(self) -> None:
        if self._connection is not None:
            self._connection = None
            self._conn.close()


def creator(
    path: str, commit_thread: bool = False, after_commit: Callable[[], None] | None = None
) -> Callable[[], Any]:
    """An ``async_creator`` for ``create_async_engine`` opening ``path``;
    ``commit_thread``: its connections commit on a thread of their own (the writer);
    ``after_commit`` runs right after each COMMIT, on that thread: the writer's
    lock across processes is given back there, not a loop iteration later, when the
    committing task resumes (the other processes' writers wait for it meanwhile)."""
    commits = ThreadPoolExecutor(1, thread_name_prefix="sqlite-commit") if commit_thread else None

    async def connect() -> InlineConnection:
        # check_same_thread=False: commits run on their own thread, and the pool may
        # close a connection from the garbage collector's thread at interpreter exit.
        conn = sqlite3.connect(path, check_same_thread=False)
        return InlineConnection(conn, commits, after_commit)

    return connect
