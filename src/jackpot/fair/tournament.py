"""``jackpot-tournament/1``: a Swiss tournament's export, read strictly and written canonically.

One JSON document holds all a verifier needs to recompute a tournament: its settings,
its entries in order (each with its client seed, its part's commitment and, once the
tournament ended, its part), the pairs kept apart, and round by round every table's
players, points and match record, the byes and the withdrawals. Like a match's record
it is read without coercion, and a refusal names the field (``rounds[1].tables[0].points:
...``); whether it is *true* is ``verify_tournament``'s business.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from math import isfinite
from typing import Any, Literal, cast

from jackpot.engine import MAX_TABLE, MIN_TABLE, Result, Variant
from jackpot.fair.fields import (
    RecordFormatError,
    read_hex64,
    read_int,
    read_list,
    read_object,
    read_string,
    read_text,
    refusal,
)
from jackpot.fair.record import Record, parse_record
from jackpot.fair.seeds import check_client_seed

FORMAT = "jackpot-tournament/1"
#: DESIGN's limits: 1 to 15 rounds; a round lasts at most what its settings say.
MAX_ROUNDS = 15
Status = Literal["playing", "ended"]
STATUSES: tuple[Status, ...] = ("playing", "ended")
_POINTS = re.compile(r"(0|[1-9][0-9]*)(/[1-9][0-9]*)?")
_SETTINGS_KEYS = (
    "variant",
    "table_size",
    "deadline_seconds",
    "spares",
    "rounds",
    "round_seconds",
    "starts",
    "public",
    "max_players",
)


@dataclass(frozen=True, slots=True)
class Settings:
    variant: Variant
    table_size: int
    deadline_seconds: int
    #: Spare deadlines per seat and match (0-5).
    spares: int
    rounds: int
    #: The longest a round may last; a match still played then ends with its round.
    round_seconds: int
    starts: str
    public: bool
    max_players: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": str(self.variant),
            "table_size": self.table_size,
            "deadline_seconds": self.deadline_seconds,
            "spares": self.spares,
            "rounds": self.rounds,
            "round_seconds": self.round_seconds,
            "starts": self.starts,
            "public": self.public,
            "max_players": self.max_players,
        }


@dataclass(frozen=True, slots=True)
class Entry:
    name: str
    #: The rating when the tournament started: the standings' third key.
    rating: float
    client_seed: str
    #: SHA-256 of the entry's part, shown to the person before they chose their seed.
    commitment: str
    #: The part itself, published when the tournament ends (None before).
    part: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "rating": self.rating,
            "client_seed": self.client_seed,
            "commitment": self.commitment,
            "part": self.part,
        }


@dataclass(frozen=True, slots=True)
class Apart:
    """Two entrants who must not sit together from round ``from_round`` on (a block,
    whichever of them made it: the export does not say who)."""

    players: tuple[int, int]
    from_round: int

    def to_dict(self) -> dict[str, Any]:
        return {"players": list(self.players), "from_round": self.from_round}


@dataclass(frozen=True, slots=True)
class TableEntry:
    table: int
    #: Entry numbers in the table's joining order (standings order).
    players: tuple[int, ...]
    #: Each player's points from the match, as ``players``; None while it is played.
    points: tuple[Fraction, ...] | None
    record: Record

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "players": list(self.players),
            "points": None if self.points is None else [str(p) for p in self.points],
            "record": self.record.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class RoundEntry:
    round: int
    tables: tuple[TableEntry, ...]
    #: Everybody who sat the round out (½ point each): the one left over first.
    byes: tuple[int, ...] = ()
    #: Who withdrew during this round (their match resigned; not paired again).
    withdrawn: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "tables": [t.to_dict() for t in self.tables],
            "byes": list(self.byes),
            "withdrawn": list(self.withdrawn),
        }


@dataclass(frozen=True, slots=True)
class StandingEntry:
    player: int
    points: Fraction
    buchholz: Fraction

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "points": str(self.points), "buchholz": str(self.buchholz)}


@dataclass(frozen=True, slots=True)
class TournamentExport:
    id: str
    name: str
    settings: Settings
    status: Status
    entries: tuple[Entry, ...]
    apart: tuple[Apart, ...]
    rounds: tuple[RoundEntry, ...]
    #: Everybody, in order, after the last round whose matches have all ended.
    standings: tuple[StandingEntry, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "id": self.id,
            "name": self.name,
            "settings": self.settings.to_dict(),
            "status": self.status,
            "entries": [e.to_dict() for e in self.entries],
            "apart": [a.to_dict() for a in self.apart],
            "rounds": [r.to_dict() for r in self.rounds],
            "standings": [s.to_dict() for s in self.standings],
        }

    def to_json(self) -> str:
        """Plain JSON laid out for people: whatever fits a line (an event, a seat, a
        standing) on one, the rest spread over lines, so that two exports diff well."""
        return _pretty(self.to_dict(), "") + "\n"


def _pretty(value: object, indent: str) -> str:
    flat = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if len(indent) + len(flat) <= 100 or not isinstance(value, dict | list) or not value:
        return flat
    inner = indent + "  "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {_pretty(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    lines = [inner + _pretty(v, inner) for v in value]
    return "[\n" + ",\n".join(lines) + f"\n{indent}]"


def joining_places(record: Record) -> tuple[int, ...]:
    """A finished table's places in its joining order (the record lists them in the
    order of play): what the players' points come from."""
    result, joined = record.result, record.joined
    if not isinstance(result, Result) or joined is None:
        raise ValueError("a finished match's record, with its order of play, has places")
    places = [0] * len(joined)
    for seat, joining in enumerate(joined):
        places[joining] = result.places[seat]
    return tuple(places)


# ---------------------------------------------------------------- reading


def parse_tournament(source: str | bytes | Mapping[str, Any]) -> TournamentExport:
    """Read an export from JSON text or a decoded object, or say which field is wrong."""
    if isinstance(source, str | bytes):
        try:
            obj = json.loads(source)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RecordFormatError(f"not JSON: {exc}") from None
    else:
        obj = source
    if isinstance(obj, Mapping) and obj.get("format") != FORMAT:
        raise refusal("format", repr(FORMAT), obj.get("format"))
    keys = ("format", "id", "name", "settings", "status", "entries", "apart", "rounds",
            "standings")  # fmt: skip
    d = read_object(obj, "tournament", keys)
    settings = _settings(d["settings"])
    raw_entries = read_list(d["entries"], "entries", "a list of entries")
    entries = tuple(_entry(e, f"entries[{i}]") for i, e in enumerate(raw_entries))
    count = len(entries)
    status = d["status"]
    if status not in STATUSES:
        raise refusal("status", '"playing" or "ended"', status)
    raw_apart = read_list(d["apart"], "apart", "a list of pairs kept apart")
    raw_rounds = read_list(d["rounds"], "rounds", "a list of rounds")
    if len(raw_rounds) > settings.rounds:
        raise RecordFormatError(
            f"rounds: {len(raw_rounds)} rounds, but the settings allow {settings.rounds}"
        )
    raw_standings = read_list(d["standings"], "standings", "a list of standings")
    return TournamentExport(
        id=read_text(d["id"], "id"),
        name=read_text(d["name"], "name"),
        settings=settings,
        status=cast(Status, status),
        entries=entries,
        apart=tuple(_apart(a, f"apart[{i}]", count) for i, a in enumerate(raw_apart)),
        rounds=tuple(
            _round(r, f"rounds[{i}]", i + 1, count) for i, r in enumerate(raw_rounds)
        ),
        standings=tuple(
            _standing(s, f"standings[{i}]", count) for i, s in enumerate(raw_standings)
        ),
    )


def _settings(value: object) -> Settings:
    d = read_object(value, "settings", _SETTINGS_KEYS)
    if d["variant"] not in ("jackpot", "classic") or not isinstance(d["variant"], str):
        raise refusal("settings.variant", '"jackpot" or "classic"', d["variant"])
    if not isinstance(d["public"], bool):
        raise refusal("settings.public", "true or false", d["public"])

    def count(key: str, lo: int, hi: int | None, what: str) -> int:
        return read_int(d[key], f"settings.{key}", lo, hi, what)

    return Settings(
        variant=Variant(d["variant"]),
        table_size=count("table_size", MIN_TABLE, MAX_TABLE, f"{MIN_TABLE} to {MAX_TABLE}"),
        deadline_seconds=count("deadline_seconds", 1, 7 * 24 * 3600, "seconds, 1 to 604800"),
        spares=count("spares", 0, 5, "0 to 5"),
        rounds=count("rounds", 1, MAX_ROUNDS, f"1 to {MAX_ROUNDS}"),
        round_seconds=count("round_seconds", 1, None, "a whole number of seconds >= 1"),
        starts=read_time(d["starts"], "settings.starts"),
        public=d["public"],
        max_players=count("max_players", 2, None, "a whole number >= 2"),
    )


def read_time(value: object, where: str) -> str:
    expected = 'an ISO 8601 time with its zone, like "2026-11-30T10:00:00Z"'
    if not isinstance(value, str) or "T" not in value:
        raise refusal(where, expected, value)
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        raise refusal(where, expected, value) from None
    if when.tzinfo is None:
        raise refusal(where, expected, value)
    return value


def _entry(value: object, where: str) -> Entry:
    d = read_object(value, where, ("name", "rating", "client_seed", "commitment", "part"))
    rating = d["rating"]
    if isinstance(rating, bool) or not isinstance(rating, int | float) or not isfinite(rating):
        # NaN would compare false both ways and leave the standings' order undefined.
        raise refusal(f"{where}.rating", "a finite number", rating)
    client_seed = read_string(d["client_seed"], f"{where}.client_seed")
    try:
        check_client_seed(client_seed)
    except ValueError as exc:
        raise RecordFormatError(f"{where}.client_seed: {exc}") from None
    return Entry(
        name=read_text(d["name"], f"{where}.name"),
        rating=rating,
        client_seed=client_seed,
        commitment=read_hex64(d["commitment"], f"{where}.commitment"),
        part=None if d["part"] is None else read_hex64(d["part"], f"{where}.part"),
    )


def _player(value: object, where: str, count: int) -> int:
    return read_int(value, where, 0, count - 1, f"an entry number 0-{count - 1}")


def _players(value: object, where: str, count: int, expected: str) -> tuple[int, ...]:
    items = read_list(value, where, expected)
    players = tuple(_player(p, f"{where}[{i}]", count) for i, p in enumerate(items))
    if len(set(players)) != len(players):
        raise RecordFormatError(f"{where}: an entry is listed twice in {list(players)}")
    return players


def _apart(value: object, where: str, count: int) -> Apart:
    d = read_object(value, where, ("players", "from_round"))
    players = _players(d["players"], f"{where}.players", count, "two entry numbers")
    if len(players) != 2:
        raise refusal(f"{where}.players", "two different entry numbers", d["players"])
    return Apart(
        players=(players[0], players[1]),
        from_round=read_int(d["from_round"], f"{where}.from_round", 1, None, "a round from 1"),
    )


def read_points(value: object, where: str) -> Fraction:
    """Exact points as text, ``"2/3"`` or ``"1"``, in lowest terms."""
    expected = 'exact points as text, like "2/3" or "1"'
    if not isinstance(value, str) or not _POINTS.fullmatch(value):
        raise refusal(where, expected, value)
    points = Fraction(value)
    if str(points) != value:
        raise RecordFormatError(f"{where}: expected {expected} in lowest terms, got {value!r}")
    return points


def _round(value: object, where: str, number: int, count: int) -> RoundEntry:
    d = read_object(value, where, ("round", "tables", "byes", "withdrawn"))
    if d["round"] != number or isinstance(d["round"], bool):
        raise refusal(f"{where}.round", f"{number} (rounds are listed in order)", d["round"])
    tables = []
    for j, raw in enumerate(read_list(d["tables"], f"{where}.tables", "a list of tables")):
        at = f"{where}.tables[{j}]"
        t = read_object(raw, at, ("table", "players", "points", "record"))
        if t["table"] != j + 1 or isinstance(t["table"], bool):
            raise refusal(f"{at}.table", f"{j + 1} (tables are listed in order)", t["table"])
        players = _players(t["players"], f"{at}.players", count, "a list of entry numbers")
        if not MIN_TABLE <= len(players) <= MAX_TABLE:
            raise RecordFormatError(
                f"{at}.players: a table seats {MIN_TABLE} to {MAX_TABLE}, got {len(players)}"
            )
        points = None
        if t["points"] is not None:
            raw_points = read_list(t["points"], f"{at}.points", "null or a list of points")
            if len(raw_points) != len(players):
                raise RecordFormatError(
                    f"{at}.points: expected one per player ({len(players)}), "
                    f"got {len(raw_points)}"
                )
            points = tuple(read_points(p, f"{at}.points[{k}]") for k, p in enumerate(raw_points))
        try:
            record = parse_record(t["record"])
        except RecordFormatError as exc:
            raise RecordFormatError(f"{at}.record: {exc}") from None
        tables.append(TableEntry(table=j + 1, players=players, points=points, record=record))
    return RoundEntry(
        round=number,
        tables=tuple(tables),
        byes=_players(d["byes"], f"{where}.byes", count, "a list of entry numbers"),
        withdrawn=_players(d["withdrawn"], f"{where}.withdrawn", count, "a list of entry numbers"),
    )


def _standing(value: object, where: str, count: int) -> StandingEntry:
    d = read_object(value, where, ("player", "points", "buchholz"))
    return StandingEntry(
        player=_player(d["player"], f"{where}.player", count),
        points=read_points(d["points"], f"{where}.points"),
        buchholz=read_points(d["buchholz"], f"{where}.buchholz"),
    )

