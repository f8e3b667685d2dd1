"""The push worker: sends each due notice to every browser its player registered.

It runs beside the mail worker in the sweeper (never inside a request) and reads
the same ``notices`` the moves write in their own transactions, so a committed
move always has its push and a rolled-back one never. Per notice key it keeps a
row in ``push_sends``, taken with the mail worker's pattern: a conditional UPDATE
on a lease (any number of sweepers, one sender per notice), checked against the
match as it is now just before sending (a turn already started, a throw already
made or an offer closed sends nothing), a failed push service retried with the
mail's backoff up to ``MAX_ATTEMPTS``, and a subscription answered 404 or 410
deleted (the browser dropped it). At least once on a crash, exactly once
otherwise, as for mail.

Pushes do not follow the mail setting: a player who registered a browser asked
for them. They follow the mail's timing: a turn push after the grace period
(a player on the page moves first; shorter for short deadlines, ``notices.grace``),
a reminder when a fifth of the time is left.

News that is no match's notice (a challenge, people/) comes from a ``PushSource``
that web/wiring.py hands to ``push_steps``: it names its fresh news by keys of its
own prefix, and says what one of them says while it is still true; from then on the
worker sends it as it sends a notice, with the same lease, retries and browsers.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import aiohttp
from sqlalchemy import and_, delete, exists, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.i18n import use_locale
from jackpot.web.base.clock import utcnow
from jackpot.web.base.settings import Settings
from jackpot.web.base.steps import Step
from jackpot.web.base.storage.db import Database, insert_ignore
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.notify import NOTICE_STATUSES, notices
from jackpot.web.base.tables.play import rematch_offers
from jackpot.web.base.tables.push import push_sends, push_subscriptions
from jackpot.web.notify.mailbox import ending, offer_open, spares_left_of, still_true
from jackpot.web.notify.notices import (
    END_KINDS,
    GRACE,
    GRACE_SHARE,
    SPARE,
    grace,
    move_early_reminders,
)
from jackpot.web.notify.outbox import LEASE, MAX_ATTEMPTS, backoff
from jackpot.web.notify.push.delivery import REFUSED, client_session, send_one
from jackpot.web.notify.push.messages import About, payload

log = logging.getLogger("jackpot.push")

BATCH = 100
#: A notice found later than this (the worker was down) is no longer pushed.
TOO_LATE = timedelta(days=1)
#: The push services' answers that mean the subscription is gone for good.
GONE = {404, 410}
#: How often the push worker looks for due notices.
PUSH_INTERVAL = 5.0
KEEP_SENDS = timedelta(days=30)


@dataclass(frozen=True)
class PushSource:
    """News for the push worker that is no match's notice."""

    #: The start of its keys in ``push_sends`` ("challenge:"): no notice key has it.
    prefix: str
    #: Up to ``limit`` (key, user id) of its news due at ``now`` for people who have
    #: a browser registered and not yet in ``push_sends``.
    fresh: Callable[[AsyncConnection, datetime, int], Awaitable[list[tuple[str, int]]]]
    #: What the news of a key says at ``now``, or None once it is no longer true.
    about: Callable[[AsyncConnection, str, datetime], Awaitable[About | None]]


def _due(now: datetime) -> Any:
    """Notices due for a push: reminders at their time, turn and rematch news after
    the grace (their ``send_after`` may have been moved by the mail's hourly cap,
    which pushes do not have)."""
    return or_(
        and_(
            notices.c.kind == "reminder",
            notices.c.send_after <= now,
            notices.c.send_after > now - TOO_LATE,
        ),
        and_(
            notices.c.kind != "reminder",
            notices.c.created_at <= now - GRACE,
            notices.c.created_at > now - TOO_LATE,
        ),
    )


async def _due_keys(
    db: Database, now: datetime, sources: Sequence[PushSource]
) -> list[tuple[str, int]]:
    async with db.read() as conn:
        others = [pair for source in sources for pair in await source.fresh(conn, now, BATCH)]
        fresh = await conn.execute(
            select(notices.c.key, notices.c.user_id)
            .where(
                exists().where(push_subscriptions.c.user_id == notices.c.user_id),
                _due(now),
                ~exists().where(push_sends.c.key == notices.c.key),
            )
            .order_by(notices.c.id)
            .limit(BATCH)
        )
        retry = await conn.execute(
            select(push_sends.c.key, push_sends.c.user_id)
            .where(
                push_sends.c.status == "pending",
                push_sends.c.next_at <= now,
                or_(push_sends.c.lease_until.is_(None), push_sends.c.lease_until < now),
            )
            .limit(BATCH)
        )
        # Turn news younger than the full grace whose own, shorter grace is over (a
        # short deadline). Not ``send_after``: the mail's hourly cap moves it later.
        young = await conn.execute(
            select(
                notices.c.key, notices.c.user_id, notices.c.created_at, t.matches.c.deadline_seconds
            )
            .join(t.matches, t.matches.c.id == notices.c.match_id)
            .where(
                exists().where(push_subscriptions.c.user_id == notices.c.user_id),
                notices.c.kind == "turn",
                notices.c.created_at > now - GRACE,
                # Implied by the line above (a notice goes out no sooner than it is
                # made), and what lets ix_notices_pending find them without reading
                # the month of notices kept.
                notices.c.status.in_(NOTICE_STATUSES),
                notices.c.send_after > now - GRACE,
                t.matches.c.deadline_seconds < GRACE.total_seconds() * GRACE_SHARE,
                ~exists().where(push_sends.c.key == notices.c.key),
            )
            .order_by(notices.c.id)
            .limit(BATCH)
        )
        short = [r for r in young.all() if r.created_at + grace(r.deadline_seconds) <= now]
        return [(r.key, r.user_id) for r in (*fresh.all(), *retry.all(), *short)] + others


async def _claim(db: Database, key: str, user_id: int, owner: str, now: datetime) -> bool:
    """Take the notice's lease: a conditional UPDATE only one sweeper can win."""
    async with db.write() as conn:
        await conn.execute(
            insert_ignore(conn, push_sends, "key"),
            [
                {
                    "key": key,
                    "user_id": user_id,
                    "status": "pending",
                    "attempts": 0,
                    "next_at": now,
                    "done": "",
                    "created_at": now,
                }
            ],
        )
        res = await conn.execute(
            update(push_sends)
            .where(
                push_sends.c.key == key,
                push_sends.c.status == "pending",
                push_sends.c.next_at <= now,
                or_(push_sends.c.lease_until.is_(None), push_sends.c.lease_until < now),
            )
            .values(lease_owner=owner, lease_until=now + LEASE)
        )
        return res.rowcount == 1


async def _about(
    db: Database, key: str, now: datetime, sources: Sequence[PushSource]
) -> tuple[About | None, list[Any], set[int], str | None]:
    """What the news says if it is still true (else None), the player's browsers,
    those that took it already, and the language the player chose (as for mails)."""
    async with db.read() as conn:
        send = (await conn.execute(select(push_sends).where(push_sends.c.key == key))).one()
        locale = (
            await conn.execute(select(t.users.c.locale).where(t.users.c.id == send.user_id))
        ).scalar_one_or_none()
        browsers = list(
            (
                await conn.execute(
                    select(push_subscriptions).where(push_subscriptions.c.user_id == send.user_id)
                )
            ).all()
        )
        done = {int(x) for x in send.done.split(",") if x}
        source = next((s for s in sources if key.startswith(s.prefix)), None)
        if source is not None:
            about = await source.about(conn, key, now)
        else:
            about = await _notice_about(conn, key)
    return about, browsers, done, locale


async def _notice_about(conn: AsyncConnection, key: str) -> About | None:
    """What a match's notice says if it is still true, else None."""
    n = (await conn.execute(select(notices).where(notices.c.key == key))).first()
    if n is None:  # a reminder whose throw was made: deleted with its match's move
        return None
    match = (
        await conn.execute(
            select(
                t.matches.c.id,
                t.matches.c.status,
                t.matches.c.variant,
                t.matches.c.turn_seat,
                t.matches.c.due_at,
                t.matches.c.state,
                t.matches.c.result,
            ).where(t.matches.c.id == n.match_id)
        )
    ).first()
    seats = (
        await conn.execute(
            select(t.seats.c.seat, t.seats.c.name).where(t.seats.c.match_id == n.match_id)
        )
    ).all()
    names: dict[int, str | None] = {s.seat: s.name for s in seats}
    by = None
    if n.kind == "rematch":
        offer = (
            await conn.execute(
                select(rematch_offers).where(rematch_offers.c.match_id == n.match_id)
            )
        ).first()
        if not offer_open(n, offer):
            return None
        assert offer is not None
        by = names.get(offer.offered_by)
    elif not still_true(n, match):
        return None
    assert match is not None
    reason = place = None
    if n.kind in END_KINDS:
        by, reason, place = ending(n, match, names)
    return About(
        n.kind,
        n.match_id,
        match.variant,
        [name for seat, name in sorted(names.items()) if seat != n.seat],
        match.due_at if n.kind in ("turn", "reminder", SPARE) else None,
        by,
        reason,
        place,
        spares_left=spares_left_of(n.seat, match) if n.kind == SPARE else 0,
    )


async def _push(
    db: Database,
    settings: Settings,
    key: str,
    now: datetime,
    session: aiohttp.ClientSession,
    sources: Sequence[PushSource],
) -> bool:
    about, browsers, done, locale = await _about(db, key, now, sources)
    if about is None:
        async with db.write() as conn:
            await conn.execute(
                update(push_sends)
                .where(push_sends.c.key == key)
                .values(status="dropped", lease_owner=None, lease_until=None)
            )
        return False
    gone: list[int] = []
    ok: list[int] = []
    error = ""
    for browser in browsers:
        if browser.id in done:
            continue
        # The account's language, as for its mails; else the page's when registered.
        with use_locale(locale or browser.lang):
            data = json.dumps(payload(about, now)).encode()
        status, problem = await send_one(session, settings, browser, data, about)
        if 200 <= status < 300:
            ok.append(browser.id)
        elif status in GONE or status == REFUSED:
            gone.append(browser.id)  # the browser dropped it, or its host went private
        else:
            error = problem
            log.warning("push to browser %s failed: %s", browser.id, problem)
    done |= set(ok) | set(gone)
    failed = [b.id for b in browsers if b.id not in done]
    async with db.write() as conn:
        if gone:
            await conn.execute(delete(push_subscriptions).where(push_subscriptions.c.id.in_(gone)))
        if ok:
            await conn.execute(
                update(push_subscriptions)
                .where(push_subscriptions.c.id.in_(ok))
                .values(last_ok_at=now)
            )
        values: dict[str, Any] = {
            "done": ",".join(str(i) for i in sorted(done)),
            "lease_owner": None,
            "lease_until": None,
        }
        if failed:
            attempts = (
                await conn.execute(select(push_sends.c.attempts).where(push_sends.c.key == key))
            ).scalar_one() + 1
            values.update(
                attempts=attempts,
                next_at=now + backoff(attempts),
                status="failed" if attempts >= MAX_ATTEMPTS else "pending",
                error=error[:200],
            )
        else:
            values.update(status="sent", attempts=push_sends.c.attempts + 1)
        await conn.execute(update(push_sends).where(push_sends.c.key == key).values(**values))
    return bool(ok)


async def push_step(
    db: Database,
    settings: Settings,
    now: datetime | None = None,
    sources: Sequence[PushSource] = (),
) -> int:
    """Push every notice, and every source's news, due at ``now``; returns how many
    reached a browser."""
    now = now or utcnow()
    await move_early_reminders(db, now)
    due = await _due_keys(db, now, sources)
    if not due:
        return 0
    pushed = 0
    async with client_session(settings) as session:
        for key, user_id in due:
            owner = secrets.token_hex(8)
            try:
                if not await _claim(db, key, user_id, owner, now):
                    continue  # another sweeper has it
                if await _push(db, settings, key, now, session, sources):
                    pushed += 1
            except Exception:  # one notice's trouble must not stop the others
                log.exception("push of %s failed", key)
    return pushed


async def forget_old_sends(db: Database, now: datetime | None = None) -> None:
    cutoff = (now or utcnow()) - KEEP_SENDS
    async with db.write() as conn:
        await conn.execute(
            delete(push_sends).where(
                push_sends.c.status != "pending", push_sends.c.created_at < cutoff
            )
        )


def push_steps(
    db: Database, settings: Settings, sources: Sequence[PushSource] = ()
) -> list[Step]:
    """notify/'s push worker as background steps: the notices and the ``sources``'
    news due every ``PUSH_INTERVAL`` seconds, beside the mail worker; old sends
    forgotten hourly."""

    async def forget() -> None:
        await forget_old_sends(db)

    return [
        Step("push", PUSH_INTERVAL, lambda: push_step(db, settings, sources=sources)),
        Step("old pushes", 3600, forget),
    ]
