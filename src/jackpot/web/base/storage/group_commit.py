"""Group commit: the moves that arrive together share one write transaction.

A move's own work is a few statements; its commit (SQLite writing the changed pages
to the WAL, PostgreSQL a round trip and a flush) was a seventh of the server's
time under load (docs/benchmarks.md). So moves that arrive in the same event-loop
tick run one after the other in one transaction, and each caller gets its outcome
only once that transaction has committed: nothing is acknowledged or published
before it is durable, exactly as with a transaction per move.

A move refused before it wrote anything (not your turn, a tile not on offer: an
``ApiError`` raised while the batch's ``WROTE`` flag is still down) leaves the
transaction as it was, so the others carry on. Any other failure (a refusal after
some rows were written, a database error) rolls the whole batch back, and then
each of its moves runs again alone in its own transaction, so one bad move costs
the others only time. Batches go in arrival order, one at a time: under load every
move waits about one batch, none waits behind a stream of newcomers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.errors import ApiError

T = TypeVar("T")
Work = Callable[[AsyncConnection], Awaitable[Any]]

#: Key in the connection's ``info``: set by whoever writes a row in the batch's
#: transaction (match_sql.Driver), so a refusal raised later is known to be unsafe.
WROTE = "jackpot.wrote"
#: Key in a write connection's ``info``: callables that ``Database.write`` runs once
#: the transaction has committed (never if it rolls back): live_matches.LiveMatches.
AFTER_COMMIT = "jackpot.after_commit"
#: Most moves in one transaction: bounds the time the first of them waits.
MAX_BATCH = 64


class _Failed(Exception):
    """A move in the batch failed after writing: roll the whole batch back."""


class GroupCommit:
    def __init__(self, write: Callable[[], AbstractAsyncContextManager[AsyncConnection]]) -> None:
        self._write = write
        self._pending: list[tuple[Work, asyncio.Future[Any]]] = []
        self._flusher: asyncio.Task[None] | None = None

    async def run(self, work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """``await work(conn)`` in a transaction shared with the moves that arrive
        with it; the result (or the refusal) once that transaction has committed."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending.append((work, future))
        if self._flusher is None:
            # Runs after the callbacks already scheduled in this loop iteration: the
            # moves read from the same burst of sockets join this batch.
            self._flusher = asyncio.create_task(self._flush_all())
        result: T = await future
        return result

    async def _flush_all(self) -> None:
        try:
            while self._pending:
                batch = self._pending[:MAX_BATCH]
                del self._pending[:MAX_BATCH]
                await self._flush(batch)
        finally:
            self._flusher = None

    async def _flush(self, batch: list[tuple[Work, asyncio.Future[Any]]]) -> None:
        done: list[tuple[asyncio.Future[Any], BaseException | None, Any]] = []
        try:
            async with self._write() as conn:
                info = conn.sync_connection.info  # type: ignore[union-attr]
                for work, future in batch:
                    info[WROTE] = False
                    try:
                        done.append((future, None, await work(conn)))
                    except ApiError as exc:
                        if info[WROTE]:
                            raise _Failed from exc
                        done.append((future, exc, None))
        except Exception:
            # Rolled back: nothing of the batch is kept. Each move alone, in order.
            for work, future in batch:
                await self._alone(work, future)
            return
        except BaseException:  # cancelled (shutdown): the callers must not hang
            for _work, future in batch:
                future.cancel()
            raise
        for future, error, result in done:
            if future.cancelled():
                continue
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)

    async def _alone(self, work: Work, future: asyncio.Future[Any]) -> None:
        try:
            async with self._write() as conn:
                result = await work(conn)
        except Exception as exc:
            if not future.cancelled():
                future.set_exception(exc)
        else:
            if not future.cancelled():
                future.set_result(result)
