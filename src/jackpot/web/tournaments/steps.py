"""The tournaments' background steps: the starts whose time came, and rounds whose time ran out.

A round whose time ran out has each match still in play end with the round it is
playing, through play/'s action (``actions.end_round``), one transaction per match;
the last of them to end pairs the next round (rounds.table_ended). Every step claims
its work under the tournament's lock or through a conditional UPDATE, so several
processes may run it at once; ``now`` is the caller's, so a test can move the clock.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.clock import utcnow
from jackpot.web.base.errors import ApiError
from jackpot.web.base.settings import Settings
from jackpot.web.base.steps import Step
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables.core import matches
from jackpot.web.base.tables.tournaments import tournament_rounds, tournament_tables, tournaments
from jackpot.web.play import actions
from jackpot.web.tournaments.news import send_table_mails
from jackpot.web.tournaments.rounds import advance, start
from jackpot.web.tournaments.store import changed

#: Tournaments one pass takes on.
BATCH = 50
#: Seconds between two passes of the table mails.
MAIL_EVERY = 5.0


async def start_due(db: Database, now: datetime | None = None) -> int:
    """Start every tournament whose start time came; returns how many this call started."""
    now = now or utcnow()
    async with db.read() as conn:
        due = (
            (
                await conn.execute(
                    select(tournaments.c.id)
                    .where(tournaments.c.status == "entering", tournaments.c.starts_at <= now)
                    .order_by(tournaments.c.starts_at)
                    .limit(BATCH)
                )
            )
            .scalars()
            .all()
        )
    started = 0
    for tournament_id in due:
        async with db.write() as conn:
            started += await start(conn, tournament_id, now)
    return started


async def end_rounds(db: Database, now: datetime | None = None) -> int:
    """Every round whose time ran out: its matches in play told to end with the round
    they play; returns how many rounds this call ended."""
    now = now or utcnow()
    async with db.read() as conn:
        due = (
            await conn.execute(
                select(tournaments.c.id, tournaments.c.round)
                .where(tournaments.c.status == "playing", tournaments.c.round_ends_at <= now)
                .order_by(tournaments.c.round_ends_at)
                .limit(BATCH)
            )
        ).all()
    ended = 0
    for tournament_id, r in due:
        if await _end_round(db, tournament_id, r, now):
            ended += 1
    return ended


async def _end_round(db: Database, tournament_id: str, r: int, now: datetime) -> bool:
    async with db.read() as conn:
        playing = await _playing(conn, tournament_id, r)
    done = True
    for match_id in playing:
        try:
            async with db.write() as conn:
                await actions.end_round(conn, match_id, now)
        except ApiError:
            done = False  # a player moved it meanwhile: the next pass tries again
    if not done:
        return False
    async with db.write() as conn:
        claimed = await conn.execute(
            update(tournaments)
            .where(
                tournaments.c.id == tournament_id,
                tournaments.c.round == r,
                tournaments.c.round_ends_at <= now,
            )
            .values(round_ends_at=None)
        )
        await conn.execute(
            update(tournament_rounds)
            .where(
                tournament_rounds.c.tournament_id == tournament_id, tournament_rounds.c.round == r
            )
            .values(timed_out_at=now)
        )
        await changed(conn, tournament_id)
        # A round with no table left in play is over: pair on (the ends did, unless
        # none was in play any more).
        await advance(conn, tournament_id, now)
    return bool(claimed.rowcount)


async def _playing(conn: AsyncConnection, tournament_id: str, r: int) -> list[str]:
    tt = tournament_tables
    return list(
        (
            await conn.execute(
                select(tt.c.match_id)
                .join(matches, matches.c.id == tt.c.match_id)
                .where(
                    tt.c.tournament_id == tournament_id,
                    tt.c.round == r,
                    matches.c.status == "playing",
                )
                .order_by(tt.c.table)
            )
        ).scalars()
    )


def tournament_steps(db: Database, settings: Settings) -> list[Step]:
    """Tournaments started at their time, rounds ended when theirs runs out, and the
    mails that tell players their table is ready."""
    return [
        Step("tournament start", settings.sweep_interval, lambda: start_due(db)),
        Step("tournament rounds", settings.sweep_interval, lambda: end_rounds(db)),
        Step("tournament table mails", MAIL_EVERY, lambda: send_table_mails(db, settings)),
    ]
