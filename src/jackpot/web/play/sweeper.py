"""The deadline sweeper: puts out seats whose throw deadline passed, calls off stale lobby matches.

play/'s background steps (``sweeper_steps``), run inside ``jackpot serve`` and by
``jackpot sweep`` (base/steps.py). Several copies may run at once: each timeout is
applied by ``actions.timeout`` with a conditional UPDATE on the match's version, so
exactly one copy wins and the others see that the match moved on. It also forgets
guests (and their matches) not seen for a week.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import and_, delete, exists, select

from jackpot.web.accounts.credentials import forget_guests, old_guests
from jackpot.web.base.clock import utcnow
from jackpot.web.base.errors import ApiError
from jackpot.web.base.settings import Settings
from jackpot.web.base.steps import Step
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables import core as t
from jackpot.web.play import actions, seating

BATCH = 200
#: Seconds between two passes that forget old guests.
GUEST_CLEANUP_EVERY = 600


async def sweep_once(db: Database, now: datetime | None = None) -> int:
    """Apply every timeout due at ``now``; returns how many this copy applied."""
    now = now or utcnow()
    async with db.read() as conn:
        due = (
            await conn.execute(
                select(t.matches.c.id, t.matches.c.version)
                .where(t.matches.c.due_at <= now, t.matches.c.status == "playing")
                .order_by(t.matches.c.due_at)
                .limit(BATCH)
            )
        ).all()
    applied = 0
    for match_id, version in due:
        try:
            async with db.write() as conn:
                out = await actions.timeout(conn, match_id, version, now)
        except ApiError:
            continue  # somebody moved (or another sweeper won) first
        if out is not None:
            applied += 1
    return applied


async def expire_lobby(db: Database, now: datetime | None = None) -> int:
    """Call off every match that waited for players past its expiry; returns how many
    this copy called off (another copy may win a race: the version check says so)."""
    now = now or utcnow()
    async with db.read() as conn:
        stale = (
            await conn.execute(
                select(t.matches.c.id)
                .where(t.matches.c.status == "waiting", t.matches.c.expires_at <= now)
                .order_by(t.matches.c.expires_at)
                .limit(BATCH)
            )
        ).scalars().all()
    called_off = 0
    for match_id in stale:
        try:
            async with db.write() as conn:
                out = await seating.expire_waiting(conn, match_id, now)
        except ApiError:
            continue
        if out is not None:
            called_off += 1
    return called_off


async def forget_old_guests(
    db: Database, days: int, now: datetime | None = None, unused_hours: int = 24
) -> None:
    """Guest matches are kept a week: delete guests not seen since, with their matches,
    finished or not (unless an account also sat in the match). A guest that never
    sat in a match goes after ``unused_hours``: nothing of it is worth keeping. The
    matches are play's to delete; the guests themselves accounts/' (``forget_guests``),
    in the same transaction."""
    now = now or utcnow()
    old_guest = old_guests(now - timedelta(days=days), now - timedelta(hours=unused_hours))
    async with db.write() as conn:
        account_seat = (
            select(t.seats.c.match_id)
            .join(t.users, t.users.c.id == t.seats.c.user_id)
            .where(t.users.c.is_guest.is_(False))
        )
        guest_matches = select(t.seats.c.match_id).where(t.seats.c.user_id.in_(old_guest))
        for table in (t.match_events, t.record_events, t.seats):
            await conn.execute(
                delete(table).where(
                    table.c.match_id.in_(guest_matches), table.c.match_id.not_in(account_seat)
                )
            )
        await conn.execute(
            delete(t.matches).where(
                and_(
                    t.matches.c.creator_id.in_(old_guest),
                    ~exists().where(t.seats.c.match_id == t.matches.c.id),
                )
            )
        )
        await forget_guests(conn, old_guest)


def sweeper_steps(db: Database, settings: Settings) -> list[Step]:
    """play/'s background steps: the throw deadlines and the lobby's expiry at the
    sweep interval, the old guests every ten minutes."""

    async def forget_guests() -> None:
        await forget_old_guests(db, settings.guest_days, unused_hours=settings.unused_guest_hours)

    return [
        Step("deadlines", settings.sweep_interval, lambda: sweep_once(db)),
        Step("lobby expiry", settings.sweep_interval, lambda: expire_lobby(db)),
        Step("old guests", GUEST_CLEANUP_EVERY, forget_guests),
    ]
