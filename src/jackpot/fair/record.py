"""``jackpot-record/1`` to ``/4``: one JSON document per match or daily entry.

Read strictly, written canonically. The record is the verifier's only input, so parsing
is deliberately unforgiving: a field of the wrong type, a bool where a number belongs,
an unknown key or a tile out of range is refused with a message naming the field,
instead of being coerced into something the match never contained. Whether the record
is *true* (dice, covers, result) is ``verify``'s business; this module only says
whether it is well-formed.

``/2`` is ``/1`` plus ``joined``: the seats are listed in the order of play drawn from
the seed, and ``joined[p]`` is the joining index of the seat that plays p-th, so a
verifier can redo the draw. ``/3`` is ``/2`` played by the rules of ``/3`` (Classic's
shared place after a shut box), and is also the format of a daily entry, which adds
``"daily"``. ``/4`` is ``/3`` plus, where they apply, a server seed made of ``"parts"``,
a ``"tournament"`` table, ``"spares"`` with their spare events, and a daily entry whose
dice go by position; a record is ``/4`` only if it uses one of them. Every format may
say where the match came from (``"origin"``) and mark a person's seat whose client seed
the server made (``"seed_by": "server"``). Each format is verified by its own rules, so
old records still read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from jackpot.engine.daily import DailyResult
from jackpot.engine.match import RULES, RULES_BEFORE_SHARED_PLACE
from jackpot.engine.result import Result
from jackpot.engine.tiles import Variant
from jackpot.fair.daily import DailyDeal, read_daily_deal, read_daily_result
from jackpot.fair.entries import (
    HIDDEN,
    MAX_SEATS,
    OUT_REASONS,
    LastRoundEntry,
    OutEntry,
    OutReason,
    RecordEvent,
    SeatEntry,
    SpareEntry,
    ThrowEntry,
    read_event,
    read_seats,
)
from jackpot.fair.fields import (
    RecordFormatError,
    read_hex64,
    read_list,
    read_object,
    read_string,
    read_text,
    refusal,
)
from jackpot.fair.origin import Origin, read_origin
from jackpot.fair.parts import SeedPart, TournamentTable, read_parts, read_tournament
from jackpot.fair.record_fields import (
    FORMAT_V1,
    FORMAT_V2,
    FORMAT_V3,
    FORMAT_V4,
    FORMATS,
    check_daily_shape,
    check_v4_uses,
    read_created,
    read_deadline,
    read_joined,
    read_result,
    read_spares,
    read_variant,
)

#: The seats' and events' values (entries.py) are part of what a record is made of.
__all__ = [
    "FORMATS",
    "FORMAT_V1",
    "FORMAT_V2",
    "FORMAT_V3",
    "FORMAT_V4",
    "HIDDEN",
    "MAX_SEATS",
    "OUT_REASONS",
    "LastRoundEntry",
    "OutEntry",
    "OutReason",
    "Record",
    "RecordEvent",
    "RecordFormatError",
    "RecordResult",
    "SeatEntry",
    "SpareEntry",
    "ThrowEntry",
    "parse_record",
    "record_format",
]

_TOP_KEYS = (
    "format",
    "id",
    "variant",
    "deadline_seconds",
    "created",
    "seats",
    "commitment",
    "server_seed",
    "client_seed",
    "events",
    "result",
)
#: /2 adds ``joined`` right after the seats it describes.
_TOP_KEYS_V2 = (*_TOP_KEYS[:6], "joined", *_TOP_KEYS[6:])
#: A daily entry (/3) adds ``daily`` right after the variant it is a deal of.
_TOP_KEYS_DAILY = (*_TOP_KEYS_V2[:3], "daily", *_TOP_KEYS_V2[3:])
#: Any format may say where the match came from.
_OPTIONAL_KEYS = ("origin",)
#: What /4 adds, each only where it applies.
_V4_KEYS = ("parts", "tournament", "spares")


def record_format(rules: int, *, drawn: bool, uses_v4: bool = False) -> str:
    """The format a match's record is written in: ``/4`` when it uses what /4 adds
    (``uses_v4``: parts, a tournament table, spares, a daily entry's dice by position),
    else ``/3`` for a match played by the rules of /3 (``Match.rules``), else ``/2`` once
    the order of play was drawn, else ``/1``."""
    if uses_v4:
        if rules < RULES or not drawn:
            raise ValueError("a jackpot-record/4 is a /3 (rules 3, order of play drawn) and more")
        return FORMAT_V4
    if rules >= RULES:
        return FORMAT_V3
    return FORMAT_V2 if drawn else FORMAT_V1


#: The record's ``result`` is exactly the engine's Result (same fields, same JSON).
RecordResult: TypeAlias = Result


@dataclass(frozen=True, slots=True)
class Record:
    id: str
    variant: Variant
    #: None for a daily entry, which has no deadline per throw.
    deadline_seconds: int | None
    created: str
    seats: tuple[SeatEntry, ...]
    commitment: str
    server_seed: str | None
    client_seed: str
    events: tuple[RecordEvent, ...]
    #: A daily entry's is a DailyResult.
    result: RecordResult | DailyResult | None = None
    #: ``/2`` and ``/3``: for each seat in the order of play, its joining index (None: ``/1``).
    joined: tuple[int, ...] | None = None
    #: The rules played, as ``Match.rules``: RULES makes a ``/3`` record.
    rules: int = RULES_BEFORE_SHARED_PLACE
    #: A daily entry's deal (a ``/3`` record, ``/4`` by position); None for a match.
    daily: DailyDeal | None = None
    #: Where the match came from (any format; shown, not checked).
    origin: Origin | None = None
    #: ``/4``: the parts the server seed is made of, in joining order (None: a drawn seed).
    parts: tuple[SeedPart, ...] | None = None
    #: ``/4``: the tournament table the match was played at (its seed's suffix).
    tournament: TournamentTable | None = None
    #: ``/4``: the spare deadlines each seat was given (0: none, and no ``"spares"``).
    spares: int = 0

    @property
    def uses_v4(self) -> bool:
        by_position = self.daily is not None and self.daily.by_position
        return bool(self.parts or self.tournament or self.spares or by_position)

    @property
    def format(self) -> str:
        if self.daily is not None and not self.uses_v4:
            return FORMAT_V3
        return record_format(self.rules, drawn=self.joined is not None, uses_v4=self.uses_v4)

    @property
    def throws(self) -> tuple[ThrowEntry, ...]:
        return tuple(e for e in self.events if isinstance(e, ThrowEntry))

    def to_dict(self) -> dict[str, Any]:
        """The JSON object, keys in the order docs/fair-play.md lists them."""
        head: dict[str, Any] = {"format": self.format, "id": self.id, "variant": str(self.variant)}
        if self.daily is not None:
            head["daily"] = self.daily.to_dict()
        if self.origin is not None:
            head["origin"] = self.origin.to_dict()
        if self.tournament is not None:
            head["tournament"] = self.tournament.to_dict()
        head["deadline_seconds"] = self.deadline_seconds
        if self.spares:
            head["spares"] = self.spares
        head |= {"created": self.created, "seats": [s.to_dict() for s in self.seats]}
        if self.joined is not None:
            head["joined"] = list(self.joined)
        head["commitment"] = self.commitment
        if self.parts is not None:
            head["parts"] = [p.to_dict() for p in self.parts]
        return head | {
            "server_seed": self.server_seed,
            "client_seed": self.client_seed,
            "events": [e.to_dict() for e in self.events],
            "result": None if self.result is None else self.result.to_dict(),
        }

    def to_json(self) -> str:
        """Canonical text: one line per top-level field, seat and event.

        Line-per-event keeps a long match readable and makes two records diff well,
        while staying plain JSON that any parser reads.
        """
        d = self.to_dict()
        lines = []
        for key in d:
            value = d[key]
            if key in ("seats", "events", "parts") and value:
                items = ",\n".join("    " + _dump(item) for item in value)
                text = f"[\n{items}\n  ]"
            else:
                text = _dump(value)
            lines.append(f"  {_dump(key)}: {text}")
        return "{\n" + ",\n".join(lines) + "\n}\n"


def _dump(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


# ---------------------------------------------------------------- parsing


def parse_record(source: str | bytes | Mapping[str, Any]) -> Record:
    """Read a record from JSON text or an already-decoded object, or say what is wrong."""
    if isinstance(source, str | bytes):
        try:
            obj = json.loads(source)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RecordFormatError(f"not JSON: {exc}") from None
    else:
        obj = source
    if isinstance(obj, Mapping) and "format" in obj and obj["format"] not in FORMATS:
        # Checked first: a different format explains every other difference at once.
        named = ", ".join(map(repr, FORMATS[:-1])) + f" or {FORMATS[-1]!r}"
        raise refusal("format", named, obj["format"])
    has_format = isinstance(obj, Mapping) and "format" in obj
    version = FORMATS.index(obj["format"]) + 1 if has_format else 1
    is_daily = version >= 3 and "daily" in obj
    keys = _TOP_KEYS_DAILY if is_daily else _TOP_KEYS_V2 if version >= 2 else _TOP_KEYS
    if version < 4 and isinstance(obj, Mapping):
        for key in _V4_KEYS:
            if key in obj:
                raise RecordFormatError(f"{key}: a field of {FORMAT_V4}, not of {obj['format']}")
    optional = (*_OPTIONAL_KEYS, *(_V4_KEYS if version == 4 else ()))
    d = read_object(obj, "record", keys, optional)
    server_seed = d["server_seed"]
    if server_seed is not None:
        server_seed = read_hex64(server_seed, "server_seed")
    seats = read_seats(d["seats"], hidden_allowed=server_seed is None)
    n_seats = len(seats)
    daily = read_daily_deal(d["daily"], by_position_allowed=version == 4) if is_daily else None
    if daily is not None:
        check_daily_shape(d, seats)
    parts = read_parts(d["parts"], seed_published=server_seed is not None) if "parts" in d else None
    tournament = read_tournament(d["tournament"]) if "tournament" in d else None
    spares = read_spares(d["spares"]) if "spares" in d else 0
    if version == 4:
        check_v4_uses(daily, parts, tournament, spares)
    result: RecordResult | DailyResult | None = None
    if d["result"] is not None:
        result = (
            read_result(d["result"], n_seats)
            if daily is None
            else read_daily_result(d["result"], daily.turns)
        )
    return Record(
        id=read_text(d["id"], "id"),
        variant=read_variant(d["variant"]),
        deadline_seconds=None if daily is not None else read_deadline(d["deadline_seconds"]),
        created=read_created(d["created"]),
        seats=seats,
        commitment=read_hex64(d["commitment"], "commitment"),
        server_seed=server_seed,
        client_seed=read_string(d["client_seed"], "client_seed"),
        events=tuple(
            read_event(
                e, f"events[{i}]", n_seats, spares=spares > 0, last_round=tournament is not None
            )
            for i, e in enumerate(read_list(d["events"], "events", "a list of events"))
        ),
        result=result,
        joined=read_joined(d["joined"], n_seats) if version >= 2 else None,
        rules=RULES if version >= 3 else RULES_BEFORE_SHARED_PLACE,
        daily=daily,
        origin=read_origin(d["origin"]) if "origin" in d else None,
        parts=parts,
        tournament=tournament,
        spares=spares,
    )
