"""The statements of a move (throw, cover, resign, timeout) as plain SQL on the
transaction's own driver connection.

A move runs about seven statements. Through SQLAlchemy Core each one cost
60-100 microseconds of Python (execution context, compiled-cache lookup, result
proxy, type processors) while SQLite itself needs a few: under the load benchmark
that machinery was a third of the server's time (docs/benchmarks.md). So the
moves run their statements here, directly on the DBAPI connection SQLAlchemy has
already opened and begun (``Connection.connection.dbapi_connection``), inside
the same transaction that ``Database.write`` commits. Everything else (creating,
joining, the sweeper's queries, the pages) stays on Core.

The SQL is written once with ``?`` placeholders; PostgreSQL's driver gets ``$n``.
How values cross the driver differs per database, and is derived from the tables'
own column types in ``models.py`` so the two stay in step: SQLite keeps
datetimes as naive UTC text in SQLAlchemy's format, booleans as 0/1 and JSON as
text; asyncpg takes aware datetimes and booleans, and JSON as text (SQLAlchemy's
codec decodes it on the way back).

Listeners on the engines do not see these statements; none of them touches
``users`` or ``credentials``, which is what the credential cache listens for.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import JSON, Boolean, Table
from sqlalchemy.engine import Connection

from jackpot.web import models as t
from jackpot.web.models_notify import notices
from jackpot.web.sqlite_inline import InlineConnection

Row = dict[str, Any]


def _sqlite_time(value: datetime) -> str:
    # SQLAlchemy's SQLite DATETIME format: always six digits of microseconds, so
    # text comparison (``due_at <= ?`` in the sweeper) orders like time.
    return value.astimezone(UTC).replace(tzinfo=None).isoformat(" ", "microseconds")


def _json_text(value: Any) -> str:
    return orjson.dumps(value).decode()


def _from_sqlite_time(value: str) -> datetime:
    return datetime.fromisoformat(value).replace(tzinfo=UTC)


class _Columns:
    """One table's columns and how each value goes in and comes out, per database."""

    def __init__(self, table: Table, sqlite: bool) -> None:
        self.names = [c.name for c in table.columns]
        self.into: dict[str, Callable[[Any], Any]] = {}
        self.out: list[Callable[[Any], Any] | None] = []
        for c in table.columns:
            conv_in: Callable[[Any], Any] | None = None
            conv_out: Callable[[Any], Any] | None = None
            if isinstance(c.type, t.UTCDateTime):
                if sqlite:
                    conv_in, conv_out = _sqlite_time, _from_sqlite_time
            elif isinstance(c.type, JSON):
                conv_in = _json_text
                if sqlite:
                    conv_out = orjson.loads
            elif isinstance(c.type, Boolean) and sqlite:
                conv_in, conv_out = int, bool
            if conv_in is not None:
                self.into[c.name] = conv_in
            self.out.append(conv_out)

    def row(self, values: Sequence[Any]) -> Row:
        return {
            name: (v if conv is None or v is None else conv(v))
            for name, v, conv in zip(self.names, values, self.out, strict=True)
        }

    def value(self, name: str, v: Any) -> Any:
        conv = self.into.get(name)
        return v if conv is None or v is None else conv(v)


def _same(sql: str) -> str:
    return sql


def _dollar(sql: str) -> str:
    """``?`` placeholders as asyncpg's ``$1, $2, ...``."""
    count = iter(range(1, 1000))
    return re.sub(r"\?", lambda _m: f"${next(count)}", sql)


class _Dialect:
    """The statements and value conversions for one database."""

    def __init__(self, sqlite: bool) -> None:
        self.sqlite = sqlite
        self.matches = _Columns(t.matches, sqlite)
        self.seats = _Columns(t.seats, sqlite)
        self.notices = _Columns(notices, sqlite)
        sql: Callable[[str], str] = _same if sqlite else _dollar
        match_cols = ", ".join(self.matches.names)
        self.select_match = sql(f"SELECT {match_cols} FROM matches WHERE id = ?")
        self.select_match_locked = self.select_match + ("" if sqlite else " FOR UPDATE")
        self.select_seats = sql(
            f"SELECT {', '.join(self.seats.names)} FROM seats WHERE match_id = ? ORDER BY seat"
        )
        self.record_cols = ("match_id", "idx", "kind", "n", "seat", "dice", "cover", "reason")
        self.update_cover = sql("UPDATE record_events SET cover = ? WHERE match_id = ? AND n = ?")
        self.drop_reminder = sql(
            "DELETE FROM notices WHERE match_id = ? AND kind = 'reminder' AND status = 'pending'"
        )
        self.notice_cols = [n for n in self.notices.names if n not in ("id", "sent_at", "error")]
        self._updates: dict[tuple[str, ...], str] = {}
        self._inserts: dict[tuple[str, int], str] = {}
        self._to_sql = sql

    def insert(self, table: str, columns: Sequence[str], rows: int, tail: str = "") -> str:
        """One INSERT of ``rows`` rows (memoised per table and count): a single
        statement is one round trip, where asyncpg's executemany costs several."""
        stmt = self._inserts.get((table, rows))
        if stmt is None:
            one = "(" + ", ".join("?" for _ in columns) + ")"
            stmt = self._to_sql(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
                + ", ".join(one for _ in range(rows))
                + tail
            )
            self._inserts[(table, rows)] = stmt
        return stmt

    def update_match(self, columns: tuple[str, ...]) -> str:
        """The conditional UPDATE of a match row setting ``columns`` (memoised: a
        move sets one of two column sets)."""
        stmt = self._updates.get(columns)
        if stmt is None:
            sets = ", ".join(f"{c} = ?" for c in columns)
            stmt = self._to_sql(f"UPDATE matches SET {sets} WHERE id = ? AND version = ?")
            self._updates[columns] = stmt
        return stmt


_SQLITE = _Dialect(sqlite=True)
_POSTGRES = _Dialect(sqlite=False)


class Driver:
    """A write transaction's driver connection, for the statements of a move.

    Made inside ``AsyncConnection.run_sync``: on PostgreSQL the driver's adapter
    awaits asyncpg from there. A SQLite file opened by ``sqlite_inline`` is
    called directly, without the adapter.
    """

    def __init__(self, conn: Connection) -> None:
        dbapi: Any = conn.connection.dbapi_connection
        self.d = _SQLITE if conn.dialect.name == "sqlite" else _POSTGRES
        driver = conn.connection.driver_connection
        self._db: Any = dbapi
        if isinstance(driver, InlineConnection):
            self._db = driver.sqlite

    def _run(self, sql: str, params: Sequence[Any]) -> Any:
        cur = self._db.cursor()
        cur.execute(sql, params)
        return cur

    def _insert(self, table: str, columns: Sequence[str], rows: list[Sequence[Any]],
                tail: str = "") -> None:
        if rows:
            params = [v for row in rows for v in row]
            self._run(self.d.insert(table, columns, len(rows), tail), params).close()

    # -- reading ------------------------------------------------------------------

    def match(self, match_id: str, lock: bool) -> Row | None:
        """The match row; ``lock`` takes PostgreSQL's row lock (SQLite's single
        writer has already serialised the transaction)."""
        cur = self._run(self.d.select_match_locked if lock else self.d.select_match, (match_id,))
        found = cur.fetchone()
        cur.close()
        return None if found is None else self.d.matches.row(found)

    def seats(self, match_id: str) -> list[Row]:
        cur = self._run(self.d.select_seats, (match_id,))
        rows = [self.d.seats.row(r) for r in cur.fetchall()]
        cur.close()
        return rows

    # -- writing ------------------------------------------------------------------

    def insert_record(self, rows: list[Row]) -> None:
        cols = self.d.record_cols
        self._insert("record_events", cols, [[r[c] for c in cols] for r in rows])

    def set_cover(self, match_id: str, n: int, cover: str) -> None:
        self._run(self.d.update_cover, (cover, match_id, n)).close()

    def save_match(self, match_id: str, version: int, values: Row) -> bool:
        """The conditional write; False if another writer moved the version on."""
        cols = tuple(values)
        conv = self.d.matches.value
        params = [conv(c, values[c]) for c in cols]
        cur = self._run(self.d.update_match(cols), (*params, match_id, version))
        done = cur.rowcount == 1
        cur.close()
        return done

    def insert_events(self, match_id: str, events: list[Row]) -> None:
        self._insert(
            "match_events",
            ("match_id", "seq", "data"),
            [(match_id, e["seq"], _json_text(e)) for e in events],
        )

    def drop_pending_reminder(self, match_id: str) -> None:
        self._run(self.d.drop_reminder, (match_id,)).close()

    def insert_notices(self, rows: list[Row]) -> None:
        cols = self.d.notice_cols
        conv = self.d.notices.value
        self._insert(
            "notices",
            cols,
            [[conv(c, r[c]) for c in cols] for r in rows],
            " ON CONFLICT (key) DO NOTHING",
        )
