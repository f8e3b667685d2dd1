"""Shared by seeks and challenges: who may ask, the kinds of match, how long they wait, news.

A seek or a challenge for a quick match (under an hour a throw) waits ten minutes
at most: its clock starts as soon as it is answered, and a player who asked for a
quick match and left would lose it on time. One for a slower match waits a week.

Finding people needs an account: a guest (or nobody) gets 403 ``account_required``
as the daily deal answers, since a pairing or a challenge names a person. A player
hears of a pairing or a challenge on their own live stream (notify/stream.py), sent
once the transaction that made it has committed.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.engine import Variant
from jackpot.web.base.errors import forbidden, invalid
from jackpot.web.base.identity import Actor
from jackpot.web.base.settings import MAX_DEADLINE_SECONDS
from jackpot.web.base.storage.db import publish_on_commit
from jackpot.web.notify.user_hub import channel
from jackpot.web.play.seating import MAX_SEATS

#: Under this many seconds a throw, a match is a quick one.
SHORT = 3600
#: How long a seek or a challenge waits for a quick match at most, and for a slower one.
SHORT_WAIT = timedelta(minutes=10)
LONG_WAIT = timedelta(days=7)


def waits_for(deadline_seconds: int) -> timedelta:
    """How long a seek or a challenge with this deadline stays open at most."""
    return SHORT_WAIT if deadline_seconds < SHORT else LONG_WAIT


def require_account(actor: Actor | None) -> Actor:
    """The caller, who must have an account (403 ``account_required`` otherwise)."""
    if actor is None or actor.is_guest:
        raise forbidden(
            "finding people to play needs an account: sign up or log in", "account_required"
        )
    return actor


def check_variant(value: str) -> Variant:
    try:
        return Variant(value)
    except ValueError:
        raise invalid(
            "variant must be 'jackpot' or 'classic', not %(given)s", given=repr(value)
        ) from None


def check_deadline(seconds: int, least: int) -> int:
    if not least <= seconds <= MAX_DEADLINE_SECONDS:
        raise invalid(
            "deadline_seconds must be from %(least)s to %(most)s (one week), not %(given)s",
            least=least,
            most=MAX_DEADLINE_SECONDS,
            given=seconds,
        )
    return seconds


def check_seats(seats: int) -> int:
    if not 2 <= seats <= MAX_SEATS:
        raise invalid(
            "a match between people has 2 to %(most)s seats, not %(seats)s",
            most=MAX_SEATS,
            seats=seats,
        )
    return seats


def tell(conn: AsyncConnection, user_id: int, event: dict[str, Any]) -> None:
    """``event`` on the player's own stream, once the transaction commits."""
    publish_on_commit(conn, channel(user_id), [event])
