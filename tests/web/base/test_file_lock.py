"""SQLite's writer lock across processes: waited for off the loop, handed over at once,
never kept by a wait given up. Two ``FileLock``s on one file conflict as two processes do."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from jackpot.web.base.storage.db import Database
from jackpot.web.base.storage.file_lock import FileLock


async def _ticks_while(task: asyncio.Task[None], seconds: float) -> int:
    """Loop iterations seen in ``seconds`` while ``task`` is pending (it must stay so)."""
    ticks = 0
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end:
        await asyncio.sleep(0.005)
        ticks += 1
    assert not task.done()
    return ticks


async def test_a_waiter_gets_the_lock_when_the_holder_lets_go(tmp_path: Path) -> None:
    holder, waiter = FileLock(tmp_path / "w.lock", 5), FileLock(tmp_path / "w.lock", 5)
    await holder.acquire()
    waiting = asyncio.create_task(waiter.acquire())
    assert await _ticks_while(waiting, 0.2) > 5  # the loop ran meanwhile
    holder.release()
    await asyncio.wait_for(waiting, 2)
    third = FileLock(tmp_path / "w.lock", 0.2)
    with pytest.raises(sqlite3.OperationalError, match="database is locked"):
        await third.acquire()
    waiter.release()
    await asyncio.wait_for(third.acquire(), 2)
    for lock in (holder, waiter, third):
        lock.close()


async def test_a_wait_given_up_hands_the_lock_back(tmp_path: Path) -> None:
    holder = FileLock(tmp_path / "w.lock", 5)
    gave_up = FileLock(tmp_path / "w.lock", 5)
    await holder.acquire()
    waiting = asyncio.create_task(gave_up.acquire())
    await asyncio.sleep(0.05)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    holder.release()  # the cancelled wait's thread sees it free, and must not keep it
    await asyncio.wait_for(holder.acquire(), 2)
    holder.release()
    # Out of time, then asked again: the second call inherits the wait.
    await holder.acquire()
    impatient = FileLock(tmp_path / "w.lock", 0.05)
    with pytest.raises(sqlite3.OperationalError):
        await impatient.acquire()
    again = asyncio.create_task(impatient.acquire())
    await asyncio.sleep(0.02)
    holder.release()
    await asyncio.wait_for(again, 2)
    with pytest.raises(sqlite3.OperationalError):
        await FileLock(tmp_path / "w.lock", 0.05).acquire()
    impatient.release()
    await asyncio.wait_for(holder.acquire(), 2)
    holder.release()


async def test_another_process_holding_it_is_waited_for(tmp_path: Path) -> None:
    path = tmp_path / "w.lock"
    hold = (
        "import fcntl, os, sys, time\n"
        f"fd = os.open({str(path)!r}, os.O_RDWR | os.O_CREAT)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); time.sleep(0.5)\n"
    )
    other = subprocess.Popen([sys.executable, "-c", hold], stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout is not None
        assert await asyncio.to_thread(other.stdout.readline) == "held\n"
        lock = FileLock(path, 5)
        waiting = asyncio.create_task(lock.acquire())
        assert await _ticks_while(waiting, 0.1) > 3
        await asyncio.wait_for(waiting, 3)  # the process exited: the kernel let go
        lock.release()
        lock.close()
    finally:
        other.kill()
        other.wait()


async def test_a_second_writer_on_the_file_waits_without_stopping_the_loop(
    tmp_path: Path,
) -> None:
    """Two databases on one file, as two server processes: the second's write waits
    for the first's transaction to end, while this loop (which must finish that
    transaction) goes on. Left to SQLite's busy handler, it would have blocked the loop
    until its timeout and failed."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'j.sqlite3'}"
    first, second = Database(url), Database(url)
    try:
        async with first.write() as conn:
            await conn.exec_driver_sql("CREATE TABLE t (n INTEGER)")

        async def add(n: int) -> None:
            async with second.write() as conn:
                await conn.exec_driver_sql(f"INSERT INTO t VALUES ({n})")

        async with first.write() as conn:
            await conn.exec_driver_sql("INSERT INTO t VALUES (1)")
            waiting = asyncio.create_task(add(2))
            assert await _ticks_while(waiting, 0.1) > 3
        await asyncio.wait_for(waiting, 2)
        async with first.read() as conn:
            rows = (await conn.exec_driver_sql("SELECT n FROM t ORDER BY n")).all()
        assert [r[0] for r in rows] == [1, 2]
    finally:
        await first.dispose()
        await second.dispose()


async def test_closing_a_lock_held_lets_its_own_given_up_wait_end(tmp_path: Path) -> None:
    """A wait given up leaves its thread waiting; should this lock then be taken on
    the loop before that thread saw it free, the thread waits for this very lock.
    Closing the lock gives it back, so the thread ends (else the loop's shutdown
    would wait for it for ever)."""
    for _ in range(20):  # who is first, the thread or the loop, is up to the kernel
        holder, late = FileLock(tmp_path / "w.lock", 5), FileLock(tmp_path / "w.lock", 0.02)
        await holder.acquire()
        with pytest.raises(sqlite3.OperationalError):
            await late.acquire()
        holder.release()
        await asyncio.wait_for(late.acquire(), 2)
        waiting = late._waiting
        assert waiting is not None
        late.close()
        await asyncio.wait_for(asyncio.shield(waiting), 2)
        holder.close()
