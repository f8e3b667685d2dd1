"""The migration that lets a match have no clock per throw keeps every row there was:
on SQLite it edits the table's schema in place (a rebuild inside the upgrade's
transaction, foreign keys on, would cascade-delete the seats and records)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from alembic import command
from sqlalchemy import func, insert, select
from sqlalchemy.engine import Connection

from jackpot.web.base.storage.db import Database
from jackpot.web.base.storage.migrate import alembic_config
from jackpot.web.base.tables import core as t

#: Repeated on PostgreSQL (make test): a migration.
pytestmark = pytest.mark.pg


def upgrade_to(conn: Connection, revision: str) -> None:
    cfg = alembic_config()
    cfg.attributes["connection"] = conn
    command.upgrade(cfg, revision)


async def test_old_matches_survive_and_new_ones_may_have_no_deadline(
    empty_database_url: str,
) -> None:
    db = Database(empty_database_url)
    try:
        async with db.write() as conn:
            await conn.run_sync(upgrade_to, "0001")
        now = datetime.now(UTC)
        async with db.write() as conn:
            await conn.execute(
                insert(t.users).values(
                    id=1,
                    name="Ana",
                    is_guest=False,
                    leaderboard=False,
                    created_at=now,
                    last_seen=now,
                )
            )
            await conn.execute(
                insert(t.matches).values(
                    id="m_0000000000000001",
                    variant="jackpot",
                    status="playing",
                    seat_count=1,
                    deadline_seconds=3600,
                    private=True,
                    creator_id=1,
                    created_at=now,
                    server_seed="ab" * 32,
                    commitment="cd" * 32,
                    version=0,
                    record_len=1,
                )
            )
            await conn.execute(
                insert(t.seats).values(
                    match_id="m_0000000000000001", seat=0, user_id=1, is_bot=False, name="Ana"
                )
            )
            await conn.execute(
                insert(t.record_events).values(
                    match_id="m_0000000000000001", idx=0, kind="throw", n=0, seat=0, dice="3,4"
                )
            )
        await db.upgrade()  # every head, this branch's included
        async with db.read() as conn:
            for table in (t.matches, t.seats, t.record_events):
                assert (await conn.execute(select(func.count()).select_from(table))).scalar() == 1
            deadline = (await conn.execute(select(t.matches.c.deadline_seconds))).scalar()
            assert deadline == 3600
            if db.is_sqlite:
                assert (await conn.exec_driver_sql("PRAGMA integrity_check")).scalar() == "ok"
                assert (await conn.exec_driver_sql("PRAGMA foreign_key_check")).all() == []
        async with db.write() as conn:
            await conn.execute(
                insert(t.matches).values(
                    id="m_0000000000000002",
                    variant="classic",
                    status="playing",
                    seat_count=1,
                    deadline_seconds=None,
                    private=True,
                    creator_id=1,
                    created_at=now,
                    server_seed="ab" * 32,
                    commitment="cd" * 32,
                    version=0,
                    record_len=0,
                )
            )
        async with db.read() as conn:
            rows = (
                await conn.execute(
                    select(t.matches.c.id, t.matches.c.deadline_seconds).order_by(t.matches.c.id)
                )
            ).all()
        assert [tuple(r) for r in rows] == [
            ("m_0000000000000001", 3600),
            ("m_0000000000000002", None),
        ]
    finally:
        await db.dispose()
