"""A move's statements as SQL text for each database, and its writes as their parameters.

The text is written once with ``?`` placeholders; PostgreSQL's driver gets ``$n``.
How values cross each driver is in ``driver_values.py``. ``encode`` turns what a move
writes (``MoveWrites``) into the parameters of those statements before the write
transaction starts, so the transaction (``match_sql.Driver.save``) only runs them.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from jackpot.web.base.tables import core as t
from jackpot.web.matches.news import NoticeWrites
from jackpot.web.play.storage.driver_values import Columns, json_text

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


class Dialect:
    """The statements and value conversions for one database; ``news``: how the
    notices a move plans are written (none until a feature hands them over)."""

    def __init__(self, sqlite: bool, news: NoticeWrites | None = None) -> None:
        self.sqlite = sqlite
        self.matches = Columns(t.matches, sqlite)
        self.seats = Columns(t.seats, sqlite)
        self.news = news
        self.notices = Columns(news.table, sqlite) if news is not None else None
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
        self.notice_cols = list(news.columns) if news is not None else []
        # The small writes of a move, with ``?`` placeholders: run as they are on
        # SQLite, and on PostgreSQL carried by the move's save statement (save_in_one).
        self.update_cover = "UPDATE record_events SET cover = ? WHERE match_id = ? AND n = ?"
        self.set_acted = "UPDATE seats SET acted = ? WHERE match_id = ? AND seat = ?"
        self.set_autoplay = (
            "UPDATE seats SET autoplay_throws = ?, autoplay_covers = ?"
            " WHERE match_id = ? AND seat = ?"
        )
        # The notices' small writes: never planned while no feature writes notices.
        self.drop_turn = news.drop_turn if news else ""
        self.drop_reminder = news.drop_reminder if news else ""
        self.move_reminder = news.move_reminder if news else ""
        self._memo: dict[tuple[Any, ...], str] = {}

    def _insert_text(self, rows_of: str, rows: int) -> str:
        """``rows_of``: "record_events", "match_events", or "notices" for the news
        table handed over."""
        table, columns, tail = {
            "record_events": ("record_events", self.record_cols, ""),
            "match_events": ("match_events", self.event_cols, ""),
        }.get(rows_of) or (
            (self.news.table.name, self.notice_cols, self.news.insert_tail)
            if self.news is not None and rows_of == "notices"
            else ("", (), "")
        )
        if not table:
            raise ValueError(f"no statement writes {rows_of!r}")
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
                    events: int, writes: tuple[str, ...] = (), checked: bool = False) -> str:
        """PostgreSQL: a move's small ``writes`` and its INSERTs as data-modifying
        WITH clauses of the match's conditional UPDATE, one round trip. The UPDATE's
        row count still says whether the version matched (a mismatch rolls the
        whole transaction back); ``checked``: the statement itself fails then
        (a division by the count of rows updated), for a caller that does not wait
        for its row count (deferred.py). The clauses all see the rows as they were
        before the statement, which is what each of them means: the reminder
        deleted is the one pending before, not the one inserted beside it."""
        key = ("save", columns, records, notices, events, writes, checked)
        if key not in self._memo:
            inserts = list(writes) + [
                self._insert_text(table, rows)
                for table, rows in (
                    ("record_events", records), ("notices", notices), ("match_events", events)
                )
                if rows
            ]
            update = self._update_text(columns)
            if checked:
                inserts.append(f"{update} RETURNING 1")
                update = f"SELECT 1 / count(*) FROM w{len(inserts) - 1}"
            ctes = ", ".join(f"w{i} AS ({text})" for i, text in enumerate(inserts))
            self._memo[key] = self._to_sql(f"WITH {ctes} {update}" if ctes else update)
        return self._memo[key]


class Dialects:
    """The two databases' statements, made again when the notices' writes are handed
    over (play/hooks.py, once at start-up)."""

    def __init__(self) -> None:
        self.use(None)

    def use(self, news: NoticeWrites | None) -> None:
        self.sqlite = Dialect(sqlite=True, news=news)
        self.postgres = Dialect(sqlite=False, news=news)

    def of(self, sqlite: bool) -> Dialect:
        return self.sqlite if sqlite else self.postgres


DIALECTS = Dialects()


@dataclass
class MoveWrites:
    """Everything one move writes, decided before any of it is written (MovePlan.writes)."""

    match_id: str
    #: The match's version the move was computed from: the save checks it.
    version: int
    #: The match row's new columns.
    values: Row
    records: list[Row] = field(default_factory=list)
    #: ``(n, tiles)``: covers of throws an earlier action stored.
    covers: list[tuple[int, str]] = field(default_factory=list)
    notices: list[Row] = field(default_factory=list)
    #: ``notices[-1]`` is the match's next reminder, which takes the pending one's
    #: place (due_notices).
    replaces_reminder: bool = False
    #: The seat whose turn news still waiting is deleted (its person moved).
    drop_turn: int | None = None
    autoplay: tuple[int, bool, bool] | None = None
    #: The seat whose person made a move themselves for the first time.
    acted: int | None = None
    events: list[Row] = field(default_factory=list)


@dataclass
class Statements:
    """A move's writes as one database's statement parameters (``encode``): built
    before the write transaction, which then only runs them."""

    match_id: str
    columns: tuple[str, ...]
    #: The parameters of the match's conditional UPDATE of ``columns``.
    update: list[Any]
    #: The small writes, as (``?`` text, parameters).
    small: list[tuple[str, Sequence[Any]]]
    #: SQLite: the parameters that rewrite the pending reminder as ``notices[-1]``
    #: (if there is none, it is deleted and ``notices[-1]`` inserted).
    moved_reminder: list[Any] | None
    records: list[list[Any]]
    notices: list[list[Any]]
    events: list[list[Any]]


def encode(w: MoveWrites, sqlite: bool) -> Statements:
    """``w``'s values as the database's driver takes them (driver_values.py)."""
    d = DIALECTS.of(sqlite)
    mid = w.match_id
    small: list[tuple[str, Sequence[Any]]] = [
        (d.update_cover, (text, mid, n)) for n, text in w.covers
    ]
    if w.drop_turn is not None:
        small.append((d.drop_turn, (mid, w.drop_turn)))
    if w.autoplay is not None:
        seat, throws, covers = w.autoplay
        small.append((d.set_autoplay, (throws, covers, mid, seat)))
    if w.acted is not None:
        small.append((d.set_acted, (True, mid, w.acted)))
    moved = None
    if w.replaces_reminder and sqlite:
        assert d.notices is not None and d.news is not None  # a reminder was planned
        moved = [*d.notices.values(d.news.moved_columns, w.notices[-1]), mid]
    elif w.replaces_reminder:
        # PostgreSQL: deleted and inserted, both riding in the move's one statement.
        small.append((d.drop_reminder, (mid,)))
    columns = tuple(w.values)
    return Statements(
        mid,
        columns,
        [*d.matches.values(columns, w.values), mid, w.version],
        small,
        moved,
        [[r[c] for c in d.record_cols] for r in w.records],
        [d.notices.values(d.notice_cols, r) for r in w.notices] if d.notices else [],
        [[mid, e["seq"], json_text(e)] for e in w.events],
    )


