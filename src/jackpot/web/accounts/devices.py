"""Device cookies: a browser that has logged in to an account, recognised at its next log-in.

OWASP's answer to online guessing that must not lock the owner out ("Slow Down
Online Guessing Attacks with Device Cookies"): every successful log-in and sign-up
leaves a long-lived cookie naming the account, signed with the site's key, whose
random part is also stored (hashed, as a credential of kind ``device``). A log-in
that carries a valid one for the account it names is the owner's browser far more
often than not, so its password check waits in a lane of its own that strangers
cannot fill (base/hash_queue.py). The cookie is no session: it signs nobody in.

* It outlives log-out (the browser is still the owner's).
* A password reset or change ends the account's sessions and deletes its device
  credentials with them (credentials.revoke_all): a thief's browser loses its place
  in the lane too. The browser that made the change, or used the reset link, gets
  a new one.
* Wrong passwords sent with one are counted against it, not against its address
  (signin.py): what strangers do from the same address, or to the account from
  anywhere, does not lock the owner's browser out. Past ``JACKPOT_FAILURE_LIMIT``
  within its window it no longer counts as known, and its address's limits apply
  again: a stolen cookie is no way to guess at the front of the queue.
"""

from __future__ import annotations

from fastapi import Request, Response
from itsdangerous import BadSignature, Signer
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.accounts.credentials import new_credential
from jackpot.web.base.clock import utcnow
from jackpot.web.base.edge.http import settings_of
from jackpot.web.base.identity import MAX_TOKEN, token_hash
from jackpot.web.base.limits import counters_of
from jackpot.web.base.settings import Settings
from jackpot.web.base.tables import core as t

DEVICE_COOKIE = "jackpot_device"
DEVICE_DAYS = 365
_SALT = "jackpot-device"


def _signer(settings: Settings) -> Signer:
    return Signer(settings.secret_key, salt=_SALT)


def _read(settings: Settings, cookie: str | None) -> tuple[int, str] | None:
    """The account and the random part of a cookie the site signed, else None."""
    if not cookie or len(cookie) > MAX_TOKEN or not cookie.isascii():
        return None
    try:
        value = _signer(settings).unsign(cookie).decode()
    except BadSignature:
        return None
    user, _, nonce = value.partition(".")
    return (int(user), nonce) if user.isdigit() and nonce else None


def failure_key(nonce: str) -> str:
    """The counter of wrong passwords sent with this device cookie."""
    return "fail-device:" + token_hash(nonce)


async def known_device(request: Request, conn: AsyncConnection, user_id: int) -> str | None:
    """The random part of the request's device cookie if it is a valid one for
    ``user_id`` (signed, still stored, not expired, not locked out by wrong
    passwords), else None."""
    settings = settings_of(request)
    found = _read(settings, request.cookies.get(DEVICE_COOKIE))
    if found is None or found[0] != user_id:
        return None
    nonce = found[1]
    stored = (
        await conn.execute(
            select(t.credentials.c.expires_at).where(
                t.credentials.c.token_hash == token_hash(nonce),
                t.credentials.c.kind == "device",
                t.credentials.c.user_id == user_id,
            )
        )
    ).first()
    if stored is None or (stored.expires_at is not None and stored.expires_at < utcnow()):
        return None
    failed, _ = await counters_of(request).peek(failure_key(nonce))
    if failed >= settings.failure_limit.count:
        return None
    return nonce


async def new_device(conn: AsyncConnection, settings: Settings, user_id: int) -> str:
    """A device credential for the account, in the caller's transaction; the
    cookie's value."""
    nonce = await new_credential(conn, user_id, "device", DEVICE_DAYS)
    return _signer(settings).sign(f"{user_id}.{nonce}").decode()


def set_device_cookie(response: Response, settings: Settings, cookie: str | None) -> None:
    """Remember the device (None: the request's cookie still holds)."""
    if cookie is None:
        return
    response.set_cookie(
        DEVICE_COOKIE,
        cookie,
        max_age=DEVICE_DAYS * 86400,
        httponly=True,
        # Only ever needed by this site's own log-in form and API.
        samesite="strict",
        secure=settings.secure_cookies,
        path="/",
    )
