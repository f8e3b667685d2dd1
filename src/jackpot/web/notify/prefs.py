"""Which mails a player wants, and the signed link that turns them off.

The choice is a row of ``mail_prefs`` (none: the default); the link needs no login.
"""

from __future__ import annotations

from typing import Any

from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.settings import Settings
from jackpot.web.base.storage.db import insert_ignore
from jackpot.web.base.tables.notify import mail_prefs

CHOICES = ("long", "all", "off")
_UNSUB_SALT = "jackpot-unsubscribe/1"


def _serializer(settings: Settings) -> URLSafeSerializer:
    return URLSafeSerializer(settings.secret_key, salt=_UNSUB_SALT)


def unsubscribe_token(settings: Settings, user_id: int) -> str:
    """A link that turns the mails off without logging in; signed with the site's
    secret key, so nobody can make one for another account."""
    return _serializer(settings).dumps({"u": user_id})


def read_unsubscribe_token(settings: Settings, token: str) -> int | None:
    if len(token) > 200:
        return None
    try:
        data = _serializer(settings).loads(token)
    except BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int):
        return None
    return int(data["u"])


async def get_pref(conn: AsyncConnection, user_id: int) -> str:
    value = (
        await conn.execute(select(mail_prefs.c.turn_mail).where(mail_prefs.c.user_id == user_id))
    ).scalar_one_or_none()
    return str(value) if value in CHOICES else "long"


async def set_pref(conn: AsyncConnection, user_id: int, value: str) -> None:
    if value not in CHOICES:
        raise ValueError(f"turn_mail must be one of {', '.join(CHOICES)}, not {value!r}")
    await conn.execute(insert_ignore(conn, mail_prefs, "user_id"), [default_prefs(user_id)])
    await conn.execute(
        update(mail_prefs).where(mail_prefs.c.user_id == user_id).values(turn_mail=value)
    )


def default_prefs(user_id: int) -> dict[str, Any]:
    """The ``mail_prefs`` row of a player who never chose: turn mails for long deadlines."""
    return {"user_id": user_id, "turn_mail": "long", "last_digest_at": None}
