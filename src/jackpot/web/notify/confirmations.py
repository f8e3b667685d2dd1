"""Email confirmation: the mail with its link, using the link, and whose address may be mailed.

Sign-up takes any address, so without a confirmation anybody could aim the site's
turn, end and rematch mails at a stranger's inbox. An account's address therefore
gets nothing but this mail and password resets until its owner opens the link
(``confirmed`` is what the mail worker's selection asks: mailbox.py). A password
reset confirms the address too: using its link proves the same control of the
inbox, and it is how the owner of an address somebody else signed up with takes
the account back.

The mails go out like reset mails: the request writes a ``confirm_mails`` row,
the mail worker makes the link's token when it sends (only its hash is kept), each
row claimed with a lease, a failed send retried with backoff and its token
dropped. A link works once, for ``CONFIRM_VALID``, and only for the address it was
sent to. Mails for an address confirmed meanwhile are not sent.
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta
from typing import Any

from fastapi import Request
from sqlalchemy import and_, delete, exists, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.i18n import current_locale, gettext, use_locale
from jackpot.web.base.clock import utcnow
from jackpot.web.base.edge.http import db_of, settings_of
from jackpot.web.base.env_values import Rate
from jackpot.web.base.errors import ApiError, conflict
from jackpot.web.base.identity import token_hash
from jackpot.web.base.mail import send_mail
from jackpot.web.base.settings import Settings
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.notify import confirm_mails, confirmed_emails
from jackpot.web.notify.outbox import claim, failed_send, mark_sent, queue, send_due

log = logging.getLogger("jackpot.confirm")

#: How long a confirmation link works.
CONFIRM_VALID = timedelta(days=7)
#: Rows are kept this long: a link's life, and the per-account limit's window.
KEEP = CONFIRM_VALID + timedelta(days=1)


def confirmed(user_id: Any = t.users.c.id, email: Any = t.users.c.email) -> Any:
    """SQL: the account confirmed the address it has now."""
    return exists().where(confirmed_emails.c.user_id == user_id, confirmed_emails.c.email == email)


async def is_confirmed(conn: AsyncConnection, user_id: int) -> bool:
    found = await conn.execute(
        select(t.users.c.id).where(t.users.c.id == user_id, confirmed())
    )
    return found.first() is not None


async def mark_confirmed(conn: AsyncConnection, user_id: int, email: str, now: datetime) -> None:
    """The account has shown that it reads ``email`` (a confirmation or a reset link)."""
    await conn.execute(delete(confirmed_emails).where(confirmed_emails.c.user_id == user_id))
    await conn.execute(
        insert(confirmed_emails).values(user_id=user_id, email=email, confirmed_at=now)
    )


async def queue_confirm_mail(
    conn: AsyncConnection, user_id: int, email: str, limit: Rate | None, now: datetime
) -> bool:
    """A confirmation mail for the account's address, unless ``limit`` mails were
    queued for the account within its window; True if one was queued."""
    return await queue(conn, confirm_mails, user_id, limit, now, email=email, used=False)


def compose(settings: Settings, name: str, token: str, locale: str | None) -> tuple[str, str]:
    """Subject and body, in the recipient's language."""
    with use_locale(locale or current_locale()):
        body = "\n\n".join(
            [
                gettext("Hello %(name)s,", name=name),
                gettext(
                    "Somebody (we hope you) made a Jackpot account with this address. "
                    "Confirm it here within seven days, and the site will mail you about "
                    "your matches as your account page says:"
                ),
                f"{settings.link_base}/confirm-email/{token}",
                gettext(
                    "If it was not you, ignore this mail: no news of matches will come to "
                    "this address. To have the account yourself, ask for a password reset "
                    "on the site with this address."
                ),
            ]
        )
        return gettext("Confirm your address for Jackpot"), body + "\n"


async def _send_one(db: Database, settings: Settings, row_id: int, now: datetime) -> bool:
    if not await claim(db, confirm_mails, row_id, now):
        return False  # another worker has it
    token = secrets.token_urlsafe(32)
    async with db.write() as conn:
        row = (
            await conn.execute(
                select(
                    confirm_mails.c.attempts,
                    confirm_mails.c.email,
                    t.users.c.id,
                    t.users.c.email.label("now_email"),
                    t.users.c.name,
                    t.users.c.locale,
                    confirmed(t.users.c.id, confirm_mails.c.email).label("done"),
                )
                .join(t.users, t.users.c.id == confirm_mails.c.user_id)
                .where(confirm_mails.c.id == row_id)
            )
        ).first()
        if row is None or row.done or row.now_email != row.email:
            await conn.execute(
                update(confirm_mails)
                .where(confirm_mails.c.id == row_id)
                .values(status="dropped", lease_until=None)
            )
            return False
        await conn.execute(
            update(confirm_mails)
            .where(confirm_mails.c.id == row_id)
            .values(token_hash=token_hash(token), expires_at=now + CONFIRM_VALID)
        )
    subject, body = compose(settings, row.name, token, row.locale)
    try:
        await send_mail(settings, row.email, subject, body)
    except Exception as exc:  # any failure of the mail server: retry later
        log.warning("confirmation mail %s failed: %s", row_id, exc)
        async with db.write() as conn:
            await conn.execute(
                update(confirm_mails)
                .where(confirm_mails.c.id == row_id)
                .values(
                    token_hash=None,  # the link never reached anybody
                    expires_at=None,
                    **failed_send(row.attempts + 1, exc, now),
                )
            )
        return False
    await mark_sent(db, confirm_mails, row_id, row.attempts + 1)
    return True


async def send_confirm_mails(db: Database, settings: Settings, now: datetime | None = None) -> int:
    """Send the confirmation mails that are due; returns how many this worker sent."""
    now = now or utcnow()
    return await send_due(
        db, confirm_mails, now, lambda row_id: _send_one(db, settings, row_id, now),
        "confirmation mail",
    )


def _usable(token: str, now: datetime) -> Any:
    return and_(
        confirm_mails.c.token_hash == token_hash(token[:200]),
        confirm_mails.c.used.is_(False),
        confirm_mails.c.expires_at >= now,
    )


async def link_target(conn: AsyncConnection, token: str, now: datetime) -> Any | None:
    """The address and account name a link would confirm (None: unknown, used,
    expired, or no longer the account's address)."""
    return (
        await conn.execute(
            select(confirm_mails.c.user_id, confirm_mails.c.email, t.users.c.name)
            .join(t.users, t.users.c.id == confirm_mails.c.user_id)
            .where(_usable(token, now), t.users.c.email == confirm_mails.c.email)
        )
    ).first()


async def use_link(conn: AsyncConnection, token: str, now: datetime) -> Any | None:
    """Confirm the address of a usable link, once (two requests racing with it: one
    finds it unused); the address and name, or None."""
    target = await link_target(conn, token, now)
    if target is None:
        return None
    taken = await conn.execute(update(confirm_mails).where(_usable(token, now)).values(used=True))
    if taken.rowcount != 1:
        return None
    await mark_confirmed(conn, target.user_id, target.email, now)
    return target


async def forget_old_confirm_mails(db: Database, now: datetime | None = None) -> None:
    cutoff = (now or utcnow()) - KEEP
    async with db.write() as conn:
        await conn.execute(
            delete(confirm_mails).where(
                confirm_mails.c.status != "pending", confirm_mails.c.created_at < cutoff
            )
        )


async def resend(request: Request, user_id: int, email: str) -> str:
    """Queue the link again (the account page's button, ``POST
    /api/account/email-confirmation``); what to say about it. 409 when the address
    is confirmed already, 429 past ``JACKPOT_CONFIRM_MAIL_LIMIT``."""
    async with db_of(request).write() as conn:
        if await is_confirmed(conn, user_id):
            raise conflict("your address is confirmed already", "email_confirmed")
        limit = settings_of(request).confirm_mail_limit
        if not await queue_confirm_mail(conn, user_id, email, limit, utcnow()):
            raise ApiError(
                429,
                "too_many_attempts",
                "a link went to %(email)s several times lately: look for it (in the spam "
                "folder too), or ask again later",
                email=email,
            )
    return gettext("A new link is on its way to %(email)s.", email=email)
