"""The writer's COMMIT: a large one on its thread (the loop serves sockets meanwhile),
a small one where it is called (the hop there and back would cost more than it)."""

from __future__ import annotations

import threading
from pathlib import Path

from jackpot.web.base.storage.sqlite_inline import INLINE_COMMIT_ROWS, creator


async def test_a_small_commit_runs_inline_and_a_large_one_on_the_commit_thread(
    tmp_path: Path,
) -> None:
    committed_on: list[str] = []
    connect = creator(
        str(tmp_path / "w.db"),
        commit_thread=True,
        after_commit=lambda: committed_on.append(threading.current_thread().name),
    )
    conn = await connect()
    here = threading.current_thread().name
    try:
        await conn.execute("CREATE TABLE t (n INTEGER)")
        await conn.commit()
        committed_on.clear()

        async def insert(rows: int) -> None:
            for n in range(rows):
                await conn.execute("INSERT INTO t VALUES (?)", (n,))

        await insert(INLINE_COMMIT_ROWS)
        await conn.commit()
        await insert(INLINE_COMMIT_ROWS + 1)
        await conn.commit()
        # A large transaction rolled back does not count towards the next one.
        await insert(INLINE_COMMIT_ROWS * 3)
        await conn.rollback()
        await insert(1)
        await conn.commit()
        assert committed_on[0] == here
        assert committed_on[1].startswith("sqlite-commit")
        assert committed_on[2] == here
        assert len(committed_on) == 3
        cursor = await conn.execute("SELECT count(*) FROM t")
        assert await cursor.fetchone() == (INLINE_COMMIT_ROWS * 2 + 2,)
    finally:
        await conn.close()
