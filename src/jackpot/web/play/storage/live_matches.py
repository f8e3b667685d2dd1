"""The matches this process moved last, kept as committed, so a move need not load them.

Used by match_sql.Driver: a hit costs one indexed read of the row's version instead of
loading the match and its seats and decoding the engine's state.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Delete, Update, event
from sqlalchemy.engine import Engine
from sqlalchemy.sql import operators
from sqlalchemy.sql.elements import BinaryExpression, BindParameter, BooleanClauseList

from jackpot.engine import Match
from jackpot.web.base.live.bus import EventBus
from jackpot.web.base.tables import core as t
from jackpot.web.matches.news import KnownNews

Row = dict[str, Any]


#: A match as committed: its version, row, seats, engine state, and its notices.
LiveEntry = tuple[int, Row, list[Row], Match, KnownNews]


class LiveMatches:
    """The matches this process moved last, as committed: their row, seats and
    engine state by id, so the next move reads one column (the version) instead
    of loading and decoding the match.

    Write-through and checked: an entry is stored only after its transaction
    committed, and used only while the row's version in the database is still the
    entry's (each move bumps it), so a move made by another process, or by the
    same process in a transaction that rolled back, is never mistaken for the
    current state. Any Core UPDATE or DELETE of matches or seats (a guest signing
    up renames their seats) clears it all. Finished matches leave it.

    ``trusted``: with the Redis bus, every process sees every match's events (one
    channel for all), so an entry a later event outdates is dropped on its
    arrival (``seen``), and all of them whenever the subscription broke (``clear``):
    an entry still here is current, and a move on PostgreSQL skips the version read,
    a round trip. Should one slip through (a move racing the event from another
    process), the save's UPDATE, conditional on the version, matches no row, the
    transaction rolls back and the move runs again on a fresh load.
    """

    MAX_ENTRIES = 10_000

    def __init__(self) -> None:
        self.entries: dict[str, LiveEntry] = {}
        self.trusted = False

    def put(self, row: Row, seats: list[Row], match: Match, known: KnownNews) -> None:
        if match.finished:
            self.entries.pop(row["id"], None)
            return
        if len(self.entries) >= self.MAX_ENTRIES:
            self.entries.clear()
        self.entries[row["id"]] = (row["version"], row, seats, match, known)

    def seen(self, match_id: str, events: Sequence[dict[str, Any]]) -> None:
        """A bus listener: events of a later version than the entry's outdate it."""
        entry = self.entries.get(match_id)
        if entry is not None and any(int(ev.get("seq", 0)) > entry[0] for ev in events):
            del self.entries[match_id]

    def clear(self) -> None:
        self.entries.clear()


_LIVE: weakref.WeakKeyDictionary[Engine, LiveMatches] = weakref.WeakKeyDictionary()


def live_matches_of(engine: Engine) -> LiveMatches:
    """The live matches of one engine (a process may have several, as the tests do)."""
    live = _LIVE.get(engine)
    if live is None:
        live = _LIVE[engine] = LiveMatches()

        @event.listens_for(engine, "before_execute")
        def _forget(
            conn: Any, clauseelement: Any, multiparams: Any, params: Any, execution_options: Any
        ) -> None:
            clause = clauseelement
            if isinstance(clause, Update | Delete) and (
                clause.table is t.matches or clause.table is t.seats
            ):
                match_id = None if multiparams or params else only_match(clause)
                if match_id is None:
                    live.entries.clear()
                else:
                    live.entries.pop(match_id, None)

    return live


def only_match(clause: Update | Delete) -> str | None:
    """The one match an UPDATE or DELETE of matches or seats is limited to, when one
    of its ANDed conditions says so with a value (``matches.id = 'm_..'``,
    ``seats.match_id = 'm_..'``); else None. A match starting, a seat taken, a
    match's ratings: each forgets that match only, where forgetting them all made
    every live match load again after each new one (a fifth of the moves under
    the load benchmark)."""
    where = clause.whereclause
    if where is None:
        return None
    terms = (
        where.clauses
        if isinstance(where, BooleanClauseList) and where.operator is operators.and_
        else [where]
    )
    for term in terms:
        if (
            isinstance(term, BinaryExpression)
            and term.operator is operators.eq
            and (term.left is t.matches.c.id or term.left is t.seats.c.match_id)
            and isinstance(term.right, BindParameter)
            and isinstance(term.right.value, str)
        ):
            return term.right.value
    return None


def follow(live: LiveMatches, bus: EventBus, alone: bool = False) -> None:
    """Trust ``live``'s entries when ``bus`` hears every process's events, keeping
    them current from those events (LiveMatches says why), or when this is the only
    server process (``alone``: SQLite's default). There the only other writer is a
    `jackpot sweep` run beside it, whose timeouts a move meets as a stale entry:
    its save matches no row, and it runs again on a fresh load."""
    if bus.sees_every_process:
        bus.listeners.append(live.seen)
        bus.gap_listeners.append(live.clear)
    live.trusted = bus.sees_every_process or alone
