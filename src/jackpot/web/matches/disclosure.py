"""The one rule for when a match's server seed may be shown, and what shows with it.

A seed shown too early lets its reader work out every throw to come, so every
place that shows one asks here: the state, the record, the live events, the
replay, the pages and the verifier's fetch. A match's seed is shown once the match
is over (played out, resigned, timed out, called off or expired), unless its row
holds it back until a later time: a daily entry's seed stays hidden until its day
ends, because everyone else plays the same dice that day. Bot strengths are drawn
from the seed, so they are shown with it and not before.

The daily deal's own secrets are decided here too: an entry's throws (its match, its
record, its replay) belong to its player alone until the day ends, and the deal's
seed is published once the day has closed. Nothing else on the site compares a
clock with a day's end to decide what may be seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from jackpot.web.base.clock import utcnow

#: Shown in a record in place of a bot's strength while the seed is hidden.
HIDDEN = "hidden"


def seed_public(row: Any, now: datetime | None = None, *, ending: bool = False) -> bool:
    """Whether the match's seed may be shown at ``now``: the match is over (or is
    ending in the action that asks: ``ending``, where the row read before it still
    says otherwise) and no later time holds the seed back."""
    if not ending and row["status"] != "finished":
        return False
    hidden_until: datetime | None = row["seed_hidden_until"]
    return hidden_until is None or hidden_until <= (now or utcnow())


def shown_seed(row: Any, now: datetime | None = None, *, ending: bool = False) -> str | None:
    """The server seed where ``seed_public`` allows it, else None."""
    seed: str = row["server_seed"]
    return seed if seed_public(row, now, ending=ending) else None


def shown_strength(row: Any, seat: Any, now: datetime | None = None) -> str | None:
    """A bot seat's strength as a list of seats shows it: its match's seed is public
    (``row``: the match's ``status`` and ``seed_hidden_until``), else None."""
    if not seat["is_bot"] or not seat["strength"]:
        return None
    return str(seat["strength"]) if seed_public(row, now) else None


def shown_strengths(
    row: Any, seats: Sequence[Any], now: datetime | None = None, *, ending: bool = False
) -> list[str | None]:
    """Each seat's bot strength where the seed may be shown, else ``HIDDEN`` (also
    for a bot whose strength was never drawn: the match was called off); None for a
    person."""
    public = seed_public(row, now, ending=ending)
    return [
        ((s["strength"] if public else None) or HIDDEN) if s["is_bot"] else None
        for s in seats
    ]


def day_over(closes_at: datetime, now: datetime | None = None) -> bool:
    """A daily deal's day has ended: its entries' throws may be seen by anyone."""
    return closes_at <= (now or utcnow())


def match_shown(row: Any, viewer_id: int | None, now: datetime | None = None) -> bool:
    """Whether ``viewer_id`` may see the match at all (its state, record, replay,
    moves, live events): every match, but a daily entry during its day only to its
    player (``entry_shown``; its seed is held back until the day's close). Anyone else
    is answered as if there were no such match."""
    closes_at: datetime | None = row["seed_hidden_until"]
    if row["origin"] != "daily" or closes_at is None:
        return True
    return entry_shown(closes_at, row["creator_id"], viewer_id, now)


def entry_shown(
    closes_at: datetime, player_id: int | None, viewer_id: int | None, now: datetime | None = None
) -> bool:
    """Whether ``viewer_id`` may see a daily entry's throws (its match, record,
    replay): its own player at any time, anybody once the day is over. Everybody
    faces the same dice, so one entry seen early would tell the others what comes."""
    own = viewer_id is not None and viewer_id == player_id
    return own or day_over(closes_at, now)


def deal_seed(deal: Any) -> str | None:
    """A daily deal's server seed, published once its day has closed (the close, just
    after the day ends, fixes par from it); None before."""
    return str(deal["server_seed"]) if deal["closed_at"] is not None else None
