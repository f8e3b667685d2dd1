"""The mail worker, a step of the sweeper: claim a player, sort, send, mark.

One mail per player and pass (a digest when several matches wait); each notice is
marked sent, held, dropped or failed.
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.i18n import use_locale
from jackpot.web.base.clock import utcnow
from jackpot.web.base.mail import send_mail
from jackpot.web.base.settings import Settings
from jackpot.web.base.steps import Step
from jackpot.web.base.storage.db import Database, insert_ignore
from jackpot.web.base.tables.notify import mail_prefs, notices
from jackpot.web.notify.compose import compose
from jackpot.web.notify.confirmations import forget_old_confirm_mails, send_confirm_mails
from jackpot.web.notify.mailbox import Mailbox, Sorted, read_mailbox, sort_mailbox
from jackpot.web.notify.notices import move_early_reminders
from jackpot.web.notify.outbox import LEASE, MAX_ATTEMPTS, backoff
from jackpot.web.notify.prefs import default_prefs
from jackpot.web.notify.resets import forget_old_reset_mails, send_reset_mails

log = logging.getLogger("jackpot.notify")

#: How long a sweeper may hold a player's claim while it builds and sends one mail.
BATCH = 100
#: How often the mail worker looks for due mail; reminders need no finer timing.
MAIL_INTERVAL = 5.0
#: Sent and dropped notices are kept this long (to answer "did I get mailed?").
KEEP_NOTICES = timedelta(days=30)


async def mail_step(db: Database, settings: Settings, now: datetime | None = None) -> int:
    """Send every mail that is due at ``now``; returns how many this copy sent."""
    now = now or utcnow()
    await move_early_reminders(db, now)
    sent = 0
    for user_id in await _due_users(db, now):
        try:
            if await _mail_user(db, settings, user_id, now):
                sent += 1
        except Exception:  # one player's trouble must not stop everybody's mail
            log.exception("mail step failed for user %s", user_id)
    return sent


def mail_steps(db: Database, settings: Settings) -> list[Step]:
    """notify/'s mail worker as background steps: reset and confirmation mails and the
    notices due, every ``MAIL_INTERVAL`` seconds; old ones forgotten hourly."""

    async def send() -> int:
        sent = await send_reset_mails(db, settings) + await send_confirm_mails(db, settings)
        return sent + await mail_step(db, settings)

    async def forget() -> None:
        await forget_old_notices(db)
        await forget_old_reset_mails(db)
        await forget_old_confirm_mails(db)

    return [Step("mail", MAIL_INTERVAL, send), Step("old notices", 3600, forget)]


async def forget_old_notices(db: Database, now: datetime | None = None) -> None:
    cutoff = (now or utcnow()) - KEEP_NOTICES
    async with db.write() as conn:
        await conn.execute(
            delete(notices).where(notices.c.status != "pending", notices.c.created_at < cutoff)
        )


async def _due_users(db: Database, now: datetime) -> list[int]:
    async with db.read() as conn:
        rows = await conn.execute(
            select(notices.c.user_id)
            .where(notices.c.status == "pending", notices.c.send_after <= now)
            .group_by(notices.c.user_id)
            .order_by(func.min(notices.c.send_after))
            .limit(BATCH)
        )
        return [int(r[0]) for r in rows]


async def _mail_user(db: Database, settings: Settings, user_id: int, now: datetime) -> bool:
    """One player's mail, if anything is due and still true: True when it was sent."""
    owner = secrets.token_hex(8)
    if not await _claim(db, user_id, owner, now):
        return False  # another sweeper is mailing this player right now
    digest_at: datetime | None = None
    try:
        async with db.read() as conn:
            box = await read_mailbox(conn, user_id, now)
        plan = sort_mailbox(box, now)
        as_read = _as_read(box)
        await _drop_and_hold(db, plan, as_read)
        if not plan.items:
            return False
        if not await _send(db, settings, user_id, box, plan, as_read, now):
            return False
        # Any mail with turn news starts the hour; so does a reminder, which said
        # everything that was waiting.
        digest_at = now
        return True
    finally:
        async with db.write() as conn:
            await _release(conn, user_id, owner, digest_at)


async def _claim(db: Database, user_id: int, owner: str, now: datetime) -> bool:
    """Take the player's lease: a conditional UPDATE only one sweeper can win."""
    async with db.write() as conn:
        await conn.execute(insert_ignore(conn, mail_prefs, "user_id"), [default_prefs(user_id)])
        res = await conn.execute(
            update(mail_prefs)
            .where(
                mail_prefs.c.user_id == user_id,
                or_(mail_prefs.c.lease_until.is_(None), mail_prefs.c.lease_until < now),
            )
            .values(lease_owner=owner, lease_until=now + LEASE)
        )
        return res.rowcount == 1


async def _release(
    conn: AsyncConnection, user_id: int, owner: str, digest_at: datetime | None
) -> None:
    values: dict[str, Any] = {"lease_owner": None, "lease_until": None}
    if digest_at is not None:
        values["last_digest_at"] = digest_at
    await conn.execute(
        update(mail_prefs)
        .where(mail_prefs.c.user_id == user_id, mail_prefs.c.lease_owner == owner)
        .values(**values)
    )


def _as_read(box: Mailbox) -> Any:
    """The notices still pending as they were read: a move rewrites a pending
    reminder for its next throw in place, under a new key (play/storage/match_sql.py), and
    that new reminder is not the one this pass read, sent or dropped."""
    return and_(notices.c.status == "pending", notices.c.key.in_([n.key for n in box.due]))


async def _drop_and_hold(db: Database, plan: Sorted, as_read: Any) -> None:
    if not (plan.drop or plan.hold):
        return
    async with db.write() as conn:
        if plan.drop:
            await conn.execute(
                update(notices)
                .where(notices.c.id.in_(plan.drop), as_read)
                .values(status="dropped")
            )
        if plan.hold:
            await conn.execute(
                update(notices)
                .where(notices.c.id.in_(plan.hold), as_read)
                .values(send_after=plan.held_until)
            )


async def _send(
    db: Database, settings: Settings, user_id: int, box: Mailbox, plan: Sorted,
    as_read: Any, now: datetime,
) -> bool:
    """Send the mail and mark its notices sent; on a failure of the mail server, mark
    them for a retry with backoff (or failed, after ``MAX_ATTEMPTS``)."""
    user = box.user
    assert user is not None and user.email
    items = list(plan.items.values())
    with use_locale(user.locale):
        subject, body, headers = compose(settings, user.name, user_id, items, now)
    ids = [i for item in items for i in item.notice_ids]
    try:
        await send_mail(settings, user.email, subject, body, headers=headers)
    except Exception as exc:  # any failure of the mail server: retry later
        log.warning("mail to user %s failed: %s", user_id, exc)
        await _failed(db, [n for n in box.due if n.id in ids], exc, now)
        return False
    async with db.write() as conn:
        await conn.execute(
            update(notices)
            .where(notices.c.id.in_(ids), as_read)
            .values(status="sent", sent_at=now, attempts=notices.c.attempts + 1)
        )
    return True


async def _failed(db: Database, tried: list[Any], exc: Exception, now: datetime) -> None:
    async with db.write() as conn:
        for n in tried:
            attempts = n.attempts + 1
            await conn.execute(
                update(notices)
                .where(notices.c.id == n.id, notices.c.key == n.key, notices.c.status == "pending")
                .values(
                    attempts=attempts,
                    send_after=now + backoff(attempts),
                    status="failed" if attempts >= MAX_ATTEMPTS else "pending",
                    error=str(exc)[:200],
                )
            )
