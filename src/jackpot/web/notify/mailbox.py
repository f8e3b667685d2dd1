"""One player's due notices, read at once and sorted into send, hold and drop.

What goes out now, what waits for the hourly cap, and what is no longer true (or no
longer wanted) and is dropped. An account whose address is not confirmed gets none
of it (turn, reminder, end and rematch news, digests): its notices are dropped, and
only the confirmation mail and reset mails go to the address (confirmations.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.storage.snapshots import match_of
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.notify import mail_prefs, notices
from jackpot.web.base.tables.play import rematch_offers
from jackpot.web.notify.compose import FREE_SEAT, Item
from jackpot.web.notify.confirmations import confirmed
from jackpot.web.notify.notices import END_KINDS, GRACE, SPARE

#: At most one mail with turn news per player per hour.
DIGEST_GAP = timedelta(hours=1)
#: Turn mails by default only when a throw may take this many seconds or more: the
#: same rule as reminders (``notices.REMIND_MIN_DEADLINE``) and autoplay's default.
DEFAULT_MIN_DEADLINE = 3600


@dataclass
class Mailbox:
    """One player's pending notices and what they refer to, read in one transaction."""

    #: email, name, locale, is_guest, turn_mail, last_digest_at, email_confirmed (None:
    #: no such player).
    user: Any
    due: Sequence[Any]
    matches: dict[str, Any]
    offers: dict[str, Any]
    #: Per match, (seat, name) of every seat.
    names: dict[str, list[tuple[int, str]]]


@dataclass
class Sorted:
    """What to do with a mailbox's notices."""

    #: One line per match (and one for its end), for the mail that goes out now
    #: (empty: no mail).
    items: dict[str, Item] = field(default_factory=dict)
    drop: list[int] = field(default_factory=list)
    hold: list[int] = field(default_factory=list)
    held_until: datetime | None = None


async def read_mailbox(conn: AsyncConnection, user_id: int, now: datetime) -> Mailbox:
    user = (
        await conn.execute(
            select(
                t.users.c.email,
                t.users.c.name,
                t.users.c.locale,
                t.users.c.is_guest,
                mail_prefs.c.turn_mail,
                mail_prefs.c.last_digest_at,
                confirmed().label("email_confirmed"),
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
                    # turn news held back by the hourly cap, which may ride along if a
                    # reminder goes out anyway
                    and_(
                        notices.c.kind != "reminder",
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
                    t.matches.c.result,
                ).where(t.matches.c.id.in_(match_ids))
            )
        ).all()
    }
    rematch_ids = [n.match_id for n in due if n.kind == "rematch"]
    offers = {
        r.match_id: r
        for r in (
            await conn.execute(
                select(rematch_offers).where(rematch_offers.c.match_id.in_(rematch_ids))
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
        names.setdefault(s.match_id, []).append((s.seat, s.name or FREE_SEAT))
    return Mailbox(user, due, matches, offers, names)


def sort_mailbox(box: Mailbox, now: datetime) -> Sorted:
    """Drop what is no longer wanted or true, gather the rest by match, then hold
    turn news for the hourly cap unless a reminder goes out anyway."""
    out = _gather(box)
    if not any(i.kind in ("reminder", SPARE) for i in out.items.values()):
        _hold_for_the_cap(box, out, now)
    return out


def _gather(box: Mailbox) -> Sorted:
    user = box.user
    pref = user.turn_mail if user is not None else "off"
    can_mail = (
        user is not None and bool(user.email) and not user.is_guest and user.email_confirmed
    )
    out = Sorted()
    for n in box.due:
        match = box.matches.get(n.match_id)
        wanted = can_mail and pref != "off"
        if wanted and n.kind != "reminder" and pref == "long":
            wanted = match is not None and match.deadline_seconds >= DEFAULT_MIN_DEADLINE
        if n.kind == "rematch":
            true = offer_open(n, box.offers.get(n.match_id))
        else:
            true = still_true(n, match)
        if not wanted or not true:
            out.drop.append(n.id)
            continue
        # The end of a match is a line of its own: a rematch offer may follow it.
        key = f"{n.match_id}:end" if n.kind in END_KINDS else n.match_id
        item = out.items.get(key)
        if item is None:
            item = out.items[key] = _item(box, n, match)
        item.notice_ids.append(n.id)
        if n.kind == "reminder" or (n.kind == SPARE and item.kind == "turn"):
            item.kind = n.kind  # the more urgent news says it all
            item.spares_left = spares_left_of(n.seat, match)
    return out


def _item(box: Mailbox, n: Any, match: Any) -> Item:
    """The mail's line for the notice's match."""
    seats = box.names.get(n.match_id, [])
    item = Item(
        [],
        n.kind,
        n.match_id,
        match.variant,
        [name for seat, name in sorted(seats) if seat != n.seat],
        match.due_at if n.kind in ("turn", "reminder", SPARE) else None,
    )
    if n.kind == SPARE:
        item.spares_left = spares_left_of(n.seat, match)
    if n.kind == "rematch":
        item.by = dict(seats).get(box.offers[n.match_id].offered_by, "Another player")
    if n.kind in END_KINDS:
        item.by, item.reason, item.place = ending(n, match, dict(seats))
    return item


def spares_left_of(seat: int, match: Any) -> int:
    """The spare deadlines ``seat`` has left, as the match's state says now."""
    m = match_of(match._mapping)
    return m.spares_left[seat] if m is not None and seat < len(m.spares_left) else 0


def ending(n: Any, match: Any, names: dict[int, Any]) -> tuple[Any, str | None, int | None]:
    """How a match ended for the seat of end news ``n``: who left last and why (the
    seat itself for "out"; for "ended", whoever's leaving ended it, even if the seat
    left before; none when the match went on or ended by play), and the seat's place
    once the match is over."""
    seat = n.seat
    state = match.state or {}
    out: list[str | None] = state.get("out") or []
    left: list[int] = state.get("left") or []
    places = (match.result or {}).get("places") or []
    place = places[seat] if seat < len(places) else None
    if n.kind == "out" and seat < len(out) and out[seat] is not None:
        return names.get(seat), out[seat], place
    still_in = [s for s, why in enumerate(out) if why is None]
    if left and len(still_in) == 1:
        return names.get(left[-1]), out[left[-1]], place
    return None, None, place


def _hold_for_the_cap(box: Mailbox, out: Sorted, now: datetime) -> None:
    """No reminder goes out: news already held for the cap stays held, and so does
    new turn news if a mail went out within the hour."""
    riders = {n.id for n in box.due if n.send_after > now}
    for key, item in list(out.items.items()):
        item.notice_ids = [i for i in item.notice_ids if i not in riders]
        if not item.notice_ids:
            del out.items[key]
    user = box.user
    cap_until = user.last_digest_at + DIGEST_GAP if user and user.last_digest_at else None
    if cap_until is not None and cap_until > now:
        for item in out.items.values():
            out.hold.extend(item.notice_ids)
        out.items = {}
        out.held_until = cap_until


def offer_open(n: Any, offer: Any) -> bool:
    """A rematch notice holds while the offer is open and the seat has not accepted."""
    if offer is None or offer.status != "open":
        return False
    return str(n.seat) not in offer.accepted.split(",")


def still_true(n: Any, match: Any) -> bool:
    """Is what the notice says still so? Checked against the match as it is now.
    The end of a match stays true for good."""
    if n.kind in END_KINDS:
        return match is not None
    if match is None or match.status != "playing":
        return False
    if n.kind == SPARE:
        # Until the seat is out: the spare went whatever it did since.
        out: list[str | None] = (match.state or {}).get("out") or []
        return n.seat >= len(out) or out[n.seat] is None
    if match.turn_seat != n.seat:
        return False
    if n.kind == "reminder":
        return bool(match.due_at == n.due_at)
    state = match.state or {}
    turn = state.get("turn") or {}
    # The player has not started this turn: no throw made, none pending a cover; or
    # autoplay made its throws and the choice it stopped at still waits (the
    # deadline is the one the notice was written for).
    untouched = turn.get("throws") == 0 or match.due_at == n.due_at
    return bool(state.get("round") == n.round and untouched)
