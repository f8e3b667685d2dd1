"""Sign-up, log-in and password checks with their limits, for the API and the forms.

Each counts the attempt per client address, checks passwords on the hashing pool,
and only then opens a write transaction.

Failed passwords (a log-in, or the current password on an account change) are
counted three ways, so that nobody can lock an owner out:

* per account *and* address: after ``failure_limit`` wrong guesses that address may
  not try that account again until the window ends; the owner elsewhere is not
  affected;
* per address, any account: ``address_failure_limit`` stops one address guessing
  across many accounts;
* per account, every address: past ``account_failure_ceiling`` (a wide attack from
  many addresses) each address gets a single wrong guess at that account per
  window instead of ``failure_limit``. That slows the attack down by that factor
  while the owner, who types the right password, still gets in.

The password checks themselves wait for a hashing thread in a lane
(base/hash_queue.py): a log-in with a device cookie of its account (devices.py) in
the known devices' lane, the rest by client address. Every successful log-in and
sign-up leaves a device cookie (``SignedIn.device``).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any, NamedTuple

from fastapi import Request
from fastapi.responses import Response
from sqlalchemy import select, update

from jackpot.i18n import N_
from jackpot.web.accounts import credentials, devices
from jackpot.web.accounts.changes import read_locale, read_theme
from jackpot.web.base.clock import utcnow
from jackpot.web.base.edge.client import client_bucket
from jackpot.web.base.edge.http import current_actor, db_of, settings_of
from jackpot.web.base.edge.language import set_language_cookie
from jackpot.web.base.edge.theme import set_theme_cookie, theme_of
from jackpot.web.base.env_values import Rate
from jackpot.web.base.errors import ApiError
from jackpot.web.base.hash_queue import Lane
from jackpot.web.base.identity import KEEPS_ACTOR, Actor
from jackpot.web.base.limits import Counters, TooMany, counters_of, take
from jackpot.web.base.passwords import Passwords
from jackpot.web.base.tables import core as t
from jackpot.web.notify.confirmations import queue_confirm_mail

#: Where a request notes that its password check came from a known device (the
#: new password of a change then hashes in the same lane).
KNOWN_LANE = "jackpot.known_lane"


class SignedIn(NamedTuple):
    """Who signed in, their new session, and the value of a new device cookie
    (None when the browser's own is still good)."""

    actor: Actor
    session: str
    device: str | None


def passwords_of(request: Request) -> Passwords:
    passwords: Passwords = request.app.state.passwords
    return passwords


def stranger_lane(request: Request) -> Lane:
    """The hashing lane of a check not from a known device: the client's address."""
    return Lane(client_bucket(request))


async def sign_up(request: Request, email: str, password: str, name: str) -> SignedIn:
    """A new account (a guest's row becomes it); the password is hashed before the
    write transaction begins.

    Counts per address: every attempt (a generous one, as judging a password costs
    some work), and the attempts that pass the checks, whose hash is the costly part.
    So somebody trying one weak password after another, or a name somebody has, is
    not locked out of signing up, and each address still makes few accounts. Asking
    whether an email has an account (409 ``email_taken``) has a count of its own, as
    low: a person who typed a taken address keeps their sign-ups."""
    settings = settings_of(request)
    counters = counters_of(request)
    address = client_bucket(request)
    await take(
        counters,
        "signup-try:" + address,
        settings.signup_try_limit,
        N_("too many sign-up attempts from your address"),
    )
    email = credentials.check_email(email)
    name = credentials.check_name(name)
    passwords = passwords_of(request)
    lane = stranger_lane(request)
    await passwords.check_strength(password, *user_words(email, name), lane=lane)
    guest = await current_actor(request)
    try:
        async with db_of(request).read() as conn:
            await credentials.check_free(conn, email, name, guest)
    except ApiError as refused:
        if refused.code == "email_taken":
            await take(
                counters,
                "signup-taken:" + address,
                settings.signup_limit,
                N_("too many sign-ups from your address"),
            )
        raise
    await take(
        counters,
        "signup:" + address,
        settings.signup_limit,
        N_("too many sign-ups from your address"),
    )
    password_hash = await passwords.hash(password, lane=lane)
    async with db_of(request).write() as conn:
        actor, session = await credentials.sign_up(
            conn, email, password_hash, name, guest, theme_of(request)
        )
        device = await devices.new_device(conn, settings, actor.user_id)
        # Until its link is opened the address gets this mail and resets only.
        await queue_confirm_mail(conn, actor.user_id, email, None, utcnow())
    return SignedIn(actor, session, device)


def _keys(account: str, address: str) -> tuple[str, str, str]:
    return f"fail:{account}|{address}", f"fail-addr:{address}", f"fail-acct:{account}"


@contextlib.asynccontextmanager
async def unanswered_is_no_try(counters: Counters, key: str) -> AsyncIterator[None]:
    """A try counted before its check (``key``) is taken back when the check never
    ran: the hashing queue was full (503 ``busy``). Counted, a right password that
    met a crowd was a wrong one: six 503s locked the owner out for the window, and
    five spent their device cookie."""
    try:
        yield
    except ApiError as exc:
        if exc.code == "busy":
            await counters.undo(key)
        raise


async def _check(
    request: Request, account: str, password_hash: str | None, password: str,
    device: str | None,
) -> bool:
    """Is the password right? Refused (429) before checking when the limits say so.

    The attempt is counted against the (account, address) pair *before* the check,
    in one atomic step, so a burst of parallel guesses cannot all slip under the
    limit; a right password then forgets the pair's count. Wrong ones also count
    per address and per account. With ``device`` (the random part of a valid device
    cookie for this account) the attempt is counted against that cookie instead of
    the address (OWASP: a known device is not locked out by what strangers did from
    its address or to its account) and waits in the known devices' lane."""
    if device:
        return await _check_known(request, account, password_hash, password, device)
    settings = settings_of(request)
    counters = counters_of(request)
    pair, addr, acct = _keys(account, client_bucket(request))
    failed, left = await counters.peek(addr)
    if failed >= settings.address_failure_limit.count:
        raise TooMany(N_("too many wrong passwords from your address"), left)
    wide, _ = await counters.peek(acct)
    allowed = settings.failure_limit.count
    if wide >= settings.account_failure_ceiling.count:
        allowed = 1
    tries, left = await counters.hit(pair, settings.failure_limit.window, allowed)
    if tries > allowed:
        raise TooMany(N_("too many wrong passwords for this account from your address"), left)
    async with unanswered_is_no_try(counters, pair):
        right = await passwords_of(request).verify(
            password_hash, password, lane=stranger_lane(request)
        )
    if right:
        await counters.clear(pair)
        return True
    await _hit_failure(counters, addr, settings.address_failure_limit)
    await _hit_failure(counters, acct, settings.account_failure_ceiling)
    return False


async def _hit_failure(counters: Counters, key: str, rate: Rate) -> None:
    """One more wrong password on ``key``, a lockout once ``rate.count`` are in."""
    await counters.hit(key, rate.window, rate.count)


async def _check_known(
    request: Request, account: str, password_hash: str | None, password: str, device: str
) -> bool:
    """``_check`` for a known device: ``JACKPOT_FAILURE_LIMIT`` wrong passwords per
    cookie (counted before the check, as for a pair), in its own lane. Its wrong
    ones count where a stranger's do too, so once the cookie is spent its address
    has no allowance left for the account either."""
    settings = settings_of(request)
    counters = counters_of(request)
    mine = devices.failure_key(device)
    tries, left = await counters.hit(
        mine, settings.failure_limit.window, settings.failure_limit.count
    )
    if tries > settings.failure_limit.count:
        raise TooMany(N_("too many wrong passwords for this account from your address"), left)
    pair, addr, acct = _keys(account, client_bucket(request))
    lane = await known_lane(request, account)
    async with unanswered_is_no_try(counters, mine):
        right = await passwords_of(request).verify(password_hash, password, lane=lane)
    if right:
        await counters.clear(mine)
        await counters.clear(pair)
        request.scope[KNOWN_LANE] = lane
        return True
    await _hit_failure(counters, pair, settings.failure_limit)
    await _hit_failure(counters, addr, settings.address_failure_limit)
    await _hit_failure(counters, acct, settings.account_failure_ceiling)
    return False


async def known_lane(request: Request, account: str) -> Lane:
    """The known devices' lane, weighed by how many checks the account had there in
    ``JACKPOT_KNOWN_LANE_LIMIT``'s window (the lightest go first: base/hash_queue.py);
    past that many, the strangers' lane of the address. Throw-away accounts that log
    in with their own cookies again and again to fill the lane get heavy, then out
    of it, while their owner's rare log-in stays at the front."""
    rate = settings_of(request).known_lane_limit
    used, _left = await counters_of(request).hit("known-lane:" + account, rate.window, rate.count)
    if used > rate.count:
        return stranger_lane(request)
    return Lane("account:" + account, known=True, weight=used)


async def log_in(request: Request, email: str, password: str) -> SignedIn:
    """A new session for the right email and password; 401 otherwise (the same
    answer and the same work whether or not the account exists)."""
    settings = settings_of(request)
    await take(
        counters_of(request),
        "login:" + client_bucket(request),
        settings.login_limit,
        N_("too many log-ins from your address"),
    )
    email = email.strip().lower()[:254]
    async with db_of(request).read() as conn:
        row = (
            await conn.execute(
                select(t.users.c.id, t.users.c.name, t.users.c.password_hash).where(
                    t.users.c.email == email, t.users.c.is_guest.is_(False)
                )
            )
        ).first()
        device = await devices.known_device(request, conn, row.id) if row else None
    if not await _check(request, email, row.password_hash if row else None, password, device):
        raise ApiError(401, "bad_login", "that email and password do not match an account")
    assert row is not None
    async with db_of(request).write() as conn:
        await conn.execute(
            update(t.users)
            .where(t.users.c.id == row.id)
            .values(last_seen=utcnow())
            .execution_options(**KEEPS_ACTOR)
        )
        session = await credentials.new_credential(
            conn, row.id, "session", credentials.SESSION_DAYS
        )
        cookie = None if device else await devices.new_device(conn, settings, row.id)
    return SignedIn(Actor(row.id, row.name, False), session, cookie)


def user_words(email: str | None, name: str | None) -> tuple[str, ...]:
    """What an account's password must not be made of: its address, the address's
    first part and its name (sign-up, change and reset alike)."""
    words = (email, email.split("@")[0]) if email else ()
    return (*words, name) if name else words


async def check_current_password(request: Request, actor: Actor, password: str) -> str | None:
    """403 for a wrong current password, counted like a failed log-in, so account
    changes are no side door for guessing; the account's address otherwise."""
    async with db_of(request).read() as conn:
        row: Any = (
            await conn.execute(
                select(t.users.c.email, t.users.c.password_hash).where(
                    t.users.c.id == actor.user_id
                )
            )
        ).first()
        device = await devices.known_device(request, conn, actor.user_id)
    account = row.email if row is not None and row.email else f"user:{actor.user_id}"
    checked = await _check(
        request, account, row.password_hash if row else None, password or "", device
    )
    if not checked:
        raise ApiError(403, "bad_password", "the current password is not right")
    return row.email if row is not None else None


async def new_password_hash(request: Request, password: str, *user_words: str) -> str:
    """Check a new password (a change or a reset) and hash it, counted per address;
    after a current password checked from a known device, in that device's lane."""
    settings = settings_of(request)
    await take(
        counters_of(request),
        "password:" + client_bucket(request),
        settings.password_limit,
        N_("too many password changes from your address"),
    )
    passwords = passwords_of(request)
    lane = request.scope.get(KNOWN_LANE) or stranger_lane(request)
    await passwords.check_strength(password, *user_words, lane=lane)
    return await passwords.hash(password, lane=lane)


async def restore_language(request: Request, response: Response, user_id: int) -> None:
    """After logging in: the account's own language, if it ever chose one, wins over
    the browser's, on this device too."""
    async with db_of(request).read() as conn:
        locale = await read_locale(conn, user_id)
    if locale is not None:
        set_language_cookie(response, settings_of(request), locale)


async def restore_theme(request: Request, response: Response, user_id: int) -> None:
    """After logging in: the account's theme, if it ever chose one, on this device too."""
    async with db_of(request).read() as conn:
        theme = await read_theme(conn, user_id)
    if theme is not None:
        set_theme_cookie(response, settings_of(request), theme)
