"""A record's seats and events: their values, their JSON, and their strict reading.

A throw and its cover are one entry, as a player sees them; a seat going out is
another, a spare deadline used (``/4``) a third, and at a tournament table the round's
time running out a fourth. ``record.py`` puts them in a whole record, ``recorder.py``
writes them from the engine's events.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Literal, TypeAlias, cast

from jackpot.fair.fields import (
    RecordFormatError,
    read_int,
    read_list,
    read_object,
    read_text,
    refusal,
)
from jackpot.strategy.strength import Strength

MAX_SEATS = 4
#: A bot seat's strength before the seed is published (it is drawn from the seed).
HIDDEN = "hidden"
#: A person's seat whose client seed the server made (none was sent): ``"seed_by": "server"``.
SEED_BY = "seed_by"
SEED_BY_SERVER = "server"

OutReason: TypeAlias = Literal["resigned", "timeout"]
OUT_REASONS: tuple[OutReason, ...] = ("resigned", "timeout")


@dataclass(frozen=True, slots=True)
class SeatEntry:
    name: str
    bot: Strength | None = None
    #: A bot whose strength is not shown yet: ``"bot": "hidden"`` until the seed is.
    hidden: bool = False
    #: A person whose part of the client seed the server made, as none was sent.
    seed_by_server: bool = False

    @property
    def is_bot(self) -> bool:
        return self.bot is not None or self.hidden

    def to_dict(self) -> dict[str, Any]:
        bot = HIDDEN if self.hidden else None if self.bot is None else str(self.bot)
        marker = {SEED_BY: SEED_BY_SERVER} if self.seed_by_server else {}
        return {"name": self.name, "bot": bot, **marker}


@dataclass(frozen=True, slots=True)
class ThrowEntry:
    """A throw and the cover chosen for it.

    ``cover`` is ``()`` for a dead throw (nothing on offer: the turn ended) and
    ``None`` when the seat went out, or the match ended, before a cover was chosen.
    """

    n: int
    seat: int
    dice: tuple[int, ...]
    cover: tuple[int, ...] | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "throw",
            "n": self.n,
            "seat": self.seat,
            "dice": list(self.dice),
            "cover": None if self.cover is None else list(self.cover),
        }


@dataclass(frozen=True, slots=True)
class OutEntry:
    seat: int
    reason: OutReason

    def to_dict(self) -> dict[str, Any]:
        return {"type": "out", "seat": self.seat, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class SpareEntry:
    """A seat's deadline passed and one of its spares was used (``/4``); no die changes."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "spare", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class LastRoundEntry:
    """The tournament round's time ran out while the match played its round ``round``:
    the match ended with that round (``Match.end_after_round``)."""

    round: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "last_round", "round": self.round}


RecordEvent: TypeAlias = ThrowEntry | OutEntry | SpareEntry | LastRoundEntry


def read_seats(value: object, *, hidden_allowed: bool) -> tuple[SeatEntry, ...]:
    seats = read_list(value, "seats", f"a list of 1 to {MAX_SEATS} seats")
    if not 1 <= len(seats) <= MAX_SEATS:
        raise RecordFormatError(f"seats: expected 1 to {MAX_SEATS} seats, got {len(seats)}")
    out = []
    for i, raw in enumerate(seats):
        d = read_object(raw, f"seats[{i}]", ("name", "bot"), (SEED_BY,))
        name = read_text(d["name"], f"seats[{i}].name")
        bot = d["bot"]
        by_server = _read_seed_by(d, f"seats[{i}].{SEED_BY}")
        if bot == HIDDEN and hidden_allowed:
            out.append(SeatEntry(name, hidden=True))
            continue
        if bot is not None and (not isinstance(bot, str) or bot not in {s.value for s in Strength}):
            hidden = ', or "hidden" before the seed is published' if hidden_allowed else ""
            expected = f'null (a person) or "lowest", "highest" or "best"{hidden}'
            raise refusal(f"seats[{i}].bot", expected, bot)
        strength = None if bot is None else Strength(bot)
        out.append(SeatEntry(name, strength, seed_by_server=by_server))
    return tuple(out)


def _read_seed_by(seat: dict[str, Any], where: str) -> bool:
    """Whether a seat says the server made its part of the client seed: only a person has
    a part, so only a person's seat may say so."""
    if SEED_BY not in seat:
        return False
    if seat[SEED_BY] != SEED_BY_SERVER:
        expected = f'"{SEED_BY_SERVER}" (the server made this person\'s part)'
        raise refusal(where, expected, seat[SEED_BY])
    if seat["bot"] is not None:
        raise RecordFormatError(f"{where}: a bot adds no part to the client seed")
    return True


def read_seat(value: object, where: str, n_seats: int) -> int:
    return read_int(value, where, 0, n_seats - 1, f"a seat number 0-{n_seats - 1}")


def read_event(
    value: object, where: str, n_seats: int, *, spares: bool = False, last_round: bool = False
) -> RecordEvent:
    """One event; ``spares``: the record gives spare deadlines, so a spare may be used;
    ``last_round``: the match was a tournament table's, so its round's time may have run out."""
    if not isinstance(value, Mapping):
        raise refusal(where, "an object", value)
    kind = cast(Mapping[str, Any], value).get("type")
    if kind == "spare" and spares:
        d = read_object(value, where, ("type", "seat"))
        return SpareEntry(seat=read_seat(d["seat"], f"{where}.seat", n_seats))
    if kind == "last_round" and last_round:
        d = read_object(value, where, ("type", "round"))
        return LastRoundEntry(
            round=read_int(d["round"], f"{where}.round", 1, None, "a round number from 1")
        )
    if kind == "throw":
        d = read_object(value, where, ("type", "n", "seat", "dice", "cover"))
        return ThrowEntry(
            n=read_int(d["n"], f"{where}.n", 0, None, "a throw number >= 0"),
            seat=read_seat(d["seat"], f"{where}.seat", n_seats),
            dice=read_dice(d["dice"], f"{where}.dice"),
            cover=None if d["cover"] is None else read_cover(d["cover"], f"{where}.cover"),
        )
    if kind == "out":
        d = read_object(value, where, ("type", "seat", "reason"))
        reason = d["reason"]
        if reason not in OUT_REASONS or not isinstance(reason, str):
            raise refusal(f"{where}.reason", '"resigned" or "timeout"', reason)
        seat = read_seat(d["seat"], f"{where}.seat", n_seats)
        return OutEntry(seat=seat, reason=cast(OutReason, reason))
    if kind == "spare":
        raise RecordFormatError(
            f"{where}: a spare deadline used, but the record gives none (no \"spares\")"
        )
    if kind == "last_round":
        raise RecordFormatError(
            f"{where}: the match ends with its round, but only a tournament table's does"
        )
    kinds = ["throw", "out"] + ["spare"] * spares + ["last_round"] * last_round
    named = ", ".join(f'"{k}"' for k in kinds[:-1]) + f' or "{kinds[-1]}"'
    raise refusal(f"{where}.type", named, kind)


def read_dice(value: object, where: str) -> tuple[int, ...]:
    expected = "a list of 1 or 2 dice 1-6"
    if not isinstance(value, list) or not 1 <= len(value) <= 2:
        raise refusal(where, expected, value)
    for die in value:
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            raise RecordFormatError(f"{where}: expected {expected}, got {die!r} in it")
    return tuple(value)


def read_cover(value: object, where: str) -> tuple[int, ...]:
    expected = "null or a list of distinct tiles 1-9 in ascending order"
    if not isinstance(value, list):
        raise refusal(where, expected, value)
    for tile in value:
        if isinstance(tile, bool) or not isinstance(tile, int) or not 1 <= tile <= 9:
            raise RecordFormatError(f"{where}: expected {expected}, got {tile!r} in it")
    if any(a >= b for a, b in pairwise(value)):
        raise RecordFormatError(f"{where}: expected {expected}, got {value!r}")
    return tuple(value)
