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
How values cross each driver is in ``driver_values.py``.

Listeners on the engines do not see these statements; none of them touches
``users`` or ``credentials``, which is what the credential cache listens for.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy.engine import Connection

from jackpot.engine import Match
from jackpot.web.base import models as t
from jackpot.web.base.group_commit import AFTER_COMMIT, WROTE
from jackpot.web.base.models_notify import notices
from jackpot.web.base.sqlite_inline import InlineConnection
from jackpot.web.play.driver_values import Columns, json_text
from jackpot.web.play.live_matches import live_matches_of

Row = dict[str, Any]


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


#: The columns a pending reminder rewritten for the next throw takes from it.
REMINDER_MOVED = ("key", "user_id", "seat", "round", "due_at", "send_after", "created_at")


class _Dialect:
    """The statements and value conversions for one database."""

    def __init__(self, sqlite: bool) -> None:
        self.sqlite = sqlite
        self.matches = Columns(t.matches, sqlite)
        self.seats = Columns(t.seats, sqlite)
        self.notices = Columns(notices, sqlite)
        self._to_sql: Callable[[str], str] = _same if sqlite else _dollar
        sql = self._to_sql
        match_cols = ", ".join(self.matches.names)
        seat_cols = ", ".join(self.seats.names)
        self.select_seats = sql(f"SELECT {seat_cols} FROM seats WHERE match_id = ? ORDER BY seat")
        self.select_version = sql("SELECT version FROM matches WHERE id = ?")
        self.select_version_locked = self.select_version + ("" if sqlite else " FOR UPDATE")
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
        # The small writes of a move, with ``?`` placeholders: run as they are on
        # SQLite, and on PostgreSQL carried by the move's save statement (save_in_one).
        self.update_cover = "UPDATE record_events SET cover = ? WHERE match_id = ? AND n = ?"
        self.set_acted = "UPDATE seats SET acted = ? WHERE match_id = ? AND seat = ?"
        # Deleted, as a pending reminder is: "dropped" is the mailer's word for a
        # notice it will not mail, which the push worker must not read as "moved".
        self.drop_turn = (
            "DELETE FROM notices"
            " WHERE match_id = ? AND seat = ? AND kind = 'turn' AND status = 'pending'"
        )
        self.set_autoplay = (
            "UPDATE seats SET autoplay_throws = ?, autoplay_covers = ?"
            " WHERE match_id = ? AND seat = ?"
        )
        self.drop_reminder = (
            "DELETE FROM notices WHERE match_id = ? AND kind = 'reminder' AND status = 'pending'"
        )
        #: The pending reminder rewritten for the next throw: one statement instead of
        #: a DELETE and an INSERT, and fewer index entries touched. Its key changes, so
        #: a mail or push worker holding the old one no longer finds it, as if deleted
        #: (the mailer's updates check the keys they read). OR IGNORE: should the new
        #: key exist, nothing changes and the caller deletes and inserts as before.
        self.move_reminder = (
            "UPDATE OR IGNORE notices SET "
            + "".join(f"{c} = ?, " for c in REMINDER_MOVED)
            + "attempts = 0 WHERE match_id = ? AND kind = 'reminder' AND status = 'pending'"
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

    def statement(self, text: str) -> str:
        """One of the small writes above in this database's placeholders."""
        key = ("statement", text)
        if key not in self._memo:
            self._memo[key] = self._to_sql(text)
        return self._memo[key]

    def save_in_one(self, columns: tuple[str, ...], records: int, notices: int,
                    events: int, writes: tuple[str, ...] = ()) -> str:
        """PostgreSQL: a move's small ``writes`` and its INSERTs as data-modifying
        WITH clauses of the match's conditional UPDATE, one round trip. The UPDATE's
        row count still says whether the version matched (a mismatch rolls the
        whole transaction back). The clauses all see the rows as they were before
        the statement, which is what each of them means: the reminder deleted is
        the one pending before, not the one inserted beside it."""
        key = ("save", columns, records, notices, events, writes)
        if key not in self._memo:
            inserts = list(writes) + [
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
        #: Raised as soon as a row is written (group_commit.py: a refusal after
        #: that must roll the whole batch back).
        self._info = conn.info
        self._live = live_matches_of(conn.engine)
        dbapi: Any = conn.connection.dbapi_connection
        self.d = _SQLITE if conn.dialect.name == "sqlite" else _POSTGRES
        driver = conn.connection.driver_connection
        self._db: Any = dbapi
        if isinstance(driver, InlineConnection):
            self._db = driver.sqlite
        #: PostgreSQL: the small writes waiting to ride in ``save_move``'s statement
        #: (each a round trip of its own otherwise), as (``?`` text, parameters).
        self._writes: list[tuple[str, Sequence[Any]]] = []

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

    def load_live(
        self, match_id: str, lock: bool, trust: bool = True
    ) -> tuple[Row, list[Row], Match | None, frozenset[int]] | None:
        """``load`` plus the engine's state (None before the start) and the seats
        known to have no turn news waiting, from this process's ``LiveMatches``
        when the row's version says it is still current, or, when it is ``trusted``
        and the caller may ``trust`` it, without asking. Loaded from the database,
        no seat is known to be quiet."""
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
        m = None if row["state"] is None else Match.from_dict(row["state"])
        return row, seats, m, frozenset()

    def remember(self, row: Row, seats: list[Row], match: Match, quiet: frozenset[int]) -> None:
        """Keep a move's result in ``LiveMatches`` once its transaction has committed."""
        live = self._live
        self._info.setdefault(AFTER_COMMIT, []).append(
            lambda: live.put(row, seats, match, quiet)
        )

    # -- writing ------------------------------------------------------------------

    def _write(self, text: str, params: Sequence[Any]) -> None:
        """A small write of the move: at once on SQLite (no round trip to save), with
        the move's save statement on PostgreSQL (which must follow)."""
        self._info[WROTE] = True
        if self.d.sqlite:
            self._run(text, params).close()
        else:
            self._writes.append((text, params))

    def _flush_writes(self) -> None:
        for text, params in self._writes:
            self._run(self.d.statement(text), params).close()
        self._writes.clear()

    def set_cover(self, match_id: str, n: int, cover: str) -> None:
        self._write(self.d.update_cover, (cover, match_id, n))

    def set_acted(self, match_id: str, seat: int) -> None:
        """The person in ``seat`` made a move themselves (once per match and seat)."""
        self._write(self.d.set_acted, (True, match_id, seat))

    def drop_pending_turn(self, match_id: str, seat: int) -> None:
        """The seat's person moved: their turn news still waiting to go (mail and push)
        is deleted."""
        self._write(self.d.drop_turn, (match_id, seat))

    def set_autoplay(self, match_id: str, seat: int, throws: bool, covers: bool) -> None:
        """A person's autoplay switches in one match."""
        self._write(self.d.set_autoplay, (throws, covers, match_id, seat))

    def drop_pending_reminder(self, match_id: str) -> None:
        self._write(self.d.drop_reminder, (match_id,))

    def move_pending_reminder(self, reminder: Row) -> bool:
        """SQLite: rewrite the match's pending reminder as ``reminder``; False if there
        was none (or on PostgreSQL, where the move's DELETE and INSERT ride in its
        one statement anyway): then the caller drops and inserts."""
        if not self.d.sqlite:
            return False
        self._info[WROTE] = True
        cur = self._run(self.d.move_reminder, [
            *self.d.notices.values(REMINDER_MOVED, reminder), reminder["match_id"]
        ])
        moved = cur.rowcount == 1
        cur.close()
        return bool(moved)

    def save_move(
        self,
        match_id: str,
        version: int,
        values: Row,
        records: list[Row],
        notices: list[Row],
        events: list[Row],
    ) -> bool:
        """Write a move's rows, its small writes and the match row, if the match is
        still at ``version``; False (nothing to keep: roll back) if another writer
        moved it on."""
        self._info[WROTE] = True
        d = self.d
        columns = tuple(values)
        update = [*d.matches.values(columns, values), match_id, version]
        record_rows = [[r[c] for c in d.record_cols] for r in records]
        notice_rows = [d.notices.values(d.notice_cols, r) for r in notices]
        event_rows = [[match_id, e["seq"], json_text(e)] for e in events]
        rows = len(record_rows) + len(notice_rows) + len(event_rows)
        if not d.sqlite and rows + len(self._writes) <= CHUNK:
            writes = tuple(text for text, _params in self._writes)
            sql = d.save_in_one(
                columns, len(record_rows), len(notice_rows), len(event_rows), writes
            )
            params = [v for _text, ps in self._writes for v in ps]
            params += [v for row in (*record_rows, *notice_rows, *event_rows) for v in row]
            self._writes.clear()
            cur = self._run(sql, [*params, *update])
            done = cur.rowcount == 1
            cur.close()
            return bool(done)
        # SQLite in process (no round trips to save), or a move too big for one
        # statement: one INSERT per table and chunk, the events after the UPDATE
        # (their seq follows the version it checks).
        self._flush_writes()
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
