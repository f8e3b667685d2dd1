"""The match forms' choices (new match, home page), read and checked in plain words.

The forms offer only good choices, so a wrong value means it was edited in the
browser or posted by a script. The API's messages for the same mistakes name its
JSON fields ("deadline_seconds must be from ..."), which tell a person nothing: here
each says which choice on the form was wrong, before the API's own checks run.
The home page's one-click buttons post a variant and a mode in hidden fields, refused
the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.datastructures import FormData

from jackpot.engine import MAX_SPARES, Variant
from jackpot.web.base.edge.forms import form_text
from jackpot.web.base.errors import invalid
from jackpot.web.base.settings import (
    DEFAULT_EXPIRY_SECONDS,
    MAX_DEADLINE_SECONDS,
    MAX_EXPIRY_SECONDS,
    MIN_EXPIRY_SECONDS,
)
from jackpot.web.play.seating import MAX_SEATS

#: The engine's variants, as the form names them.
VARIANTS = tuple(v.value for v in Variant)

#: The home page's ways to play at once: against the bot, or alone.
QUICK_MODES = ("bot", "solo")


@dataclass(frozen=True)
class MatchChoices:
    """What the form chose, each value within what ``seating.create_match`` takes."""

    variant: str
    seats: int
    bots: int
    deadline_seconds: int
    expiry_seconds: int
    #: 0 for a match with one person: the form's choice only counts between people.
    spares: int = 0


@dataclass(frozen=True)
class QuickPlay:
    """What a home-page button asked for: a variant, and the bot or practice alone."""

    variant: str
    solo: bool


def read_quick_play(form: FormData) -> QuickPlay:
    """The home page button's choices; a 422 saying in words which one is wrong."""
    variant = _variant(form)
    mode = form_text(form, "mode", "bot")
    if mode not in QUICK_MODES:
        raise invalid("choose to play the bot or to practise alone", "bad_mode")
    return QuickPlay(variant, mode == "solo")


def _variant(form: FormData) -> str:
    """The form's variant, or a 422 naming the two there are."""
    variant = form_text(form, "variant", "jackpot")
    if variant not in VARIANTS:
        raise invalid("choose a variant: Jackpot or Classic", "bad_variant")
    return variant


def _number(form: FormData, key: str, default: int) -> int | None:
    """The field as a whole number (``default`` when absent), None when it is not one."""
    text = form_text(form, key, str(default)).strip()
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        return None
    return int(text)


def read_choices(form: FormData, min_deadline: int) -> MatchChoices:
    """The form's choices; a 422 naming the choice that is wrong, in the reader's words."""
    variant = _variant(form)
    seats = _number(form, "seats", 2)
    if seats is None or not 1 <= seats <= MAX_SEATS:
        raise invalid("choose a number of seats from the list (1 to %(most)s)", most=MAX_SEATS)
    bots = _number(form, "bots", 0)
    if bots is None or not 0 <= bots <= seats - 1:
        raise invalid("choose fewer bots than seats: one seat is always yours")
    deadline = _number(form, "deadline_seconds", 86400)
    if deadline is None or not min_deadline <= deadline <= MAX_DEADLINE_SECONDS:
        raise invalid("choose a deadline for each throw from the list")
    expiry = _number(form, "expiry_seconds", DEFAULT_EXPIRY_SECONDS)
    if expiry is None or not MIN_EXPIRY_SECONDS <= expiry <= MAX_EXPIRY_SECONDS:
        raise invalid("choose how long to wait for players from the list")
    return MatchChoices(variant, seats, bots, deadline, expiry, read_spares(form, seats - bots))


def read_spares(form: FormData, people: int = 2) -> int:
    """The form's spare deadlines (0 when absent), or a 422 in words; 0 whatever was
    chosen when only one person plays, since a bot never waits for a spare."""
    spares = _number(form, "spares", 0)
    if spares is None or not 0 <= spares <= MAX_SPARES:
        raise invalid("choose a number of spare deadlines from the list (0 to %(most)s)",
                      most=MAX_SPARES)
    return spares if people >= 2 else 0
