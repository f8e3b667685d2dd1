"""What other features are told of a match: its end, a move's news, a rematch offer.

play/ owns every change to a match and tells whoever the app registered at start-up
(web/wiring.py): the ratings and the end notices hear of a match's end, the mail and
push workers' notices are planned from a move's facts, and a rematch offer is news
for the other players. The types live here, below play/ and the features that
listen, so that a listener never imports play/ and play/ imports none of them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import Table
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.engine import Event, Match

Row = dict[str, Any]

#: How a match ended: played out, the last other seat resigned or ran out of time,
#: called off by its creator before it started, or left waiting past its expiry.
EndedBy = Literal["played", "resigned", "timeout", "cancelled", "expired"]


@dataclass(frozen=True)
class MatchEnd:
    """A match that has just ended, told to every end listener inside the
    transaction that ends it (so what they write commits or rolls back with it)."""

    match_id: str
    #: The match row and its seats as the ending transaction wrote them.
    row: Any
    seat_rows: Sequence[Any]
    how: EndedBy
    now: datetime
    #: The engine's state after the end; None for a match that never started.
    match: Match | None = None
    #: The engine's events of the action that ended it.
    events: Sequence[Event] = ()
    #: The seat of the person whose own action ended it (a throw, a cover, a
    #: resignation): they saw the end happen.
    on_page: int | None = None


EndListener = Callable[[AsyncConnection, MatchEnd], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class KnownNews:
    """What the process that made a match's last move knows of its waiting notices
    (kept with the match between moves): a move that knows writes fewer of them."""

    #: Seats with no turn news waiting.
    quiet: frozenset[int] = frozenset()
    #: When the match's pending reminder goes out at the earliest (None: not known).
    reminder_at: datetime | None = None


#: A match loaded from the database: nothing known.
UNKNOWN = KnownNews()


@dataclass(frozen=True)
class MoveFacts:
    """What one action did to a match, for planning the news it leaves: pure data,
    so the news is worked out with the move, before its transaction, and written in
    the move's own statements."""

    #: The match row before the action, and the seats.
    row: Row
    seat_rows: Sequence[Row]
    #: The engine's state after the action, and its events.
    match: Match
    events: Sequence[Event]
    now: datetime
    #: The deadline of the throw now due (None: no person's throw is due).
    due_at: datetime | None
    #: The seat of the person who moved themselves in this action, if one did.
    mover: int | None
    known: KnownNews


@dataclass(frozen=True)
class News:
    """The notices an action writes: ``notices`` rows (a reminder, if any, last),
    whether that reminder replaces the match's pending one, whose pending turn news
    to drop, and what is known of the match's notices afterwards."""

    notices: list[Row] = field(default_factory=list)
    replaces_reminder: bool = False
    drop_turn: int | None = None
    known: KnownNews = UNKNOWN


NewsPlanner = Callable[[MoveFacts], News]


@dataclass(frozen=True)
class NoticeWrites:
    """How the notices a move plans are written: the notifying feature's own table
    and statements, which play/ runs in the move's transaction (in its one statement
    on PostgreSQL) without naming them. Texts use ``?`` placeholders."""

    table: Table
    #: The columns a planned row fills, in the order of the INSERT.
    columns: tuple[str, ...]
    #: After an INSERT's VALUES: a second row of one key is no news.
    insert_tail: str
    #: A seat's turn news still waiting, deleted once its person moved: (match, seat).
    drop_turn: str
    #: The match's pending reminder, deleted: (match,).
    drop_reminder: str
    #: SQLite: the pending reminder rewritten as the next one: ``moved_columns``'
    #: values, then (match,). OR IGNORE: nothing changes if the new key exists.
    move_reminder: str
    moved_columns: tuple[str, ...]


def no_news(facts: MoveFacts) -> News:
    """The planner until one is registered: nobody is told anything."""
    return News(known=facts.known)


@dataclass(frozen=True)
class RematchNews:
    """A seat offered, accepted or declined a rematch of a finished match."""

    match_id: str
    seat_rows: Sequence[Any]
    #: The seat that acted.
    seat: int
    #: The offer's version after the action.
    version: int
    #: A new offer (not an acceptance or a refusal of one already made).
    offered: bool
    now: datetime


RematchListener = Callable[[AsyncConnection, RematchNews], Awaitable[None]]
