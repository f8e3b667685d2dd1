"""The mail that tells a player they were challenged, under their mail setting.

The challenge's row is the outbox: it is written with ``mail = "pending"`` in the
transaction that makes the challenge, and this background step sends it. A pass
claims each row with a conditional UPDATE on a lease (``mail_after``), as the other
mail outboxes do (notify/outbox.py), so several processes may run it at once and a
mail goes once; a process that dies mid-send lets the lease run out and the mail is
sent again. A mail server's failure is tried again after the outboxes' backoff, up to
their number of attempts. Nobody is mailed whose mail setting is off (the turn mails'
setting, notify/prefs.py) or whose address is not confirmed, nor about a challenge
answered or withdrawn before the mail went.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from sqlalchemy import or_, select, update

from jackpot.i18n import current_locale, gettext, use_locale
from jackpot.i18n.formats import duration, variant_name
from jackpot.web.base.clock import utcnow
from jackpot.web.base.mail import send_mail
from jackpot.web.base.settings import Settings
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.people import challenges
from jackpot.web.notify.confirmations import confirmed
from jackpot.web.notify.outbox import LEASE, MAX_ATTEMPTS, backoff
from jackpot.web.notify.prefs import get_pref

log = logging.getLogger("jackpot.challenge_mail")

#: Mails one pass sends at most.
BATCH = 50


def compose(
    settings: Settings, name: str, by: str, variant: str, seconds: int, locale: str | None
) -> tuple[str, str]:
    """Subject and body, in the recipient's language."""
    with use_locale(locale or current_locale()):
        body = "\n\n".join(
            [
                gettext("Hello %(name)s,", name=name),
                gettext(
                    "%(by)s challenges you to a match of %(variant)s, %(time)s per throw. "
                    "Accept or decline it here:",
                    by=by,
                    variant=variant_name(variant),
                    time=duration(seconds),
                ),
                f"{settings.link_base}/play-now",
                gettext(
                    "Who may challenge you, and which mails you get, is yours to choose on "
                    "your account page:"
                ),
                f"{settings.link_base}/account",
            ]
        )
        return gettext("%(by)s challenges you to a match", by=by), body + "\n"


def due(now: datetime) -> Any:
    """Challenge mails that may go at ``now``: pending, and no backoff or lease ahead."""
    return (challenges.c.mail == "pending") & or_(
        challenges.c.mail_after.is_(None), challenges.c.mail_after <= now
    )


async def mark(db: Database, challenge_id: str, **values: Any) -> None:
    async with db.write() as conn:
        await conn.execute(
            update(challenges).where(challenges.c.id == challenge_id).values(**values)
        )


async def send_one(db: Database, settings: Settings, challenge_id: str, now: datetime) -> bool:
    """Claim one challenge's mail and send it, or set it aside; whether it went."""
    async with db.write() as conn:
        claimed = await conn.execute(
            update(challenges)
            .where(challenges.c.id == challenge_id, due(now))
            .values(mail_after=now + LEASE)
        )
        if claimed.rowcount != 1:
            return False  # another process has it
        by = t.users.alias("by")
        row = (
            await conn.execute(
                select(
                    challenges.c.status,
                    challenges.c.expires_at,
                    challenges.c.variant,
                    challenges.c.deadline_seconds,
                    challenges.c.mail_attempts,
                    t.users.c.id,
                    t.users.c.email,
                    t.users.c.name,
                    t.users.c.locale,
                    by.c.name.label("by_name"),
                    confirmed().label("confirmed"),
                )
                .join(t.users, t.users.c.id == challenges.c.to_id)
                .join(by, by.c.id == challenges.c.from_id)
                .where(challenges.c.id == challenge_id)
            )
        ).one()
        choice = await get_pref(conn, row.id)
    still_open = row.status == "open" and row.expires_at > now
    if not (still_open and row.email and row.confirmed and choice != "off"):
        await mark(db, challenge_id, mail="skipped", mail_after=None)
        return False
    subject, body = compose(
        settings, row.name, row.by_name, row.variant, row.deadline_seconds, row.locale
    )
    try:
        await send_mail(settings, row.email, subject, body)
    except Exception as exc:  # the mail server's trouble: tried again after a while
        attempts = row.mail_attempts + 1
        log.warning("challenge mail %s failed (attempt %d): %s", challenge_id, attempts, exc)
        await mark(
            db,
            challenge_id,
            mail="failed" if attempts >= MAX_ATTEMPTS else "pending",
            mail_attempts=attempts,
            mail_after=now + backoff(attempts),
        )
        return False
    await mark(db, challenge_id, mail="sent", mail_after=None)
    return True


async def send_challenge_mails(
    db: Database, settings: Settings, now: datetime | None = None
) -> int:
    """Send the challenge mails due at ``now``; returns how many this pass sent."""
    now = now or utcnow()
    async with db.read() as conn:
        ready = [
            r.id
            for r in await conn.execute(
                select(challenges.c.id)
                .where(due(now))
                .order_by(challenges.c.created_at)
                .limit(BATCH)
            )
        ]
    sent = 0
    for challenge_id in ready:
        try:
            sent += await send_one(db, settings, challenge_id, now)
        except Exception:  # one mail's trouble must not stop the others
            log.exception("challenge mail %s failed", challenge_id)
    return sent
