"""Deferred statements (base/storage/deferred.py): sent before the COMMIT and before any other
statement of their transaction, never when it rolls back, and failing it when they fail.

On both databases (PostgreSQL with JACKPOT_TEST_DATABASE_URL); the moves that defer
their saves are in tests/web/play/test_live_matches.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import text

from jackpot.web.base.storage.db import Database
from jackpot.web.base.storage.deferred import DEFERRED, defer
from testdb import app_url, create_pg_database, drop_pg_database

#: Repeated on PostgreSQL (make test): deferred statements and the move batches.
pytestmark = pytest.mark.pg


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    database = Database(database_url)
    async with database.write() as conn:
        await conn.execute(text("CREATE TABLE scratch (k VARCHAR(20) PRIMARY KEY, v INTEGER)"))
    yield database
    await database.dispose()


def _insert(db: Database) -> str:
    return "INSERT INTO scratch (k, v) VALUES " + ("(?, ?)" if db.is_sqlite else "($1, $2)")


def _info(conn: Any) -> dict[Any, Any]:
    info: dict[Any, Any] = conn.sync_connection.info
    return info


async def _rows(db: Database) -> list[tuple[str, int]]:
    async with db.read() as conn:
        return [(r.k, r.v) for r in await conn.execute(text("SELECT k, v FROM scratch ORDER BY k"))]


async def test_deferred_statements_are_sent_before_the_commit(db: Database) -> None:
    async with db.write() as conn:
        for k, v in (("a", 1), ("b", 2), ("c", 3)):
            defer(_info(conn), _insert(db), [k, v])  # one text: one executemany
        defer(_info(conn), "UPDATE scratch SET v = 20 WHERE k = 'b'", [])
        assert len(_info(conn)[DEFERRED]) == 4  # nothing sent yet
    assert await _rows(db) == [("a", 1), ("b", 20), ("c", 3)]


async def test_a_statement_of_the_same_transaction_sees_them(db: Database) -> None:
    async with db.write() as conn:
        defer(_info(conn), _insert(db), ["a", 1])
        seen = (await conn.execute(text("SELECT count(*) FROM scratch"))).scalar_one()
        assert seen == 1 and DEFERRED not in _info(conn)


async def test_a_transaction_that_rolls_back_sends_none_of_them(db: Database) -> None:
    class Boom(Exception):
        pass

    with pytest.raises(Boom):
        async with db.write() as conn:
            defer(_info(conn), _insert(db), ["a", 1])
            raise Boom
    # The next transaction on the writer does not inherit them either.
    async with db.write() as conn:
        assert DEFERRED not in _info(conn)
        await conn.execute(text("INSERT INTO scratch (k, v) VALUES ('z', 26)"))
    assert await _rows(db) == [("z", 26)]


async def test_one_that_fails_fails_its_transaction(db: Database) -> None:
    """As a move's save whose match moved on: the whole transaction is rolled back."""
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        async with db.write() as conn:
            await conn.execute(text("INSERT INTO scratch (k, v) VALUES ('kept?', 0)"))
            defer(_info(conn), _insert(db), ["a", 1])
            defer(_info(conn), _insert(db), ["a", 2])
    assert await _rows(db) == []


async def test_alone_in_their_transaction_they_are_still_all_or_nothing(db: Database) -> None:
    """The batch of a move or of moves alike: one text, sent as the whole transaction
    (on PostgreSQL without BEGIN and COMMIT), and still rolled back as a whole."""
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        async with db.write() as conn:
            for k, v in (("a", 1), ("b", 2), ("a", 3)):
                defer(_info(conn), _insert(db), [k, v])
    assert await _rows(db) == []
    async with db.write() as conn:
        for k, v in (("a", 1), ("b", 2)):
            defer(_info(conn), _insert(db), [k, v])
    assert await _rows(db) == [("a", 1), ("b", 2)]


@pytest.fixture
async def pg() -> AsyncIterator[Database]:
    """PostgreSQL whichever pass this is: what is asserted is its round trips."""
    url = create_pg_database()
    database = Database(app_url(url))
    try:
        async with database.write() as conn:
            await conn.execute(text("CREATE TABLE scratch (k VARCHAR(20) PRIMARY KEY, v INTEGER)"))
        yield database
    finally:
        await database.dispose()
        drop_pg_database(url)


async def _queries_sent(pg: Database, work: Any) -> list[str]:
    """The statements PostgreSQL was sent by ``work(conn)`` in a write transaction."""
    sent: list[str] = []

    def log(record: Any) -> None:
        sent.append(record.query.split()[0].rstrip(";").upper())

    async with pg.write() as conn:
        raw: Any = (await conn.get_raw_connection()).driver_connection
        raw.add_query_logger(log)
        await work(conn)
    await asyncio.sleep(0)  # the logger is called soon after, not at once
    raw.remove_query_logger(log)
    return sent


async def test_on_postgresql_one_text_alone_goes_without_begin_or_commit(pg: Database) -> None:
    async def alike(conn: Any) -> None:
        for k, v in (("a", 1), ("b", 2)):
            defer(_info(conn), _insert(pg), [k, v])

    async def after_a_read(conn: Any) -> None:
        await conn.execute(text("SELECT 1"))
        defer(_info(conn), _insert(pg), ["c", 3])

    async def two_texts(conn: Any) -> None:
        defer(_info(conn), _insert(pg), ["d", 4])
        defer(_info(conn), "UPDATE scratch SET v = v + 10 WHERE k = $1", ["a"])

    # (asyncpg logs its simple queries and the statements sent straight, not those
    # SQLAlchemy's adapter prepares.)
    assert await _queries_sent(pg, alike) == ["INSERT"]
    for work in (after_a_read, two_texts):
        sent = await _queries_sent(pg, work)
        assert (sent[0], sent[-1]) == ("BEGIN", "COMMIT")
    assert await _rows(pg) == [("a", 11), ("b", 2), ("c", 3), ("d", 4)]


async def _backend_pid(conn: Any) -> int:
    pid: int = (await conn.execute(text("SELECT pg_backend_pid()"))).scalar_one()
    return pid


async def test_on_postgresql_the_move_batches_keep_one_connection(pg: Database) -> None:
    """Out of the pool between batches (db.moves_write), and replaced when it dies."""
    first, again = await pg.moves.run(_backend_pid), await pg.moves.run(_backend_pid)
    assert first == again
    async with pg.write() as other:
        assert await _backend_pid(other) != first  # not lent to other transactions
        await other.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": first})

    async def save(conn: Any) -> int:
        defer(_info(conn), _insert(pg), ["after", 1])
        return await _backend_pid(conn)

    assert await pg.moves.run(save) != first
    assert await _rows(pg) == [("after", 1)]
