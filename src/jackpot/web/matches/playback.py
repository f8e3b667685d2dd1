"""How fast the match page plays out the moves a person watches, and how long that takes.

The page shows each throw and cover made by another seat (a bot's, autoplay's for
another person, another person's), and every dead throw, on its own, then waits
before the next: ``PACE_THROW_MS`` after a throw, ``PACE_COVER_MS`` after a cover, at
its normal speed (static/match-playback.js has both from the page's data attributes,
which come from here). A person can act on a throw that became due after such moves
only once the page has shown them, so their clock starts then: play/move_plan.py adds
the ``playback_ms`` of the events that led to the throw, as that person's page plays
them at its slowest speed, to the deadline it enforces, shows, mails and pushes. Another
person's moves are an action each, so the match keeps, per seat, when its page will
have played out the backlog of earlier actions (``matches.shown_until``), and the
playback of a new action starts there. So no
speed a person may choose costs them time; at a faster one, or after "Skip to now",
the clock stands at the whole deadline for a while after the moves are shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

#: The pause after a throw the page plays out: long enough to read the dice and what
#: they offer (or that they offer nothing).
PACE_THROW_MS = 600
#: The pause after a cover the page plays out: the tiles just covered are marked.
PACE_COVER_MS = 400
#: The page's slowest speed, as a factor of the pace (SPEEDS.slow there).
SLOWEST = 2


def paced(ev: Mapping[str, Any], viewer: int | None) -> bool:
    """Whether the page of the person in seat ``viewer`` (None: a visitor) plays this
    live event out: another seat's throw or cover, or a throw that reached nothing.
    The person's own moves land at once, as they made them."""
    if ev["type"] == "thrown":
        return bool(ev["seat"] != viewer or not ev["options"])
    return bool(ev["type"] == "covered" and ev["seat"] != viewer)


def pace_ms(ev: Mapping[str, Any]) -> int:
    """The pause after ``ev`` at the normal speed, once it is shown."""
    return PACE_THROW_MS if ev["type"] == "thrown" else PACE_COVER_MS


def playback_ms(events: Iterable[Mapping[str, Any]], viewer: int | None) -> int:
    """How long the page of seat ``viewer`` takes, at its slowest speed, to play out
    ``events`` (a move's live events, in order) up to the position after them."""
    return SLOWEST * sum(pace_ms(ev) for ev in events if paced(ev, viewer))
