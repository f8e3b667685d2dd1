"""Outgoing mail: to files under ./var/outbox/ by default, through SMTP when configured.

Files make a fresh checkout work with no mail server, and let tests and the person
running the site read exactly what would have been sent.
"""

from __future__ import annotations

import asyncio
import secrets
import smtplib
from collections.abc import Mapping
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import make_msgid

from jackpot.web.base.private_files import private_dir, write_private
from jackpot.web.base.settings import Settings


def _message(
    settings: Settings,
    to: str,
    subject: str,
    body: str,
    headers: Mapping[str, str] | None = None,
) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = settings.mail_from
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = datetime.now(UTC).strftime("%a, %d %b %Y %H:%M:%S +0000")
    msg["Message-ID"] = make_msgid(domain="jackpot.invalid")
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(body)
    return msg


def _send_sync(settings: Settings, msg: EmailMessage) -> None:
    if settings.smtp_host:
        with smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=20) as smtp:
            if settings.smtp_starttls:
                smtp.starttls()
            if settings.smtp_user:
                smtp.login(settings.smtp_user, settings.smtp_password or "")
            smtp.send_message(msg)
        return
    private_dir(settings.outbox_dir)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")  # sorts in sending order
    path = settings.outbox_dir / f"{stamp}-{secrets.token_hex(4)}.eml"
    # Only the site's user may read it: a reset mail holds a live link.
    write_private(path, bytes(msg))


async def send_mail(
    settings: Settings,
    to: str,
    subject: str,
    body: str,
    headers: Mapping[str, str] | None = None,
) -> None:
    """Send in a worker thread so a slow mail server never blocks the event loop.

    ``headers`` adds fields such as List-Unsubscribe. Errors are raised, so a caller
    with an outbox (the turn mails) can retry later.
    """
    await asyncio.to_thread(_send_sync, settings, _message(settings, to, subject, body, headers))
