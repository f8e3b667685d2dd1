"""The statements of a move as plain SQL on the transaction's own driver connection.

A move runs about seven statements. Through SQLAlchemy Core each one cost
60-100 microseconds of Python (execution context, compiled-cache lookup, result
proxy, type processors) while SQLite itself needs a few: under the load benchmark
that machinery was a third of the server's time (docs/benchmarks.md). So the
moves run their statements here, directly on the DBAPI connection SQLAlchemy has
already opened and begun (``Connection.connection.dbapi_connection``), inside
the same transaction that ``Database.write`` commits. Everything else (creating,
joining, the sweeper's queries, the pages) stays on Core.

The SQL text and the parameters of a move's writes are in ``move_statements.py``.

Listeners on the engines do not see these statements; none of them touches
``users`` or ``credentials``, which is what the credential cache listens for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.engine import Match
from jackpot.web.base.storage.deferred import DEFERRED, defer, send_deferred
from jackpot.web.base.storage.group_commit import AFTER_COMMIT, WROTE
from jackpot.web.base.storage.snapshots import match_of
from jackpot.web.base.storage.sqlite_inline import InlineConnection
from jackpot.web.matches.news import UNKNOWN, KnownNews
from jackpot.web.play.storage.live_matches import LiveEntry, live_matches_of
from jackpot.web.play.storage.move_statements import CHUNK, DIALECTS, Row, Statements

T = TypeVar("T")
#: Key in a connection's ``info``: its Driver (``on_driver``).
DRIVER = "jackpot.driver"


async def on_driver(conn: AsyncConnection, work: Callable[[Driver], T]) -> T:
    """``work`` with the transaction's Driver, kept with the connection (it only
    holds what the connection says of itself). On a SQLite file ``work`` is called
    straight: no call of its ever waits (sqlite_inline.py), and the greenlet that
    ``run_sync`` starts for each call cost more than a move's statements there.
    Elsewhere through ``run_sync``, where asyncpg's adapter awaits."""
    sync = conn.sync_connection
    assert sync is not None
    db: Driver | None = sync.info.get(DRIVER)
    if db is None or db.conn is not sync:
        db = sync.info[DRIVER] = Driver(sync)
    if db.inline:
        return work(db)
    found = db
    return await conn.run_sync(lambda _sync: work(found))


class Driver:
    """A write transaction's driver connection, for the statements of a move.

    Used inside ``AsyncConnection.run_sync``: on PostgreSQL the driver's adapter
    awaits asyncpg from there. A SQLite file opened by ``sqlite_inline`` is
    called directly, without the adapter (``inline``).
    """

    def __init__(self, conn: Connection) -> None:
        #: Raised as soon as a row is written (group_commit.py: a refusal after
        #: that must roll the whole batch back).
        self._info = conn.info
        self.conn = conn
        self._live = live_matches_of(conn.engine)
        dbapi: Any = conn.connection.dbapi_connection
        self.d = DIALECTS.of(conn.dialect.name == "sqlite")
        driver = conn.connection.driver_connection
        self._db: Any = dbapi
        self.inline = False
        if isinstance(driver, InlineConnection):
            self.inline = True
            self._db = driver.sqlite

    def _run(self, sql: str, params: Sequence[Any]) -> Any:
        if DEFERRED in self._info:
            send_deferred(self.conn)  # whatever this reads or writes comes after them
        cur = self._db.cursor()
        cur.execute(sql, params)
        return cur

    # -- reading ------------------------------------------------------------------

    def load(self, match_id: str, lock: bool) -> tuple[Row, list[Row]] | None:
        """The match row and its seats; ``lock`` takes PostgreSQL's row lock
        (SQLite's single writer has already serialised the transaction)."""
        d = self.d
        cur = self._run(d.select_match_locked if lock else d.select_match, (match_id,))
        found = cur.fetchone()
        cur.close()
        if found is None:
            return None
        width = len(d.matches.names)
        row = d.matches.row(found[:width])
        if d.sqlite:
            cur = self._run(d.select_seats, (match_id,))
            seats = [d.seats.row(r) for r in cur.fetchall()]
            cur.close()
        else:
            seats = found[width] or []
        return row, seats

    def load_live(
        self, match_id: str, lock: bool, trust: bool = True
    ) -> tuple[Row, list[Row], Match | None, KnownNews] | None:
        """``load`` plus the engine's state (None before the start) and what is
        known of its waiting notices, from this process's ``LiveMatches``
        when the row's version says it is still current, or, when it is ``trusted``
        and the caller may ``trust`` it, without asking. Loaded from the database,
        nothing is known of them."""
        # Taken out while the transaction uses it: ``remember`` puts the new state back
        # once it commits, and a transaction that fails, or a second move on the match
        # in it, finds nothing here and loads the row as the database has it.
        hit = self._live.entries.pop(match_id, None)
        if hit is not None and trust and self._live.trusted:
            return hit[1:]
        if hit is not None:
            d = self.d
            cur = self._run(d.select_version_locked if lock else d.select_version, (match_id,))
            found = cur.fetchone()
            cur.close()
            if found is not None and found[0] == hit[0]:
                return hit[1:]
        loaded = self.load(match_id, lock)
        if loaded is None:
            return None
        row, seats = loaded
        m = match_of(row)
        return row, seats, m, UNKNOWN

    def remember(self, row: Row, seats: list[Row], match: Match, known: KnownNews) -> None:
        """Keep a move's result in ``LiveMatches`` once its transaction has committed."""
        live = self._live
        self._info.setdefault(AFTER_COMMIT, []).append(
            lambda: live.put(row, seats, match, known)
        )

    # -- writing ------------------------------------------------------------------

    @property
    def sqlite(self) -> bool:
        return self.d.sqlite

    @property
    def wrote(self) -> bool:
        """A row was written in this transaction (a refusal now must roll it back)."""
        return bool(self._info.get(WROTE))

    def claim(self, match_id: str, entry: LiveEntry) -> bool:
        """Take ``entry`` out of ``LiveMatches`` if it is still the match's, as
        ``load_live`` takes what it finds: a move prepared from it may be saved."""
        entries = self._live.entries
        if entries.get(match_id) is not entry:
            return False
        del entries[match_id]
        return True

    def save(self, s: Statements, later: bool = False) -> bool:
        """Write a move's statements if the match is still at the version they were
        computed from; False if another writer moved it on. On SQLite the match's
        conditional UPDATE goes first, so then nothing was written and the caller may
        compute the move again in the same transaction; on PostgreSQL (``wrote``)
        the rows rode in the same statement and the transaction must roll back.
        ``later`` (a move worked out before its transaction): on PostgreSQL the
        statement is deferred (deferred.py) and True is returned at once; should
        the version not match, it fails when sent, and the transaction with it."""
        d = self.d
        if not d.sqlite:
            return self._save_postgres(s, later)
        cur = self._run(d.update_match(s.columns), s.update)
        done = cur.rowcount == 1
        cur.close()
        if not done:
            return False
        self._info[WROTE] = True
        for text, params in s.small:
            self._run(text, params).close()
        notices = s.notices
        if s.moved_reminder is not None:
            cur = self._run(d.move_reminder, s.moved_reminder)
            moved = cur.rowcount == 1
            cur.close()
            if moved:
                notices = notices[:-1]
            else:
                self._run(d.drop_reminder, (s.match_id,)).close()
        self._insert("record_events", s.records)
        self._insert("notices", notices)
        self._insert("match_events", s.events)
        return True

    def _save_postgres(self, s: Statements, later: bool) -> bool:
        """The small writes and the INSERTs ride in the match's UPDATE (one round
        trip, or none of its own when deferred), unless the move is too big for one
        statement."""
        self._info[WROTE] = True
        d = self.d
        small = s.small
        rows = [*s.records, *s.notices, *s.events]
        if len(rows) + len(small) <= CHUNK:
            sql = d.save_in_one(
                s.columns, len(s.records), len(s.notices), len(s.events),
                tuple(text for text, _params in small), checked=later,
            )
            params = [v for _text, ps in small for v in ps]
            params += [v for row in rows for v in row]
            if later:
                defer(self._info, sql, [*params, *s.update])
                return True
            cur = self._run(sql, [*params, *s.update])
            done = cur.rowcount == 1
            cur.close()
            return bool(done)
        for text, values in small:
            self._run(d.statement(text), values).close()
        self._insert("record_events", s.records)
        self._insert("notices", s.notices)
        cur = self._run(d.update_match(s.columns), s.update)
        done = cur.rowcount == 1
        cur.close()
        if done:
            self._insert("match_events", s.events)
        return bool(done)

    def _insert(self, table: str, rows: list[list[Any]]) -> None:
        for i in range(0, len(rows), CHUNK):
            chunk = rows[i : i + CHUNK]
            self._run(self.d.insert(table, len(chunk)), [v for row in chunk for v in row]).close()
