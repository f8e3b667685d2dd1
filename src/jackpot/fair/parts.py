"""Server seeds made of parts: one part per person, each committed to before their client seed.

A match made for several people at once (play now, a challenge, a rematch, a tournament
table) has no creator to show a seed to before anyone chooses a client seed. So each
person is shown the commitment of a part of their own first, and the server seed is the
hash of the parts in joining order (a tournament table's with its round and table after
them): each person can check that their own part, fixed before their seed, went into
the dice, and the server could not try seeds against theirs. Pure: the caller draws
each part (``secrets.token_hex(32)``), as it draws a server seed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jackpot.fair.fields import (
    HEX64,
    RecordFormatError,
    read_hex64,
    read_int,
    read_list,
    read_object,
    read_text,
    refusal,
)

#: Parts are joined by this, as the people's client seeds are.
PART_JOIN = "."


@dataclass(frozen=True, slots=True)
class TournamentTable:
    """The record's ``"tournament"``: the table a match was played at (round, table 1-based)."""

    id: str
    round: int
    table: int

    @property
    def suffix(self) -> str:
        """What follows the parts in the seed's hash: ``":r" + round + ":t" + table``."""
        return tournament_suffix(self.round, self.table)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "round": self.round, "table": self.table}


@dataclass(frozen=True, slots=True)
class SeedPart:
    """One entry of the record's ``"parts"``: a part's commitment, and the part once shown."""

    commitment: str
    #: None until the part may be shown (the match's end; a tournament's parts at its end).
    part: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"commitment": self.commitment, "part": self.part}


def check_part(part: object) -> str:
    """A part as it is drawn: 64 lowercase hex characters (its text is what is hashed)."""
    if not isinstance(part, str) or not HEX64.fullmatch(part):
        raise ValueError(
            f"a part of the server seed is 64 lowercase hex characters (0-9, a-f), not {part!r}"
        )
    return part


def part_commitment(part: str) -> str:
    """Lowercase hex SHA-256 of the part's ASCII text: what its person is shown first."""
    return hashlib.sha256(check_part(part).encode("ascii")).hexdigest()


def tournament_suffix(round_number: int, table: int) -> str:
    """``":r3:t2"`` for round 3, table 2 (both 1-based)."""
    for name, value in (("round", round_number), ("table", table)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"a tournament's {name} is a whole number from 1, not {value!r}")
    return f":r{round_number}:t{table}"


def seed_from_parts(parts: Sequence[str], tournament: TournamentTable | None = None) -> str:
    """The server seed made of ``parts`` (in joining order): lowercase hex SHA-256 of the
    parts joined by ``.``, followed at a tournament table by ``":r" + round + ":t" + table``.

    The result is itself 64 lowercase hex characters, so it is a server seed like any
    other: its commitment, the dice and the draw follow from it as from a drawn one.
    """
    if isinstance(parts, str):
        raise TypeError("seed_from_parts takes a sequence of parts, not one string")
    if not parts:
        raise ValueError("a server seed made of parts needs at least one part")
    text = PART_JOIN.join(check_part(p) for p in parts)
    if tournament is not None:
        text += tournament.suffix
    return hashlib.sha256(text.encode("ascii")).hexdigest()


# ---------------------------------------------------------------- reading a record


def read_parts(value: object, *, seed_published: bool) -> tuple[SeedPart, ...]:
    """The record's ``"parts"``: every part shown, or none (they are published together,
    and never before the server seed they make)."""
    expected = 'a list of {"commitment", "part"}, one per person in joining order'
    items = read_list(value, "parts", expected)
    if not items:
        raise refusal("parts", expected, value)
    parts = []
    for i, raw in enumerate(items):
        d = read_object(raw, f"parts[{i}]", ("commitment", "part"))
        shown = d["part"]
        parts.append(
            SeedPart(
                commitment=read_hex64(d["commitment"], f"parts[{i}].commitment"),
                part=None if shown is None else read_hex64(shown, f"parts[{i}].part"),
            )
        )
    shown_count = sum(p.part is not None for p in parts)
    if shown_count and not seed_published:
        raise RecordFormatError(
            "parts: a part is shown while the server seed is not: the parts are published "
            "with the seed they make, or later"
        )
    if 0 < shown_count < len(parts):
        raise RecordFormatError(
            f"parts: {shown_count} of {len(parts)} parts are shown: they are published "
            "together, every one or none"
        )
    return tuple(parts)


def read_tournament(value: object) -> TournamentTable:
    d = read_object(value, "tournament", ("id", "round", "table"))
    return TournamentTable(
        id=read_text(d["id"], "tournament.id"),
        round=read_int(d["round"], "tournament.round", 1, None, "a round number from 1"),
        table=read_int(d["table"], "tournament.table", 1, None, "a table number from 1"),
    )
