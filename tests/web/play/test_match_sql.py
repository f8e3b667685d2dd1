"""A move's rows, written on the driver connection (play/storage/match_sql.py), read back through
SQLAlchemy Core exactly as Core's own writes do, on both databases: the value
conversions there are derived from the column types, and a mistake in them (a
datetime format, a boolean, JSON text) would only show up as a wrong comparison
somewhere far away, such as the sweeper missing a deadline."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select

from jackpot.web.accounts.credentials import create_guest
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.notify import notices
from jackpot.web.matches import store
from jackpot.web.play import seating
from jackpot.web.play.storage.match_sql import Driver
from jackpot.web.play.storage.move_statements import CHUNK, MoveWrites, encode

#: Repeated on PostgreSQL (make test): the move's SQL.
pytestmark = pytest.mark.pg


async def test_rows_written_raw_read_back_through_core(database_url: str) -> None:
    db = Database(database_url)
    await db.upgrade()
    try:
        async with db.write() as conn:
            guest, _token = await create_guest(conn)
            now = datetime(2026, 11, 30, 6, 0, 0, 0, tzinfo=UTC)
            out = await seating.create_match(
                conn, guest, variant="jackpot", seats=2, bots_count=1, deadline_seconds=3600,
                client_seed="ab", private=False, min_deadline=60, max_active=None, now=now,
            )
        mid = out.match_id
        async with db.read() as conn:
            before = dict(await store.match_row(conn, mid))
            seats_core = [dict(s) for s in await store.seat_rows(conn, mid)]
        # The raw loader sees what Core sees.
        async with db.write() as conn:
            loaded = await conn.run_sync(lambda c: Driver(c).load(mid, lock=True))
        assert loaded is not None
        row, seats = loaded
        assert row == before
        assert seats == seats_core
        # (1 == True in Python: the types must match too, or the API would say 1.)
        assert [type(s["is_bot"]) for s in seats] == [bool, bool]
        assert type(row["private"]) is bool
        assert isinstance(row["due_at"], datetime) and row["due_at"].tzinfo is not None
        # A raw write reads back through Core unchanged, the microseconds included.
        due = now + timedelta(seconds=3600, microseconds=5)
        values: dict[str, Any] = {
            "state": row["state"], "version": row["version"] + 1, "due_at": due,
            "result": {"places": [1, 2]},
        }
        notice = {
            "key": "remind:test", "user_id": guest.user_id, "match_id": mid, "seat": 0,
            "kind": "reminder", "round": 1, "due_at": due, "send_after": due,
            "status": "pending", "attempts": 0, "created_at": now,
        }
        event = {"seq": row["version"] + 1, "type": "deadline", "seat": 0, "due_at": "x"}
        async with db.write() as conn:
            sqlite = db.is_sqlite
            writes = MoveWrites(mid, row["version"], values, notices=[notice], events=[event])
            ok = await conn.run_sync(lambda c: Driver(c).save(encode(writes, sqlite)))
            assert ok
            stale = MoveWrites(mid, row["version"], values)
            again = await conn.run_sync(lambda c: Driver(c).save(encode(stale, sqlite)))
            assert not again  # the version moved on
        async with db.read() as conn:
            after = dict(await store.match_row(conn, mid))
            assert after["due_at"] == due and after["result"] == {"places": [1, 2]}
            assert after["version"] == row["version"] + 1
            # The sweeper's comparison finds it due exactly when it is.
            due_ids = (await conn.execute(
                select(t.matches.c.id).where(t.matches.c.due_at <= due)
            )).scalars().all()
            not_yet = (await conn.execute(
                select(t.matches.c.id).where(t.matches.c.due_at <= due - timedelta(microseconds=1))
            )).scalars().all()
            assert mid in due_ids and mid not in not_yet
            stored = (await conn.execute(
                select(notices).where(notices.c.key == "remind:test")
            )).mappings().one()
            assert stored["send_after"] == due and stored["created_at"] == now
    finally:
        await db.dispose()


async def test_a_resignation_that_leaves_only_bots_writes_their_whole_match(
    client: Any,
) -> None:
    """The bots then play the match out inside the resignation's transaction: often
    hundreds of events, written in chunks (one statement for all of them would pass
    the drivers' limits on parameters). How long the bots play depends on the dice,
    so matches are started until one has written more rows than one INSERT takes
    (about half do; forty short ones in a row would be a one-in-a-trillion run)."""
    from jackpot import fair

    biggest = 0
    for _ in range(40):
        if biggest > CHUNK:
            break
        r = await client.post("/api/matches", json={"seats": 4, "bots": 3})
        assert r.status_code == 201, r.text
        mid, seq_before = r.json()["id"], r.json()["seq"]
        r = await client.post(f"/api/matches/{mid}/resign")
        assert r.status_code == 200, r.text
        assert r.json()["status"] == "finished"
        record = (await client.get(f"/api/matches/{mid}/record")).json()
        result = fair.verify(fair.record.parse_record(record))
        assert result.ok, result.problem
        # The live events this one transaction wrote (their seq numbers are gapless).
        biggest = max(biggest, r.json()["seq"] - seq_before)
    assert biggest > CHUNK  # more rows than one INSERT takes


async def test_a_save_worked_out_from_an_outdated_match_is_never_kept(database_url: str) -> None:
    """``save(later=True)``, a move worked out before its transaction: on PostgreSQL
    its statement is deferred (base/storage/deferred.py) and, the version moved on, fails
    when sent, with its transaction; on SQLite nothing was written and it says so.
    Either way none of its rows is kept; at the right version they all are."""
    db = Database(database_url)
    await db.upgrade()
    try:
        async with db.write() as conn:
            guest, _token = await create_guest(conn)
            out = await seating.create_match(
                conn, guest, variant="jackpot", seats=2, bots_count=1, deadline_seconds=3600,
                client_seed="ab", private=False, min_deadline=60, max_active=None,
                now=datetime(2026, 11, 30, 6, 0, 0, 0, tzinfo=UTC),
            )
        mid = out.match_id
        async with db.read() as conn:
            row = dict(await store.match_row(conn, mid))

        def writes(version: int) -> MoveWrites:
            seq = row["version"] + 1
            event = {"seq": seq, "type": "deadline", "seat": 0, "due_at": "x"}
            values = {"state": row["state"], "version": seq}
            return MoveWrites(mid, version, values, events=[event])

        async def events() -> list[int]:
            async with db.read() as conn:
                found = await conn.execute(
                    select(t.match_events.c.seq).where(t.match_events.c.match_id == mid)
                )
                return list(found.scalars())

        before = await events()
        stale = encode(writes(row["version"] - 1), db.is_sqlite)
        saved = None
        try:
            async with db.write() as conn:
                saved = await conn.run_sync(lambda c: Driver(c).save(stale, later=True))
                assert saved is not db.is_sqlite  # PostgreSQL knows only when it is sent
        except Exception as exc:
            assert not db.is_sqlite and "division by zero" in str(exc)
        assert saved is not None and await events() == before
        fresh = encode(writes(row["version"]), db.is_sqlite)
        async with db.write() as conn:
            assert await conn.run_sync(lambda c: Driver(c).save(fresh, later=True))
        assert await events() == [*before, row["version"] + 1]
    finally:
        await db.dispose()
