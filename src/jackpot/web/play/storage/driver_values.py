"""How a value crosses each database's driver, for the statements of match_sql.py.

Derived from the tables' own column types in ``models.py``, so the two databases
stay in step: SQLite keeps datetimes as naive UTC text in SQLAlchemy's format,
booleans as 0/1 and JSON as text; asyncpg takes aware datetimes and booleans, and
JSON as text (SQLAlchemy's codec decodes it on the way back).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import JSON, Boolean, Table

from jackpot.web.base.tables import core as t

Row = dict[str, Any]


@functools.lru_cache(maxsize=1024)
def _sqlite_time(value: datetime) -> str:
    # SQLAlchemy's SQLite DATETIME format: always six digits of microseconds, so
    # text comparison (``due_at <= ?`` in the sweeper) orders like time. Memoised: a
    # move writes its time and its deadline several times (the match, its notices).
    return value.astimezone(UTC).replace(tzinfo=None).isoformat(" ", "microseconds")


def json_text(value: Any) -> str:
    return orjson.dumps(value).decode()


def _from_sqlite_time(value: str) -> datetime:
    return datetime.fromisoformat(value).replace(tzinfo=UTC)


class Columns:
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
                conv_in = json_text
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

    def values(self, names: Sequence[str], row: Row) -> list[Any]:
        """``row``'s values of the columns ``names``, in order, as the driver takes them."""
        into = self.into
        out = []
        for name in names:
            v = row[name]
            conv = into.get(name)
            out.append(v if conv is None or v is None else conv(v))
        return out
