"""The statements of a move as plain SQL on the transaction's own driver connection.

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

import itertools
import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import JSON, Boolean, Table
from sqlalchemy.engine import Connection

from jackpot.web.base import models as t
from jackpot.web.base.models_notify import notices
from jackpot.web.base.sqlite_inline import InlineConnection

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
    count = itertools.count(1)
    return re.sub(r"\?", lambda _m: f"${next(count)}", sql)


#: Rows per INSERT. A move writes one to a few rows, but a resignation that leaves
#: only bots lets them play the match out in that same transaction: a thousand
#: events and more, beyond what one statement should carry.
CHUNK = 200


class _Dialect:
    """The statements and value conversions for one database."""

    def __init__(self, sqlite: bool) -> None:
        self.sqlite = sqlite
        self.matches = _Columns(t.matches, sqlite)
        self.seats = _Columns(t.seats, sqlite)
        self.notices = _Columns(notices, sqlite)
        self._to_sql: Callable[[str], str] = _same if sqlite else _dollar
        sql = self._to_sql
        match_cols = ", ".join(self.matches.names)
        seat_cols = ", ".join(self.seats.names)
        self.select_seats = sql(f"SELECT {seat_cols} FROM seats WHERE match_id = ? ORDER BY seat")
        if sqlite:
            self.select_match = f"SELECT {match_cols} FROM matches WHERE id = ?"
            self.select_match_locked = self.select_match
        else:
            # The seats ride along as JSON: one round trip instead of two.
            self.select_match = sql(
                f"SELECT {match_cols}, (SELECT json_agg(json_build_object("
                + ", ".join(f"'{c}', s.{c}" for c in self.seats.names)
                + ") ORDER BY s.seat) FROM seats s WHERE s.match_id = matches.id)"
                " FROM matches WHERE id = ?"
            )
            self.select_match_locked = self.select_match + " FOR UPDATE OF matches"
        self.record_cols = ("match_id", "idx", "kind", "n", "seat", "dice", "cover", "reason")
        self.event_cols = ("match_id", "seq", "data")
        self.notice_cols = [n for n in self.notices.names if n not in ("id", "sent_at", "error")]
        self.update_cover = sql("UPDATE record_events SET cover = ? WHERE match_id = ? AND n = ?")
        self.drop_reminder = sql(
            "DELETE FROM notices WHERE match_id = ? AND kind = 'reminder' AND status = 'pending'"
        )
        self._memo: dict[tuple[Any, ...], str] = {}

    def _insert_text(self, table: str, rows: int) -> str:
        columns, tail = {
            "record_events": (self.record_cols, ""),
            "notices": (self.notice_cols, " ON CONFLICT (key) DO NOTHING"),
            "match_events": (self.event_cols, ""),
        }[table]
        one = "(" + ", ".join("?" for _ in columns) + ")"
        values = ", ".join(one for _ in range(rows))
        return f"INSERT INTO {table} ({', '.join(columns)}) VALUES {values}{tail}"

    def _update_text(self, columns: tuple[str, ...]) -> str:
        sets = ", ".join(f"{c} = ?" for c in columns)
        return f"UPDATE matches SET {sets} WHERE id = ? AND version = ?"

    def insert(self, table: str, rows: int) -> str:
        """One INSERT of ``rows`` (at most CHUNK) rows, memoised per table and count:
        one statement is one round trip, where asyncpg's executemany costs several."""
        key = ("insert", table, rows)
        if key not in self._memo:
            self._memo[key] = self._to_sql(self._insert_text(table, rows))
        return self._memo[key]

    def update_match(self, columns: tuple[str, ...]) -> str:
        """The conditional UPDATE of a match row setting ``columns``."""
        key = ("update", columns)
        if key not in self._memo:
            self._memo[key] = self._to_sql(self._update_text(columns))
        return self._memo[key]

    def save_in_one(self, columns: tuple[str, ...], records: int, notices: int,
                    events: int) -> str:
        """PostgreSQL: a move's INSERTs as data-modifying WITH clauses of the match's
        conditional UPDATE, one round trip. The UPDATE's row count still says
        whether the version matched (a mismatch rolls the whole transaction back)."""
        key = ("save", columns, records, notices, events)
        if key not in self._memo:
            inserts = [
                self._insert_text(table, rows)
                for table, rows in (
                    ("record_events", records), ("notices", notices), ("match_events", events)
                )
                if rows
            ]
            ctes = ", ".join(f"w{i} AS ({text})" for i, text in enumerate(inserts))
            update = self._update_text(columns)
            self._memo[key] = self._to_sql(f"WITH {ctes} {update}" if ctes else update)
        return self._memo[key]


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

    # -- writing ------------------------------------------------------------------

    def set_cover(self, match_id: str, n: int, cover: str) -> None:
        self._run(self.d.update_cover, (cover, match_id, n)).close()

    def drop_pending_reminder(self, match_id: str) -> None:
        self._run(self.d.drop_reminder, (match_id,)).close()

    def save_move(
        self,
        match_id: str,
        version: int,
        values: Row,
        records: list[Row],
        notices: list[Row],
        events: list[Row],
    ) -> bool:
        """Write a move's rows and the match row, if the match is still at
        ``version``; False (nothing to keep: roll back) if another writer moved it on."""
        d = self.d
        columns = tuple(values)
        conv = d.matches.value
        update = [*(conv(c, values[c]) for c in columns), match_id, version]
        conv_notice = d.notices.value
        record_rows = [[r[c] for c in d.record_cols] for r in records]
        notice_rows = [[conv_notice(c, r[c]) for c in d.notice_cols] for r in notices]
        event_rows = [[match_id, e["seq"], _json_text(e)] for e in events]
        if not d.sqlite and len(record_rows) + len(notice_rows) + len(event_rows) <= CHUNK:
            sql = d.save_in_one(columns, len(record_rows), len(notice_rows), len(event_rows))
            params = [v for row in (*record_rows, *notice_rows, *event_rows) for v in row]
            cur = self._run(sql, [*params, *update])
            done = cur.rowcount == 1
            cur.close()
            return bool(done)
        # SQLite in process (no round trips to save), or a move too big for one
        # statement: one INSERT per table and chunk, the events after the UPDATE
        # (their seq follows the version it checks).
        self._insert("record_events", record_rows)
        self._insert("notices", notice_rows)
        cur = self._run(d.update_match(columns), update)
        done = cur.rowcount == 1
        cur.close()
        if done:
            self._insert("match_events", event_rows)
        return bool(done)

    def _insert(self, table: str, rows: list[list[Any]]) -> None:
        for i in range(0, len(rows), CHUNK):
            chunk = rows[i : i + CHUNK]
            self._run(self.d.insert(table, len(chunk)), [v for row in chunk for v in row]).close()
