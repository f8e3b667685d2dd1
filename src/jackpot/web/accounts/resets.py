"""Password reset by an emailed link: a random token, stored hashed, used once.

A link is valid an hour. The request answers the same whether or not the address
has an account, so it does not tell strangers who plays here.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from fastapi import Request
from sqlalchemy import delete, insert, select, update

from jackpot.i18n import current_locale, gettext, use_locale
from jackpot.web.accounts.credentials import (
    SESSION_DAYS,
    check_password_strength,
    hash_password,
    new_credential,
)
from jackpot.web.base import models as t
from jackpot.web.base.clock import utcnow
from jackpot.web.base.errors import invalid
from jackpot.web.base.http import db_of, settings_of
from jackpot.web.base.identity import Actor, token_hash
from jackpot.web.base.mail import send_mail

RESET_VALID = timedelta(hours=1)


async def request_reset(request: Request, email: str) -> None:
    email = email.strip().lower()[:254]
    token = secrets.token_urlsafe(32)
    async with db_of(request).write() as conn:
        user = (
            await conn.execute(
                select(t.users.c.id, t.users.c.name, t.users.c.locale).where(
                    t.users.c.email == email, t.users.c.is_guest.is_(False)
                )
            )
        ).first()
        if user is None:
            return
        await conn.execute(
            insert(t.password_resets).values(
                token_hash=token_hash(token),
                user_id=user.id,
                expires_at=utcnow() + RESET_VALID,
                used=False,
            )
        )
    settings = settings_of(request)
    base = settings.base_url or str(request.base_url).rstrip("/")
    with use_locale(user.locale or current_locale()):
        body = "\n\n".join(
            [
                gettext("Hello %(name)s,", name=user.name),
                gettext(
                    "Somebody (we hope you) asked to reset the password of your Jackpot "
                    "account. Choose a new one here within the hour:"
                ),
                f"{base}/reset/{token}",
                gettext("If it was not you, ignore this mail: your password stays as it is."),
            ]
        )
        subject = gettext("Reset your Jackpot password")
    await send_mail(settings, email, subject, body + "\n")


async def confirm_reset(request: Request, token: str, password: str) -> tuple[Actor, str]:
    check_password_strength(password)
    async with db_of(request).write() as conn:
        row = (
            await conn.execute(
                select(
                    t.password_resets.c.user_id,
                    t.password_resets.c.expires_at,
                    t.password_resets.c.used,
                    t.users.c.name,
                )
                .join(t.users, t.users.c.id == t.password_resets.c.user_id)
                .where(t.password_resets.c.token_hash == token_hash(token[:200]))
            )
        ).first()
        if row is None or row.used or row.expires_at < utcnow():
            raise invalid(
                "this reset link is unknown, used or expired: ask for a new one", "bad_reset_token"
            )
        await conn.execute(
            update(t.password_resets)
            .where(t.password_resets.c.token_hash == token_hash(token))
            .values(used=True)
        )
        await conn.execute(
            update(t.users)
            .where(t.users.c.id == row.user_id)
            .values(password_hash=hash_password(password))
        )
        # A reset signs out every other browser: the old password may have leaked.
        await conn.execute(
            delete(t.credentials).where(
                t.credentials.c.user_id == row.user_id, t.credentials.c.kind == "session"
            )
        )
        session = await new_credential(conn, row.user_id, "session", SESSION_DAYS)
    return Actor(row.user_id, row.name, False), session
