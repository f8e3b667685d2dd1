"""Statements whose answer nobody waits for, sent together just before the COMMIT.

On PostgreSQL every statement is a round trip, and a batch of moves (group_commit.py)
saved its moves one after the other: under load each save waited about half a
millisecond for its answer, most of it for the event loop to come back to it, and
each process's writer was busy all the time (docs/benchmarks.md). A move worked out
before its transaction (play/actions.prepare) needs no answer: its statement fails
if the match moved on meanwhile, and the batch then rolls back and runs each move
alone, as a conditional UPDATE that matched nothing always made it do. So such a
statement is deferred into the transaction's ``info`` and sent with the others
before the COMMIT, the parameter sets of one text in one pipelined ``executemany``.
Any other statement in the transaction sends them first (``send_deferred``: the
moves' Driver calls it, and ``send_before_core`` listens on the engine for Core),
so whatever the transaction reads has them.

Deferred statements are sent grouped by text, so they must not depend on each
other's order: each is one match's save, and a match has one at most in a
transaction (a second move on it loads the match, which sends the first).

When they are all the transaction holds and share one text (one move, or moves
alike: most batches at a steady pace), ``send_alone`` sends them as the whole
transaction: one ``executemany``, which PostgreSQL runs as one implicit
transaction, all or nothing, in one round trip instead of BEGIN, the statements
and COMMIT (three; a transaction cost ~0.5 ms of this process's CPU,
bench/action_cost.py --pg-admin).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

#: Key in a write connection's ``info``: the (text, parameters) waiting to be sent.
DEFERRED = "jackpot.deferred"


def defer(info: dict[Any, Any], sql: str, params: Sequence[Any]) -> None:
    """Send ``sql`` with ``params`` before this transaction's next statement or COMMIT."""
    info.setdefault(DEFERRED, []).append((sql, params))


def send_deferred(conn: Connection) -> None:
    """Send what ``conn``'s transaction deferred. Called where the driver's adapter
    may wait for the database (inside ``run_sync`` or a Core execution)."""
    pending: list[tuple[str, Sequence[Any]]] | None = conn.info.pop(DEFERRED, None)
    if not pending:
        return
    by_text: dict[str, list[Sequence[Any]]] = {}
    for sql, params in pending:
        by_text.setdefault(sql, []).append(params)
    dbapi: Any = conn.connection.dbapi_connection
    cursor = dbapi.cursor()
    try:
        for sql, many in by_text.items():
            if len(many) == 1:
                cursor.execute(sql, many[0])
            else:
                cursor.executemany(sql, many)
    finally:
        cursor.close()


async def send_alone(conn: AsyncConnection) -> bool:
    """Send what ``conn``'s transaction deferred as a transaction of its own, when
    nothing else was sent in it (PostgreSQL has not been told BEGIN: SQLAlchemy's
    asyncpg adapter begins at the first statement) and it is one text; False
    otherwise, with nothing sent. SQLAlchemy's COMMIT then has nothing to do."""
    sync = conn.sync_connection
    assert sync is not None
    pending: list[tuple[str, Sequence[Any]]] | None = sync.info.get(DEFERRED)
    if not pending or sync.dialect.name != "postgresql":
        return False
    sql = pending[0][0]
    if any(text != sql for text, _params in pending[1:]):
        return False
    raw: Any = sync.connection.driver_connection
    if raw.is_in_transaction():
        return False
    del sync.info[DEFERRED]
    if len(pending) == 1:
        await raw.execute(sql, *pending[0][1])
    else:
        await raw.executemany(sql, [params for _text, params in pending])
    return True


def send_before_core(engine: AsyncEngine) -> None:
    """Make every Core statement on ``engine`` send its transaction's deferred ones first."""
    event.listen(engine.sync_engine, "before_cursor_execute", _send_first)


def _send_first(
    conn: Connection, cursor: Any, statement: str, parameters: Any, context: Any,
    executemany: bool,
) -> None:
    if DEFERRED in conn.info:
        send_deferred(conn)
