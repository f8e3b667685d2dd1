"""Password-reset mails through an outbox, sent by the mail worker like turn mails.

The request only writes a ``reset_mails`` row (and answers 202 whatever happens),
so a slow or broken mail server never fails or stalls it, and a flood of requests
for one address queues at most ``reset_mail_limit`` mails (by default one per
quarter of an hour): later requests find the recent row and add nothing.

The worker makes the link's token only when it sends, so no usable secret waits in
the database; it claims each row with a conditional UPDATE (a lease), so several
sweepers may run. A failed send is retried with backoff, and its token deleted (the
link never reached anybody). If a worker dies between sending and marking the row
sent, the lease runs out and a second mail goes with a fresh link: at least once.
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta

from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.i18n import current_locale, gettext, use_locale
from jackpot.web.base.clock import utcnow
from jackpot.web.base.env_values import Rate
from jackpot.web.base.identity import token_hash
from jackpot.web.base.mail import send_mail
from jackpot.web.base.settings import Settings
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.notify import password_resets, reset_mails
from jackpot.web.notify.outbox import claim, failed_send, mark_sent, queue, send_due

log = logging.getLogger("jackpot.resets")

#: How long a reset link works.
RESET_VALID = timedelta(hours=1)
#: Sent and failed rows are kept this long (the per-account limit reads them).
KEEP = timedelta(days=2)


async def queue_reset_mail(
    conn: AsyncConnection, user_id: int, limit: Rate, now: datetime
) -> bool:
    """A reset mail for the account, unless ``limit`` mails were queued for it within
    the window already; True if one was queued."""
    return await queue(conn, reset_mails, user_id, limit, now)


async def use_reset_token(conn: AsyncConnection, secret_hash: str, now: datetime) -> bool:
    """Mark a reset link's token used; False if it is unknown, used or expired. Used
    once, even by two requests racing with the same link: only one of them finds it
    unused (a row lock on PostgreSQL, the one writer on SQLite)."""
    taken = await conn.execute(
        update(password_resets)
        .where(
            password_resets.c.token_hash == secret_hash,
            password_resets.c.used.is_(False),
            password_resets.c.expires_at >= now,
        )
        .values(used=True)
    )
    return bool(taken.rowcount == 1)


def compose(settings: Settings, name: str, token: str, locale: str | None) -> tuple[str, str]:
    """Subject and body, in the recipient's language."""
    with use_locale(locale or current_locale()):
        body = "\n\n".join(
            [
                gettext("Hello %(name)s,", name=name),
                gettext(
                    "Somebody (we hope you) asked to reset the password of your Jackpot "
                    "account. Choose a new one here within the hour:"
                ),
                f"{settings.link_base}/reset/{token}",
                gettext("If it was not you, ignore this mail: your password stays as it is."),
            ]
        )
        return gettext("Reset your Jackpot password"), body + "\n"


async def _send_one(db: Database, settings: Settings, row_id: int, now: datetime) -> bool:
    if not await claim(db, reset_mails, row_id, now):
        return False  # another worker has it
    token = secrets.token_urlsafe(32)
    secret_hash = token_hash(token)
    async with db.write() as conn:
        row = (
            await conn.execute(
                select(
                    reset_mails.c.attempts,
                    t.users.c.id,
                    t.users.c.email,
                    t.users.c.name,
                    t.users.c.locale,
                )
                .join(t.users, t.users.c.id == reset_mails.c.user_id)
                .where(reset_mails.c.id == row_id)
            )
        ).first()
        if row is None or not row.email:
            await conn.execute(
                update(reset_mails).where(reset_mails.c.id == row_id).values(status="failed")
            )
            return False
        await conn.execute(
            insert(password_resets).values(
                token_hash=secret_hash, user_id=row.id, expires_at=now + RESET_VALID, used=False
            )
        )
    subject, body = compose(settings, row.name, token, row.locale)
    try:
        await send_mail(settings, row.email, subject, body)
    except Exception as exc:  # any failure of the mail server: retry later
        log.warning("reset mail %s failed: %s", row_id, exc)
        async with db.write() as conn:
            await conn.execute(
                delete(password_resets).where(password_resets.c.token_hash == secret_hash)
            )
            await conn.execute(
                update(reset_mails)
                .where(reset_mails.c.id == row_id)
                .values(**failed_send(row.attempts + 1, exc, now))
            )
        return False
    await mark_sent(db, reset_mails, row_id, row.attempts + 1)
    return True


async def send_reset_mails(db: Database, settings: Settings, now: datetime | None = None) -> int:
    """Send the reset mails that are due; returns how many this worker sent."""
    now = now or utcnow()
    return await send_due(
        db, reset_mails, now, lambda row_id: _send_one(db, settings, row_id, now), "reset mail"
    )


async def forget_old_reset_mails(db: Database, now: datetime | None = None) -> None:
    cutoff = (now or utcnow()) - KEEP
    async with db.write() as conn:
        await conn.execute(
            delete(reset_mails).where(
                reset_mails.c.status != "pending", reset_mails.c.created_at < cutoff
            )
        )
        await conn.execute(
            delete(password_resets).where(password_resets.c.expires_at < cutoff)
        )
