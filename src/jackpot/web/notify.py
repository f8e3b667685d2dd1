"""Telling players it is their throw: turn mails, digests, deadline reminders.

A match may last a fortnight with a deadline on every throw, so a player who is
not told that the others have moved times out. The design:

* **Producing** happens inside the move's own transaction (``due_notices``, written
  by ``actions._Tx.save``): a row in ``notices`` when a person's turn begins in a
  match between people, and one for the reminder of every throw with a deadline of
  an hour or more. A committed move therefore always has its notice, and a rolled
  back move never has one. The row's unique ``key`` (match, round, seat for a
  turn; match, throw, seat for a reminder) makes a second mail for the same turn or
  throw impossible, whatever else goes wrong.
* **Sending** is a worker step of the sweeper (``mail_step``), never a request. It
  claims one player at a time with a conditional UPDATE on ``mail_prefs`` (a lease),
  so any number of sweepers may run and each player's mail is built and sent by
  exactly one of them. Everything due for that player goes out as one mail: a
  digest when several matches wait. Turn news goes out at most once an hour per
  player; a reminder is not held back by that cap (an hour late it could be too
  late), and turn news waiting for the cap rides along with it.
* Just before sending, each notice is checked against the match as it is now: a
  turn notice whose player has already started the turn, or a reminder whose throw
  has been made, is dropped. A short grace period before a turn mail lets a player
  who is watching the page move first and get no mail at all.
* A failed send is retried with exponential backoff, and given up after
  ``MAX_ATTEMPTS``. If a sweeper dies between handing a mail to the server and
  marking it sent, the lease runs out and the mail is sent again: at least once on
  a crash, exactly once otherwise; SMTP offers nothing better.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.engine import Match
from jackpot.web import models as t
from jackpot.web.actions import iso, utcnow
from jackpot.web.db import Database
from jackpot.web.mail import send_mail
from jackpot.web.models_notify import mail_prefs, notices, rematch_offers
from jackpot.web.settings import Settings

log = logging.getLogger("jackpot.notify")

#: A turn mail waits this long, so a player who is on the page moves first.
GRACE = timedelta(seconds=60)
#: At most one mail with turn news per player per hour.
DIGEST_GAP = timedelta(hours=1)
#: Reminders only for deadlines of at least this many seconds, a fifth before the end.
REMIND_MIN_DEADLINE = 3600
#: Turn mails by default only when a throw may take more than this many seconds.
DEFAULT_MIN_DEADLINE = 3600
#: How long a sweeper may hold a player's claim while it builds and sends one mail.
LEASE = timedelta(minutes=5)
MAX_ATTEMPTS = 8
BATCH = 100
CHOICES = ("long", "all", "off")
_UNSUB_SALT = "jackpot-unsubscribe/1"


def backoff(attempts: int) -> timedelta:
    """Wait after the ``attempts``-th failure: 1, 2, 4 ... minutes, at most an hour."""
    return timedelta(seconds=min(60 * 2 ** max(attempts - 1, 0), 3600))


def _insert_ignore(conn: AsyncConnection, table: Any, key: str) -> Any:
    """INSERT that quietly skips a row whose ``key`` exists (both databases speak it)."""
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(table).on_conflict_do_nothing(index_elements=[key])
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(table).on_conflict_do_nothing(index_elements=[key])


# -- producing ---------------------------------------------------------------------


def due_notices(
    row: Any,
    seat_rows: list[Any],
    m: Match,
    due_at: datetime | None,
    became_turn: bool,
    now: datetime,
) -> tuple[bool, list[dict[str, Any]]]:
    """What a player must be told now that a new throw of theirs is due: whether to
    drop the match's pending reminder, and the ``notices`` rows to add (skipping
    any whose key exists).

    The move that made the throw due writes them in its own transaction
    (``actions._Tx.save``). Only matches between people count: against bots the
    player is the one who just moved, so "it is your throw" would be no news.
    """
    turn = m.turn
    if turn is None or due_at is None:
        return False, []
    seat = seat_rows[turn.seat]
    if seat["is_bot"] or seat["user_id"] is None:
        return False, []
    if sum(1 for s in seat_rows if not s["is_bot"]) < 2:
        return False, []
    match_id = row["id"]
    deadline = int(row["deadline_seconds"])
    base = {
        "user_id": seat["user_id"],
        "match_id": match_id,
        "seat": turn.seat,
        "round": m.round,
        "due_at": due_at,
        "status": "pending",
        "attempts": 0,
        "created_at": now,
    }
    rows = []
    if became_turn:
        rows.append(
            {
                **base,
                "key": f"turn:{match_id}:{m.round}:{turn.seat}",
                "kind": "turn",
                "send_after": now + GRACE,
            }
        )
    drop_reminder = deadline >= REMIND_MIN_DEADLINE
    if drop_reminder:
        # One reminder waits per match: the throw before this one has been made.
        rows.append(
            {
                **base,
                "key": f"remind:{match_id}:{m.throws}:{turn.seat}",
                "kind": "reminder",
                "send_after": due_at - timedelta(seconds=deadline / 5),
            }
        )
    return drop_reminder, rows


async def note_rematch(
    conn: AsyncConnection, match_id: str, seat_rows: list[Any], by: int, version: int, now: datetime
) -> None:
    """A fresh rematch offer: tell the other people of the match (they may have left
    its page long ago). One notice per seat per offer; it is dropped unsent if the
    seat accepts or the offer closes first."""
    rows = [
        {
            "key": f"rematch:{match_id}:{version}:{s['seat']}",
            "user_id": s["user_id"],
            "match_id": match_id,
            "seat": s["seat"],
            "kind": "rematch",
            "round": version,
            "due_at": None,
            "status": "pending",
            "attempts": 0,
            "created_at": now,
            "send_after": now + GRACE,
        }
        for s in seat_rows
        if not s["is_bot"] and s["user_id"] is not None and s["seat"] != by
    ]
    if rows:
        await conn.execute(_insert_ignore(conn, notices, "key"), rows)


# -- preferences and unsubscribe links -------------------------------------------------


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
    await conn.execute(_insert_ignore(conn, mail_prefs, "user_id"), [_pref_row(user_id)])
    await conn.execute(
        update(mail_prefs).where(mail_prefs.c.user_id == user_id).values(turn_mail=value)
    )


def _pref_row(user_id: int) -> dict[str, Any]:
    return {"user_id": user_id, "turn_mail": "long", "last_digest_at": None}


# -- sending -----------------------------------------------------------------------


@dataclass
class Item:
    """One line of a mail: a match waiting for the player."""

    notice_ids: list[int]
    kind: str  # "turn", "reminder" or "rematch"
    match_id: str
    variant: str
    opponents: list[str]
    due_at: datetime | None
    #: Who offers the rematch.
    by: str | None = None


def human_left(delta: timedelta) -> str:
    """'3 hours 5 minutes', 'less than a minute': a deadline a person can read."""
    secs = int(delta.total_seconds())
    if secs < 60:
        return "less than a minute"
    days, rest = divmod(secs, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = []
    for n, word in ((days, "day"), (hours, "hour"), (minutes, "minute")):
        if n:
            parts.append(f"{n} {word}{'' if n == 1 else 's'}")
    return " ".join(parts[:2])


def _when(at: datetime) -> str:
    return at.strftime("%a %d %b %Y, %H:%M UTC")


def compose(
    settings: Settings, name: str, user_id: int, items: list[Item], now: datetime
) -> tuple[str, str, dict[str, str]]:
    """Subject, body and extra headers of one mail about ``items``."""
    base = settings.base_url or "http://localhost:8000"
    unsub = f"{base}/unsubscribe/{unsubscribe_token(settings, user_id)}"
    reminders = [i for i in items if i.kind == "reminder"]
    turns = [i for i in items if i.kind == "turn"]

    def against(i: Item) -> str:
        return " and ".join(i.opponents) or "your opponents"

    if len(items) == 1:
        i = items[0]
        variant = i.variant.capitalize()
        if reminders:
            left = human_left(i.due_at - now) if i.due_at else "little time"
            subject = f"Reminder: {left} left for your throw against {against(i)}"
        elif i.kind == "rematch":
            subject = f"{i.by} offers you a rematch of your {variant} match"
        else:
            subject = f"Your throw in {variant} against {against(i)}"
    elif reminders:
        subject = f"Time is running out in {len(reminders)} of your matches"
        if len(reminders) == 1:
            subject = f"Time is running out for a throw; {len(items)} matches wait for you"
    elif len(turns) == len(items):
        subject = f"Your throw in {len(turns)} matches"
    else:
        subject = f"{len(items)} matches wait for you"
    lines = [f"Hello {name},", ""]
    for i in sorted(items, key=lambda i: (i.kind != "reminder", i.due_at or now)):
        variant = i.variant.capitalize()
        if i.kind == "reminder":
            lines.append(f"Your throw in {variant} against {against(i)} is still waiting.")
        elif i.kind == "rematch":
            lines.append(
                f"{i.by} offers a rematch of your {variant} match against {against(i)}: "
                "the same seats, variant and deadline, with new dice. It starts when "
                "everyone has accepted; accept or decline on the match's page."
            )
        else:
            lines.append(f"It is your throw in {variant} against {against(i)}.")
        if i.due_at is not None:
            lines.append(
                f"  Deadline: {_when(i.due_at)} (in {human_left(i.due_at - now)})."
                + (" Miss it and you are out of the match." if i.kind == "reminder" else "")
            )
        lines.append(f"  {base}/matches/{i.match_id}")
        lines.append("")
    lines += [
        "-- ",
        "You get this mail because you play on peer2peergames' Jackpot.",
        f"Choose which mails you get: {base}/account",
        f"Stop these mails (no login needed): {unsub}",
    ]
    headers = {
        "List-Unsubscribe": f"<{unsub}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "Auto-Submitted": "auto-generated",
    }
    return subject, "\n".join(lines) + "\n", headers


async def _due_users(db: Database, now: datetime) -> list[int]:
    async with db.read() as conn:
        rows = await conn.execute(
            select(notices.c.user_id)
            .where(notices.c.status == "pending", notices.c.send_after <= now)
            .group_by(notices.c.user_id)
            .order_by(func.min(notices.c.send_after))
            .limit(BATCH)
        )
        return [int(r[0]) for r in rows]


async def _claim(db: Database, user_id: int, owner: str, now: datetime) -> bool:
    """Take the player's lease: a conditional UPDATE only one sweeper can win."""
    async with db.write() as conn:
        await conn.execute(_insert_ignore(conn, mail_prefs, "user_id"), [_pref_row(user_id)])
        res = await conn.execute(
            update(mail_prefs)
            .where(
                mail_prefs.c.user_id == user_id,
                or_(mail_prefs.c.lease_until.is_(None), mail_prefs.c.lease_until < now),
            )
            .values(lease_owner=owner, lease_until=now + LEASE)
        )
        return res.rowcount == 1


async def _release(
    conn: AsyncConnection, user_id: int, owner: str, digest_at: datetime | None
) -> None:
    values: dict[str, Any] = {"lease_owner": None, "lease_until": None}
    if digest_at is not None:
        values["last_digest_at"] = digest_at
    await conn.execute(
        update(mail_prefs)
        .where(mail_prefs.c.user_id == user_id, mail_prefs.c.lease_owner == owner)
        .values(**values)
    )


def _offer_open(n: Any, offer: Any) -> bool:
    """A rematch notice holds while the offer is open and the seat has not accepted."""
    if offer is None or offer.status != "open":
        return False
    return str(n.seat) not in offer.accepted.split(",")


def _still_true(n: Any, match: Any) -> bool:
    """Is what the notice says still so? Checked against the match as it is now."""
    if match is None or match.status != "playing" or match.turn_seat != n.seat:
        return False
    if n.kind == "reminder":
        return bool(match.due_at == n.due_at)
    state = match.state or {}
    turn = state.get("turn") or {}
    # The player has not started this turn: no throw made, none pending a cover.
    return bool(state.get("round") == n.round and turn.get("throws") == 0)


async def _mail_user(db: Database, settings: Settings, user_id: int, now: datetime) -> bool:
    owner = secrets.token_hex(8)
    if not await _claim(db, user_id, owner, now):
        return False  # another sweeper is mailing this player right now
    digest_at: datetime | None = None
    try:
        async with db.read() as conn:
            user = (
                await conn.execute(
                    select(
                        t.users.c.email,
                        t.users.c.name,
                        t.users.c.is_guest,
                        mail_prefs.c.turn_mail,
                        mail_prefs.c.last_digest_at,
                    )
                    .join(mail_prefs, mail_prefs.c.user_id == t.users.c.id)
                    .where(t.users.c.id == user_id)
                )
            ).first()
            due = (
                await conn.execute(
                    select(notices)
                    .where(
                        notices.c.user_id == user_id,
                        notices.c.status == "pending",
                        or_(
                            notices.c.send_after <= now,
                            # turn news held back by the hourly cap, which may
                            # ride along if a reminder goes out anyway
                            and_(
                                notices.c.kind.in_(("turn", "rematch")),
                                notices.c.created_at <= now - GRACE,
                            ),
                        ),
                    )
                    .order_by(notices.c.id)
                )
            ).all()
            match_ids = sorted({n.match_id for n in due})
            matches = {
                r.id: r
                for r in (
                    await conn.execute(
                        select(
                            t.matches.c.id,
                            t.matches.c.status,
                            t.matches.c.variant,
                            t.matches.c.turn_seat,
                            t.matches.c.due_at,
                            t.matches.c.deadline_seconds,
                            t.matches.c.state,
                        ).where(t.matches.c.id.in_(match_ids))
                    )
                ).all()
            }
            offers = {
                r.match_id: r
                for r in (
                    await conn.execute(
                        select(rematch_offers).where(
                            rematch_offers.c.match_id.in_(
                                [n.match_id for n in due if n.kind == "rematch"]
                            )
                        )
                    )
                ).all()
            }
            names: dict[str, list[tuple[int, str]]] = {}
            for s in (
                await conn.execute(
                    select(t.seats.c.match_id, t.seats.c.seat, t.seats.c.name).where(
                        t.seats.c.match_id.in_(match_ids)
                    )
                )
            ).all():
                names.setdefault(s.match_id, []).append((s.seat, s.name or "a free seat"))
        pref = user.turn_mail if user is not None else "off"
        can_mail = user is not None and bool(user.email) and not user.is_guest
        cap_until = user.last_digest_at + DIGEST_GAP if user and user.last_digest_at else None
        drop: list[int] = []
        hold: list[int] = []
        items: dict[str, Item] = {}
        for n in due:
            match = matches.get(n.match_id)
            wanted = can_mail and pref != "off"
            if wanted and n.kind != "reminder" and pref == "long":
                wanted = match is not None and match.deadline_seconds > DEFAULT_MIN_DEADLINE
            if n.kind == "rematch":
                true = _offer_open(n, offers.get(n.match_id))
            else:
                true = _still_true(n, match)
            if not wanted or not true:
                drop.append(n.id)
                continue
            item = items.get(n.match_id)
            if item is None:
                item = items[n.match_id] = Item(
                    [],
                    n.kind,
                    n.match_id,
                    match.variant,
                    [nm for seat, nm in sorted(names.get(n.match_id, [])) if seat != n.seat],
                    match.due_at if n.kind != "rematch" else None,
                )
                if n.kind == "rematch":
                    by = offers[n.match_id].offered_by
                    item.by = dict(names.get(n.match_id, [])).get(by, "Another player")
            item.notice_ids.append(n.id)
            if n.kind == "reminder":
                item.kind = "reminder"  # the more urgent news says it all
        held_until: datetime | None = None
        if not any(i.kind == "reminder" for i in items.values()):
            # No reminder goes out: news already held for the cap stays held...
            riders = {n.id for n in due if n.send_after > now}
            for key, item in list(items.items()):
                item.notice_ids = [i for i in item.notice_ids if i not in riders]
                if not item.notice_ids:
                    del items[key]
            if cap_until is not None and cap_until > now:
                # ...and so does new turn news, if a mail went out within the hour.
                for item in items.values():
                    hold.extend(item.notice_ids)
                items = {}
                held_until = cap_until
        if drop or hold:
            async with db.write() as conn:
                if drop:
                    await conn.execute(
                        update(notices)
                        .where(notices.c.id.in_(drop), notices.c.status == "pending")
                        .values(status="dropped")
                    )
                if hold:
                    await conn.execute(
                        update(notices)
                        .where(notices.c.id.in_(hold), notices.c.status == "pending")
                        .values(send_after=held_until)
                    )
        if not items:
            return False
        assert user is not None and user.email
        subject, body, headers = compose(settings, user.name, user_id, list(items.values()), now)
        ids = [i for item in items.values() for i in item.notice_ids]
        try:
            await send_mail(settings, user.email, subject, body, headers=headers)
        except Exception as exc:  # any failure of the mail server: retry later
            log.warning("mail to user %s failed: %s", user_id, exc)
            async with db.write() as conn:
                for n in due:
                    if n.id not in ids:
                        continue
                    attempts = n.attempts + 1
                    await conn.execute(
                        update(notices)
                        .where(notices.c.id == n.id, notices.c.status == "pending")
                        .values(
                            attempts=attempts,
                            send_after=now + backoff(attempts),
                            status="failed" if attempts >= MAX_ATTEMPTS else "pending",
                            error=str(exc)[:200],
                        )
                    )
            return False
        async with db.write() as conn:
            await conn.execute(
                update(notices)
                .where(notices.c.id.in_(ids), notices.c.status == "pending")
                .values(status="sent", sent_at=now, attempts=notices.c.attempts + 1)
            )
        # Any mail with turn news starts the hour; so does a reminder, which said
        # everything that was waiting.
        digest_at = now
        return True
    finally:
        async with db.write() as conn:
            await _release(conn, user_id, owner, digest_at)


async def mail_step(db: Database, settings: Settings, now: datetime | None = None) -> int:
    """Send every mail that is due at ``now``; returns how many this copy sent."""
    now = now or utcnow()
    sent = 0
    for user_id in await _due_users(db, now):
        try:
            if await _mail_user(db, settings, user_id, now):
                sent += 1
        except Exception:  # one player's trouble must not stop everybody's mail
            log.exception("mail step failed for user %s", user_id)
    return sent


async def waiting_turns(conn: AsyncConnection, user_id: int) -> list[dict[str, Any]]:
    """Matches between people where it is this player's throw (for the tab title and
    the browser's notifications)."""
    h = t.seats.alias("h")
    humans = (
        select(func.count())
        .select_from(h)
        .where(and_(h.c.match_id == t.matches.c.id, h.c.is_bot.is_(False)))
        .scalar_subquery()
    )
    rows = (
        await conn.execute(
            select(t.matches.c.id, t.matches.c.variant, t.matches.c.due_at)
            .join(t.seats, t.seats.c.match_id == t.matches.c.id)
            .where(
                t.seats.c.user_id == user_id,
                t.seats.c.is_bot.is_(False),
                t.matches.c.status == "playing",
                t.matches.c.turn_seat == t.seats.c.seat,
                humans >= 2,
            )
            .order_by(t.matches.c.due_at)
            .limit(50)
        )
    ).all()
    return [{"id": r.id, "variant": r.variant, "due_at": iso(r.due_at)} for r in rows]


#: How often the mail worker looks for due mail; reminders need no finer timing.
MAIL_INTERVAL = 5.0
#: Sent and dropped notices are kept this long (to answer "did I get mailed?").
KEEP_NOTICES = timedelta(days=30)


async def forget_old_notices(db: Database, now: datetime | None = None) -> None:
    cutoff = (now or utcnow()) - KEEP_NOTICES
    async with db.write() as conn:
        await conn.execute(
            delete(notices).where(notices.c.status != "pending", notices.c.created_at < cutoff)
        )


async def run_mailer(db: Database, settings: Settings, stop: asyncio.Event) -> None:
    """The mail worker loop, run by the sweeper until ``stop`` (an asyncio.Event)."""
    loop = asyncio.get_running_loop()
    last_cleanup = 0.0
    while not stop.is_set():
        try:
            await mail_step(db, settings)
            if loop.time() - last_cleanup > 3600:
                last_cleanup = loop.time()
                await forget_old_notices(db)
        except Exception:  # keep going: the next pass retries
            log.exception("mail step failed")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=MAIL_INTERVAL)
