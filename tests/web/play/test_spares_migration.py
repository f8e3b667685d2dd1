"""The spares' migration keeps every match as it was (none: a missed deadline puts the
seat out, as before), and comes off again cleanly."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from alembic import command
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from jackpot.web.base.storage.db import Database
from jackpot.web.base.storage.migrate import alembic_config

pytestmark = pytest.mark.pg


def _to(revision: str, down: bool = False):  # type: ignore[no-untyped-def]
    def run(conn: Connection) -> None:
        cfg = alembic_config()
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, revision)

    return run


def _columns(conn: Connection, table: str) -> set[str]:
    return {c["name"] for c in inspect(conn).get_columns(table)}


async def test_old_matches_get_no_spares_and_the_migration_comes_off(
    empty_database_url: str,
) -> None:
    db = Database(empty_database_url)
    now = datetime.now(UTC)
    try:
        async with db.write() as conn:
            await conn.run_sync(_to("0037_origin"))
        async with db.write() as conn:
            await conn.execute(
                text(
                    "INSERT INTO users (id, name, is_guest, leaderboard, created_at, last_seen)"
                    " VALUES (1, 'P1', FALSE, FALSE, :now, :now)"
                ),
                {"now": now},
            )
            await conn.execute(
                text(
                    "INSERT INTO matches (id, variant, status, seat_count, deadline_seconds,"
                    " private, creator_id, created_at, server_seed, commitment, version,"
                    " record_len) VALUES ('m_old0000000000001', 'jackpot', 'playing', 2, 3600,"
                    " FALSE, 1, :now, :seed, :commit, 0, 0)"
                ),
                {"now": now, "seed": "ab" * 32, "commit": "cd" * 32},
            )
        async with db.write() as conn:
            await conn.run_sync(_to("0038_spares"))
        async with db.read() as conn:
            old = text("SELECT spares FROM matches WHERE id = 'm_old0000000000001'")
            spares = (await conn.execute(old)).scalar_one()
            assert spares == 0
            for table in ("matches", "seeks", "challenges"):
                assert "spares" in await conn.run_sync(_columns, table)
        async with db.write() as conn:
            await conn.run_sync(_to("0037_origin", down=True))
        async with db.read() as conn:
            for table in ("matches", "seeks", "challenges"):
                assert "spares" not in await conn.run_sync(_columns, table)
            kept = (await conn.execute(text("SELECT id FROM matches"))).scalars().all()
            assert kept == ["m_old0000000000001"]
    finally:
        await db.dispose()
