"""The migration that gives every match its origin works it out for the matches made
before it, from what made them, and keeps every row there was."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from alembic import command
from sqlalchemy import insert, select
from sqlalchemy.engine import Connection

from jackpot.web.base.storage.db import Database
from jackpot.web.base.storage.migrate import alembic_config
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.daily import daily_entries
from jackpot.web.base.tables.people import challenges, seeks
from jackpot.web.base.tables.play import rematch_offers

#: Repeated on PostgreSQL (make test): a migration.
pytestmark = pytest.mark.pg

#: Every head before the origin's migration (they meet there).
BEFORE = ("0003_notify", "0014_seat_order", "0033_daily", "0036_challenge_mail_retry")


def upgrade_to_before(conn: Connection) -> None:
    cfg = alembic_config()
    cfg.attributes["connection"] = conn
    for revision in BEFORE:
        command.upgrade(cfg, revision)


def match(mid: str, now: datetime, seats: int, private: bool = False) -> dict[str, Any]:
    return {
        "id": mid,
        "variant": "jackpot",
        "status": "playing",
        "seat_count": seats,
        "deadline_seconds": 3600,
        "private": private,
        "creator_id": 1,
        "created_at": now,
        "server_seed": "ab" * 32,
        "commitment": "cd" * 32,
        "version": 0,
        "record_len": 0,
    }


def seat(mid: str, n: int, user: int | None) -> dict[str, Any]:
    return {
        "match_id": mid,
        "seat": n,
        "user_id": user,
        "is_bot": user is None,
        "name": "Bot" if user is None else f"P{user}",
    }


async def test_old_matches_get_the_origin_that_made_them(empty_database_url: str) -> None:
    db = Database(empty_database_url)
    now = datetime.now(UTC)
    later = now + timedelta(days=7)
    kinds = {
        "m_solo000000000001": ([1], False),
        "m_bot0000000000001": ([1, None], False),
        "m_people0000000001": ([1, 2], False),
        "m_private000000001": ([1, 2], True),
        "m_withbot00000001": ([1, 2, None], False),
        "m_challenge000001": ([1, 2], False),
        "m_playnow00000001": ([1, 2], False),
        "m_rematch00000001": ([1, 2], False),
        "m_daily0000000001": ([1], True),
    }
    try:
        async with db.write() as conn:
            await conn.run_sync(upgrade_to_before)
        async with db.write() as conn:
            for uid in (1, 2):
                await conn.execute(
                    insert(t.users).values(
                        id=uid,
                        name=f"P{uid}",
                        is_guest=False,
                        leaderboard=False,
                        created_at=now,
                        last_seen=now,
                    )
                )
            for mid, (sitting, private) in kinds.items():
                await conn.execute(insert(t.matches).values(match(mid, now, len(sitting), private)))
                await conn.execute(
                    insert(t.seats), [seat(mid, n, u) for n, u in enumerate(sitting)]
                )
            await conn.execute(
                insert(challenges).values(
                    id="c_00000000000001",
                    from_id=1,
                    to_id=2,
                    variant="jackpot",
                    deadline_seconds=3600,
                    status="accepted",
                    match_id="m_challenge000001",
                    created_at=now,
                    expires_at=later,
                )
            )
            await conn.execute(
                insert(seeks),
                [
                    {
                        "id": f"s_0000000000000{n}",
                        "user_id": n,
                        "variant": "jackpot",
                        "deadline_seconds": 3600,
                        "seats": 2,
                        "rating": 1000,
                        "provisional": True,
                        "status": "paired",
                        "match_id": "m_playnow00000001",
                        "created_at": now,
                        "expires_at": later,
                    }
                    for n in (1, 2)
                ],
            )
            await conn.execute(
                insert(rematch_offers).values(
                    match_id="m_people0000000001",
                    offered_by=0,
                    accepted="0,1",
                    seeds="{}",
                    status="started",
                    new_match_id="m_rematch00000001",
                    created_at=now,
                    version=2,
                )
            )
            await conn.execute(
                insert(daily_entries).values(
                    match_id="m_daily0000000001",
                    day="2026-12-06",
                    variant="jackpot",
                    user_id=1,
                    name="P1",
                    entered_at=now,
                    finished=False,
                )
            )
        await db.upgrade()
        async with db.read() as conn:
            rows = {
                r.id: r
                for r in (
                    await conn.execute(
                        select(
                            t.matches.c.id,
                            t.matches.c.origin,
                            t.matches.c.origin_id,
                            t.matches.c.rated,
                            t.matches.c.offers_rematch,
                            t.matches.c.on_watch,
                        )
                    )
                ).all()
            }
            assert (await conn.execute(select(t.seats))).all().__len__() == sum(
                len(s) for s, _ in kinds.values()
            )
        got = {
            mid: (r.origin, r.origin_id, r.rated, r.offers_rematch, r.on_watch)
            for mid, r in rows.items()
        }
        assert got == {
            "m_solo000000000001": ("solo", None, False, False, False),
            "m_bot0000000000001": ("bot", None, False, False, False),
            "m_people0000000001": ("people", None, True, True, True),
            "m_private000000001": ("people", None, True, True, False),
            "m_withbot00000001": ("people", None, True, True, False),
            "m_challenge000001": ("challenge", "c_00000000000001", True, True, True),
            "m_playnow00000001": ("play_now", "s_00000000000002", True, True, True),
            "m_rematch00000001": ("rematch", "m_people0000000001", True, True, True),
            "m_daily0000000001": ("daily", "2026-12-06:jackpot", False, False, False),
        }
    finally:
        await db.dispose()
