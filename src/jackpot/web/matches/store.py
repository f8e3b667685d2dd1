"""A match's row and its seats, read through Core: the one place that knows how.

The statements are built once with bound parameters: a prebuilt statement keeps its
cache key, so each execution goes straight to the compiled form in the engine's
cache. A move reads the same rows through the plain SQL of ``play/storage/match_sql.py``.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.errors import not_found
from jackpot.web.base.tables import core as t
from jackpot.web.matches.disclosure import match_shown

#: The length of the ``matches.id`` column.
MATCH_ID_MAX = 24

_MATCH = select(t.matches).where(t.matches.c.id == bindparam("match_id"))
_MATCH_LOCKED = _MATCH.with_for_update()
_SEATS = (
    select(t.seats).where(t.seats.c.match_id == bindparam("match_id")).order_by(t.seats.c.seat)
)


def check_match_id(match_id: str) -> None:
    """An id no match can have is answered without asking the database (PostgreSQL
    would refuse a NUL byte with an error, not with an empty result)."""
    if not (len(match_id) <= MATCH_ID_MAX and match_id.isascii() and match_id.isprintable()):
        raise not_found("there is no match %(match)s", match=repr(match_id))


async def match_row(conn: AsyncConnection, match_id: str, lock: bool = False) -> Any:
    """The match row (404 if there is none); ``lock`` for a write transaction that
    will change it.

    On PostgreSQL ``lock`` takes the row lock (SELECT ... FOR UPDATE) so racing
    actions on one match queue up instead of doing the work twice and colliding on
    the record's primary key (an IntegrityError, not a 409); the loser then sees the
    new state and gets the engine's refusal. SQLite ignores it: its single writer
    already serialises every write transaction.
    """
    check_match_id(match_id)
    query = _MATCH_LOCKED if lock else _MATCH
    row = (await conn.execute(query, {"match_id": match_id})).mappings().first()
    if row is None:
        raise not_found("there is no match %(match)s", match=match_id)
    return row


async def shown_match_row(conn: AsyncConnection, match_id: str, viewer_id: int | None) -> Any:
    """The match row as ``viewer_id`` may read it: 404, as for no match at all, when
    disclosure.py keeps the match from them (a daily entry during its day)."""
    row = await match_row(conn, match_id)
    if not match_shown(row, viewer_id):
        raise not_found("there is no match %(match)s", match=match_id)
    return row


async def seat_rows(conn: AsyncConnection, match_id: str) -> list[Any]:
    """The match's seats in seat order."""
    res = await conn.execute(_SEATS, {"match_id": match_id})
    return list(res.mappings().all())
