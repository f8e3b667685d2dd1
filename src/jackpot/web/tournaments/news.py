"""Telling a player their table is ready: the live stream at once, then mail and push.

When a round is paired, each seated player gets a ``table`` event on their own
stream (notify/stream.py passes it on) and a row in ``tournament_news``. That row is
the mail's outbox, sent by a background step as the challenge mails are (a lease
claimed by a conditional UPDATE, the outboxes' backoff and attempts, the turn mails'
setting and a confirmed address), and the push worker's list of fresh news
(``TABLE_PUSHES``, a PushSource). Nothing is sent about a table whose match has
ended meanwhile.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from sqlalchemy import String, cast, exists, insert, literal, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.i18n import current_locale, gettext, use_locale
from jackpot.i18n.formats import variant_name
from jackpot.web.base.clock import utcnow
from jackpot.web.base.mail import send_mail
from jackpot.web.base.settings import Settings
from jackpot.web.base.storage.db import Database, publish_on_commit
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.push import push_sends, push_subscriptions
from jackpot.web.base.tables.tournaments import tournament_news, tournaments
from jackpot.web.notify.confirmations import confirmed
from jackpot.web.notify.outbox import LEASE, MAX_ATTEMPTS, backoff
from jackpot.web.notify.prefs import get_pref
from jackpot.web.notify.push.messages import About
from jackpot.web.notify.push.sender import TOO_LATE, PushSource
from jackpot.web.notify.user_hub import channel

log = logging.getLogger("jackpot.tournament_mail")

PREFIX = "table:"
#: Mails one pass sends at most.
BATCH = 50


async def tell_seated(
    conn: AsyncConnection,
    tournament_id: str,
    r: int,
    match_id: str,
    user_ids: list[int],
    now: datetime,
) -> None:
    """In the pairing's transaction: the stream event after the commit, and the row
    the mail and the push are sent from."""
    await conn.execute(
        insert(tournament_news),
        [
            {
                "match_id": match_id,
                "user_id": uid,
                "tournament_id": tournament_id,
                "round": r,
                "created_at": now,
                "mail": "pending",
                "mail_after": None,
                "mail_attempts": 0,
            }
            for uid in user_ids
        ],
    )
    event = {"type": "table", "tournament": tournament_id, "round": r, "match": match_id}
    for uid in user_ids:
        publish_on_commit(conn, channel(uid), [event])


def compose(
    settings: Settings,
    name: str,
    tournament: str,
    tournament_id: str,
    r: int,
    variant: str,
    match_id: str,
    locale: str | None,
) -> tuple[str, str]:
    """Subject and body, in the recipient's language."""
    with use_locale(locale or current_locale()):
        body = "\n\n".join(
            [
                gettext("Hello %(name)s,", name=name),
                gettext(
                    "Round %(round)s of %(tournament)s is paired: your table of %(variant)s "
                    "is ready. Play it here:",
                    round=r,
                    tournament=tournament,
                    variant=variant_name(variant),
                ),
                f"{settings.link_base}/matches/{match_id}",
                gettext("The standings and every table:"),
                f"{settings.link_base}/tournaments/{tournament_id}",
                gettext("Which mails you get is yours to choose on your account page:"),
                f"{settings.link_base}/account",
            ]
        )
        return gettext("%(tournament)s: your table is ready", tournament=tournament), body + "\n"


def _due(now: datetime) -> Any:
    n = tournament_news
    return (n.c.mail == "pending") & or_(n.c.mail_after.is_(None), n.c.mail_after <= now)


async def _mark(db: Database, key: tuple[str, int], **values: Any) -> None:
    n = tournament_news
    async with db.write() as conn:
        await conn.execute(
            update(n).where(n.c.match_id == key[0], n.c.user_id == key[1]).values(**values)
        )


async def send_one(
    db: Database, settings: Settings, key: tuple[str, int], now: datetime
) -> bool:
    """Claim one table mail and send it, or set it aside; whether it went."""
    n = tournament_news
    mine = (n.c.match_id == key[0]) & (n.c.user_id == key[1])
    async with db.write() as conn:
        claimed = await conn.execute(
            update(n).where(mine, _due(now)).values(mail_after=now + LEASE)
        )
        if claimed.rowcount != 1:
            return False  # another process has it
        row = (
            await conn.execute(
                select(
                    n.c.round,
                    n.c.mail_attempts,
                    tournaments.c.id.label("tournament_id"),
                    tournaments.c.name.label("tournament"),
                    tournaments.c.variant,
                    t.matches.c.status,
                    t.users.c.email,
                    t.users.c.name,
                    t.users.c.locale,
                    confirmed().label("confirmed"),
                )
                .join(tournaments, tournaments.c.id == n.c.tournament_id)
                .join(t.matches, t.matches.c.id == n.c.match_id)
                .join(t.users, t.users.c.id == n.c.user_id)
                .where(mine)
            )
        ).one()
        choice = await get_pref(conn, key[1])
    if not (row.status == "playing" and row.email and row.confirmed and choice != "off"):
        await _mark(db, key, mail="skipped", mail_after=None)
        return False
    subject, body = compose(
        settings, row.name, row.tournament, row.tournament_id, row.round, row.variant,
        key[0], row.locale,
    )
    try:
        await send_mail(settings, row.email, subject, body)
    except Exception as exc:  # the mail server's trouble: tried again after a while
        attempts = row.mail_attempts + 1
        log.warning("table mail %s failed (attempt %d): %s", key, attempts, exc)
        await _mark(
            db,
            key,
            mail="failed" if attempts >= MAX_ATTEMPTS else "pending",
            mail_attempts=attempts,
            mail_after=now + backoff(attempts),
        )
        return False
    await _mark(db, key, mail="sent", mail_after=None)
    return True


async def send_table_mails(db: Database, settings: Settings, now: datetime | None = None) -> int:
    """Send the table mails due at ``now``; returns how many this pass sent."""
    now = now or utcnow()
    n = tournament_news
    async with db.read() as conn:
        ready = [
            (r.match_id, r.user_id)
            for r in await conn.execute(
                select(n.c.match_id, n.c.user_id)
                .where(_due(now))
                .order_by(n.c.created_at)
                .limit(BATCH)
            )
        ]
    sent = 0
    for key in ready:
        try:
            sent += await send_one(db, settings, key, now)
        except Exception:  # one mail's trouble must not stop the others
            log.exception("table mail %s failed", key)
    return sent


def _key() -> Any:
    n = tournament_news
    return literal(PREFIX, String) + n.c.match_id + literal(":", String) + cast(n.c.user_id, String)


async def fresh(conn: AsyncConnection, now: datetime, limit: int) -> list[tuple[str, int]]:
    """Tables paired lately, not pushed yet to a player with a browser registered."""
    n = tournament_news
    key = _key()
    rows = await conn.execute(
        select(key.label("key"), n.c.user_id)
        .where(
            n.c.created_at > now - TOO_LATE,
            exists().where(push_subscriptions.c.user_id == n.c.user_id),
            ~exists().where(push_sends.c.key == key),
        )
        .order_by(n.c.created_at)
        .limit(limit)
    )
    return [(r.key, r.user_id) for r in rows]


async def about(conn: AsyncConnection, key: str, now: datetime) -> About | None:
    """The table, its tournament and the other players, while its match is played."""
    match_id, _, user = key.removeprefix(PREFIX).partition(":")
    row = (
        await conn.execute(
            select(t.matches.c.status, t.matches.c.variant, tournaments.c.name)
            .join(tournament_news, tournament_news.c.match_id == t.matches.c.id)
            .join(tournaments, tournaments.c.id == tournament_news.c.tournament_id)
            .where(t.matches.c.id == match_id, tournament_news.c.user_id == int(user or 0))
        )
    ).first()
    if row is None or row.status != "playing":
        return None
    others = [
        s.name
        for s in await conn.execute(
            select(t.seats.c.name, t.seats.c.user_id)
            .where(t.seats.c.match_id == match_id)
            .order_by(t.seats.c.seat)
        )
        if s.user_id != int(user or 0)
    ]
    return About("table", match_id, row.variant, others, None, by=row.name)


TABLE_PUSHES = PushSource(PREFIX, fresh, about)
