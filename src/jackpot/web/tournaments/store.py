"""A tournament as its rows say: entries, tables and byes by round, and the standings they give.

Everything the pairing, the API, the pages and the export need is read here in five
queries (the tournament, its entries, its rounds, its tables, the pairs kept apart),
whatever the number of rounds, and the standings follow from them by engine/swiss.py
alone. Every change to a tournament moves its row's ``version`` on (``changed``), so
a page read (``load(..., cached=True)``) answers from this process's copy of that
version after one query: a thousand players' standings are worked out once per
change, not once per reader.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import Text, select, type_coerce, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.engine import Entrant, RoundPlayed, Standing, TablePlayed, standings
from jackpot.web.base.errors import not_found
from jackpot.web.base.tables.tournaments import (
    tournament_apart,
    tournament_entries,
    tournament_rounds,
    tournament_tables,
    tournaments,
)
from jackpot.web.tournaments.live import ping_tournament

_ID = re.compile(r"t_[0-9a-f]{16}")


def check_tournament_id(tournament_id: str) -> str:
    """A tournament id as the site makes them, else 404 (nothing to look up)."""
    if not _ID.fullmatch(tournament_id):
        raise not_found("there is no tournament %(id)s", id=tournament_id[:40])
    return tournament_id


@dataclass(frozen=True)
class Entered:
    """One entry: ``number`` and ``rating`` are fixed at the start (None before)."""

    user_id: int
    name: str
    client_seed: str
    commitment: str
    part: str
    #: The server made their client seed (they sent none).
    seed_by_server: bool
    number: int | None
    rating: float | None
    withdrawn_round: int | None
    place: int | None


@dataclass(frozen=True)
class Table:
    round: int
    table: int
    match_id: str
    #: Entry numbers in joining order, and their places in the match (same order)
    #: once it ended.
    players: tuple[int, ...]
    places: tuple[int, ...] | None


@dataclass
class Tournament:
    """A tournament's rows, read at once."""

    row: Any
    #: In entry order: by number once started, by time of entry before.
    entries: list[Entered]
    #: Round number -> its tables, table 1 first.
    tables: dict[int, list[Table]] = field(default_factory=dict)
    #: Round number -> who sat it out (entry numbers), and when its time runs out.
    byes: dict[int, tuple[int, ...]] = field(default_factory=dict)
    ends: dict[int, Any] = field(default_factory=dict)
    #: (a, b, from_round): entries kept apart.
    apart: list[tuple[int, int, int]] = field(default_factory=list)
    #: What the readers of this version worked out once (views.py).
    memo: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return str(self.row["id"])

    @property
    def round(self) -> int:
        return int(self.row["round"])

    def entrants(self) -> list[Entrant]:
        return [Entrant(e.name, e.rating or 0.0) for e in self.entries]

    def complete(self, r: int) -> bool:
        """Every table of round ``r`` has ended (a round without tables has)."""
        return r in self.byes and all(t.places is not None for t in self.tables.get(r, []))

    def last_complete(self) -> int:
        """The last round whose matches have all ended (0: none yet)."""
        done = 0
        while done + 1 <= self.round and self.complete(done + 1):
            done += 1
        return done

    def played(self, upto: int) -> list[RoundPlayed]:
        """Rounds 1 to ``upto`` as the standings read them (all ended)."""
        return [
            RoundPlayed(
                tables=tuple(
                    TablePlayed(t.players, t.places or ()) for t in self.tables.get(r, [])
                ),
                byes=self.byes.get(r, ()),
            )
            for r in range(1, upto + 1)
        ]

    def standings(self) -> tuple[Standing, ...]:
        """The standings after the last round whose matches have all ended."""
        if "standings" not in self.memo:
            self.memo["standings"] = standings(self.entrants(), self.played(self.last_complete()))
        result: tuple[Standing, ...] = self.memo["standings"]
        return result

    def withdrawn_before(self, r: int) -> set[int]:
        """Entry numbers of those who withdrew before round ``r`` was paired."""
        return {
            e.number
            for e in self.entries
            if e.number is not None and e.withdrawn_round is not None and e.withdrawn_round < r
        }

    def apart_from(self, r: int) -> list[tuple[int, int]]:
        return [(a, b) for a, b, since in self.apart if since <= r]

    def entry_of(self, user_id: int | None) -> Entered | None:
        if "by_user" not in self.memo:
            self.memo["by_user"] = {e.user_id: e for e in self.entries}
        found: Entered | None = self.memo["by_user"].get(user_id)
        return found

    def table_of(self, number: int, r: int) -> Table | None:
        return next((t for t in self.tables.get(r, []) if number in t.players), None)


async def tournament_row(conn: AsyncConnection, tournament_id: str, lock: bool = False) -> Any:
    """The tournament's row, 404 when there is none. ``lock``: under the row's lock
    (PostgreSQL), so that two ends of its matches, or a start and an entry, take turns."""
    query = select(tournaments).where(tournaments.c.id == check_tournament_id(tournament_id))
    if lock:
        query = query.with_for_update()
    row = (await conn.execute(query)).mappings().first()
    if row is None:
        raise not_found("there is no tournament %(id)s", id=tournament_id)
    return row


#: Tournaments whose last version read this process keeps, the latest used last.
CACHE: OrderedDict[str, Tournament] = OrderedDict()
CACHED = 64


async def changed(conn: AsyncConnection, tournament_id: str) -> None:
    """In the changing transaction: the row's version moves on, and the pages are
    told to look again once it commits."""
    await conn.execute(
        update(tournaments)
        .where(tournaments.c.id == tournament_id)
        .values(version=tournaments.c.version + 1)
    )
    ping_tournament(conn, tournament_id)


async def load(
    conn: AsyncConnection, tournament_id: str, lock: bool = False, cached: bool = False
) -> Tournament:
    """Everything of a tournament. ``cached``: only for a read transaction, which sees
    committed versions alone; a version this process read before is not read again."""
    row = await tournament_row(conn, tournament_id, lock=lock)
    if cached:
        kept = CACHE.get(row["id"])
        if kept is not None and kept.row["version"] == row["version"]:
            CACHE.move_to_end(row["id"])
            return kept
        t = await _read(conn, row)
        CACHE[row["id"]] = t
        while len(CACHE) > CACHED:
            CACHE.popitem(last=False)
        return t
    return await _read(conn, row)


def _list(stored: Any) -> tuple[int, ...] | None:
    """A JSON list of whole numbers as stored (None: SQL or JSON null): its text on
    SQLite; PostgreSQL's driver hands it over decoded already."""
    value = orjson.loads(stored) if isinstance(stored, str | bytes) else stored
    return None if value is None else tuple(value)


async def _read(conn: AsyncConnection, row: Any) -> Tournament:
    e = tournament_entries
    started = row["status"] != "entering"
    entries = [
        Entered(
            r.user_id,
            r.name,
            r.client_seed,
            r.commitment,
            r.part,
            bool(r.seed_by_server),
            r.number,
            r.rating,
            r.withdrawn_round,
            r.place,
        )
        for r in await conn.execute(
            select(e)
            .where(e.c.tournament_id == row["id"])
            .order_by(*((e.c.number,) if started else (e.c.entered_at, e.c.user_id)))
        )
    ]
    if started:
        entries = [x for x in entries if x.number is not None]
    t = Tournament(row, entries)
    if not started:
        return t
    for r in await conn.execute(
        select(tournament_rounds).where(tournament_rounds.c.tournament_id == row["id"])
    ):
        t.byes[r.round] = tuple(r.byes)
        t.ends[r.round] = r.ends_at
    tt = tournament_tables
    # The lists as the database keeps their text, decoded by orjson: a thousand
    # players' rounds are thousands of them, and SQLite's JSON decoding is the slow part.
    for r in await conn.execute(
        select(
            tt.c.round,
            tt.c.table,
            tt.c.match_id,
            type_coerce(tt.c.players, Text).label("players"),
            type_coerce(tt.c.places, Text).label("places"),
        )
        .where(tt.c.tournament_id == row["id"])
        .order_by(tt.c.round, tt.c.table)
    ):
        seated = _list(r.players)
        assert seated is not None
        t.tables.setdefault(r.round, []).append(
            Table(r.round, r.table, r.match_id, seated, _list(r.places))
        )
    t.apart = [
        (r.a, r.b, r.from_round)
        for r in await conn.execute(
            select(tournament_apart).where(tournament_apart.c.tournament_id == row["id"])
        )
    ]
    return t
