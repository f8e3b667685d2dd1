"""Database connections: one serialised writer, several readers.

Measured on a 2-core machine like ours: SQLite writes from many connections fight
over the write lock and give p99 latencies over a second, while a single writer
connection, serialised, gives steady latency (p99 45 ms at 1,700 inserts a second).
So on SQLite every write goes through one connection behind an asyncio lock, in WAL
mode with ``synchronous=NORMAL`` and ``BEGIN IMMEDIATE`` (the lock is taken at the
start of the transaction, never upgraded halfway through). Reads use their own
connections and never wait for it. A write transaction on SQLite must not wait for
anything else (a thread, the network) while it holds the lock: every other writer
would queue behind it, and an asyncio lock's queue drains only one writer per loop
iteration. Other processes on the same file (more server workers, `jackpot sweep`)
take turns with it through an ``flock`` waited for on a thread (file_lock.py), not in
SQLite's busy handler on the loop. On PostgreSQL the writer is an ordinary pool; the
conditional UPDATEs in the actions keep racing writers correct there.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Table, event
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from jackpot.web.base.identity import DIRTY, ActorCache
from jackpot.web.base.live.bus import EventBus
from jackpot.web.base.private_files import create_private, private_dir
from jackpot.web.base.storage import sqlite_inline
from jackpot.web.base.storage.deferred import DEFERRED, send_alone, send_before_core, send_deferred
from jackpot.web.base.storage.file_lock import FileLock
from jackpot.web.base.storage.group_commit import AFTER_COMMIT, GroupCommit
from jackpot.web.base.storage.migrate import upgrade_connection
from jackpot.web.base.storage.sqlite_checkpoint import MAX_WAL_PAGES, Checkpointer

#: PostgreSQL advisory lock key held while migrating (any constant unique to this app).
MIGRATION_LOCK = 0x6A61636B706F74
#: Seconds a SQLite writer waits for another process's transaction before giving up.
BUSY_TIMEOUT = 10.0


def _sqlite_path(url: str) -> Path | None:
    prefix = "sqlite+aiosqlite:///"
    if not url.startswith(prefix):
        return None
    rest = url[len(prefix) :].split("?")[0]
    return None if rest in {"", ":memory:"} else Path(rest)


def _setup_sqlite(engine: AsyncEngine, *, writer: bool) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" hook issue BEGIN itself (pysqlite's own
        # transaction handling would start DEFERRED transactions).
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT * 1000)}")
        if writer:
            # Checkpoints are the Checkpointer's; a COMMIT makes one only past this.
            cur.execute(f"PRAGMA wal_autocheckpoint={MAX_WAL_PAGES}")
        cur.close()

    begin = "BEGIN IMMEDIATE" if writer else "BEGIN"

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        driver = conn.connection.driver_connection
        if isinstance(driver, sqlite_inline.InlineConnection):
            # Straight to SQLite: this runs once per transaction, and a statement
            # through SQLAlchemy's execution machinery costs more than SQLite's work.
            driver.sqlite.execute(begin)
        else:
            conn.exec_driver_sql(begin)


#: Key in a write connection's ``info``: (channel, events) pairs that ``Database.write``
#: publishes on its bus once the transaction has committed (``publish_on_commit``).
OUTBOX = "jackpot.outbox"


def after_commit(conn: AsyncConnection, hook: Callable[[], None]) -> None:
    """Run ``hook`` once this write transaction has committed, never if it rolls back
    (``Database.write``; a group-committed batch that fails runs each move again, and
    only the hooks of the run that commits are kept)."""
    info = conn.sync_connection.info  # type: ignore[union-attr]
    info.setdefault(AFTER_COMMIT, []).append(hook)


def publish_on_commit(
    conn: AsyncConnection, channel: str, events: Sequence[dict[str, Any]]
) -> None:
    """Live events that go out on the bus once this transaction has committed: every
    action queues its events here, so nobody sees an event the database could still
    roll back, and no caller has to remember to publish them."""
    if events:
        info = conn.sync_connection.info  # type: ignore[union-attr]
        info.setdefault(OUTBOX, []).append((channel, list(events)))


class Database:
    """The app's engines; ``write()`` for transactions that change data, ``read()`` else.

    ``bus``: where the live events of committed transactions go (``publish_on_commit``);
    one of its own, heard by nobody, when none is given (a tool that only reads)."""

    def __init__(self, url: str, bus: EventBus | None = None) -> None:
        self.url = url
        self.bus = bus if bus is not None else EventBus()
        self.is_sqlite = url.startswith("sqlite")
        #: SQLite's writer lock as other processes on the file see it (file_lock.py).
        self._file_lock: FileLock | None = None
        #: WAL checkpoints off the writers' COMMITs (sqlite_checkpoint.py).
        self._checkpointer: Checkpointer | None = None
        if self.is_sqlite:
            path = _sqlite_path(url)
            if path is not None:
                private_dir(path.parent)
                create_private(path)
            # A file database is called inline, without aiosqlite's thread hop per
            # call (sqlite_inline.py says why); an in-memory one keeps aiosqlite.
            writer: dict[str, Any] = {}
            reader: dict[str, Any] = {}
            if path is not None:
                lock_path = path.with_name(path.name + "-writer.lock")
                self._file_lock = FileLock(lock_path, BUSY_TIMEOUT)
                writer["async_creator"] = sqlite_inline.creator(
                    str(path), commit_thread=True, after_commit=self._file_lock.release
                )
                reader["async_creator"] = sqlite_inline.creator(str(path))
                self._checkpointer = Checkpointer(str(path))
            self.writer = create_async_engine(url, pool_size=1, max_overflow=0, **writer)
            self.reader = create_async_engine(url, pool_size=4, max_overflow=4, **reader)
            _setup_sqlite(self.writer, writer=True)
            _setup_sqlite(self.reader, writer=False)
        else:
            self.writer = create_async_engine(url, pool_size=10, max_overflow=10)
            self.reader = self.writer
        send_before_core(self.writer)
        self._write_lock = asyncio.Lock() if self.is_sqlite else None
        self._writer_conn: AsyncConnection | None = None
        #: PostgreSQL's connection for the move batches, kept checked out (moves_write).
        self._moves_conn: AsyncConnection | None = None
        #: Throws and covers: those arriving together share a transaction.
        self.moves = GroupCommit(self.write if self.is_sqlite else self.moves_write)
        #: Who each credential belongs to, for a while (identity.ActorCache).
        self.actors = ActorCache()
        self.actors.watch(self.writer)
        if self.reader is not self.writer:
            self.actors.watch(self.reader)

    @asynccontextmanager
    async def moves_write(self) -> AsyncIterator[AsyncConnection]:
        """``write()`` on PostgreSQL for the move batches, on a connection kept out of
        the pool: the batches run one at a time (group_commit.py), and at a steady pace
        a batch is one move, whose pool checkout and return cost about as much CPU as
        its statement (docs/benchmarks.md)."""
        conn = self._moves_conn
        if conn is None or conn.closed or conn.invalidated:
            conn = self._moves_conn = await self.writer.connect()
        async with self.write(conn) as same:
            yield same

    @asynccontextmanager
    async def _begin_pg(self, kept: AsyncConnection | None) -> AsyncIterator[AsyncConnection]:
        """A PostgreSQL transaction on ``kept``, or on a connection from the pool."""
        if kept is None:
            async with self.writer.begin() as conn:
                yield conn
        else:
            async with kept.begin():
                yield kept

    @asynccontextmanager
    async def write(self, kept: AsyncConnection | None = None) -> AsyncIterator[AsyncConnection]:
        """One transaction on the writer (on PostgreSQL, on ``kept`` if given); committed
        on leaving, rolled back on error. What it deferred (deferred.py) is sent before
        the COMMIT; once it committed, its ``after_commit`` hooks run and then the
        events it queued with ``publish_on_commit`` go out on the bus, in order."""
        info: dict[Any, Any] = {}
        try:
            if self._write_lock is None:
                async with self._begin_pg(kept) as conn:
                    info = conn.sync_connection.info  # type: ignore[union-attr]
                    info.pop(AFTER_COMMIT, None)
                    yield conn
                    if DEFERRED in info and not await send_alone(conn):
                        await conn.run_sync(send_deferred)
            else:
                async with self._write_lock:
                    conn = await self._sqlite_writer()
                    async with self._file_lock or contextlib.nullcontext(), conn.begin():
                        info = conn.sync_connection.info  # type: ignore[union-attr]
                        info.pop(AFTER_COMMIT, None)
                        yield conn
                        if DEFERRED in info:
                            await conn.run_sync(send_deferred)
            for hook in info.pop(AFTER_COMMIT, ()):
                hook()
            for channel, events in info.pop(OUTBOX, ()):
                self.bus.post(channel, events)
        finally:
            info.pop(AFTER_COMMIT, None)
            info.pop(OUTBOX, None)
            info.pop(DEFERRED, None)  # rolled back: nothing of it is sent
            # A transaction that changed users or credentials has now ended: forget
            # what readers may have cached from the rows it replaced.
            if info.pop(DIRTY, False):
                self.actors.changed()

    async def _sqlite_writer(self) -> AsyncConnection:
        """SQLite's one writer connection, kept open between transactions.

        Checking a connection out of SQLAlchemy's pool suspends the task for a loop
        iteration (the pool waits with a timeout); doing that while holding the
        write lock made every other writer queue behind it, and under load the
        queue never drained: writes waited ~20 ms for the lock while each took
        under 1 ms (docs/benchmarks.md). Kept open, taking the lock and beginning
        never suspends.
        """
        conn = self._writer_conn
        if conn is None or conn.closed or conn.invalidated:
            conn = self._writer_conn = await self.writer.connect()
        return conn

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncConnection]:
        async with self.reader.connect() as conn:
            yield conn

    async def upgrade(self) -> None:
        """Apply the Alembic migrations (creating the database file if needed)."""
        async with self.write() as conn:
            if not self.is_sqlite:
                # Several `jackpot serve` workers and `jackpot sweep` processes start
                # together: one migrates, the others wait here and then find nothing
                # to do (two CREATE TABLEs at once would fail one of them).
                await conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            await conn.run_sync(upgrade_connection)

    async def dispose(self) -> None:
        if self._moves_conn is not None:
            await self._moves_conn.close()
            self._moves_conn = None
        if self._writer_conn is not None:
            await self._writer_conn.close()
            self._writer_conn = None
        await self.writer.dispose()
        if self._file_lock is not None:
            self._file_lock.close()
        if self._checkpointer is not None:
            self._checkpointer.stop()
            self._checkpointer = None
        if self.reader is not self.writer:
            await self.reader.dispose()


def insert_ignore(conn: AsyncConnection, table: Table, key: str) -> Any:
    """An INSERT that quietly skips a row whose ``key`` exists (both databases speak
    ON CONFLICT DO NOTHING, each in its own dialect)."""
    insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
    return insert(table).on_conflict_do_nothing(index_elements=[key])


def upsert(
    conn: AsyncConnection, table: Table, key: tuple[str, ...], added: tuple[str, ...]
) -> Any:
    """An INSERT whose row, where one with the same ``key`` exists, updates it instead:
    the ``added`` columns by adding the new values to their own, the others replaced.
    One statement for rows old and new, where a read and an UPDATE or INSERT per row
    would each be a round trip."""
    stmt = (pg_insert if conn.dialect.name == "postgresql" else sqlite_insert)(table)
    new = stmt.excluded
    return stmt.on_conflict_do_update(
        index_elements=list(key),
        set_={
            c.name: c + new[c.name] if c.name in added else new[c.name]
            for c in table.columns
            if c.name not in key
        },
    )
