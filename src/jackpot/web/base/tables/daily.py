"""Tables of the daily deal: each day's deals, and the entries people play in them.

A deal is one UTC day's dice in one variant: its server seed is made (and its
commitment shown) before the day, and the seed is public once the day has closed.
An entry is a match like any other (``matches``, ``seats``, ``record_events``); its
row here says which deal it belongs to and keeps its result beside the deal's other
entries, so the day's board is one index range, never a walk over match states.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    UniqueConstraint,
)

from jackpot.web.base.tables.core import UTCDateTime, metadata

#: One deal per UTC day (``YYYY-MM-DD``) and variant.
daily_deals = Table(
    "daily_deals",
    metadata,
    Column("day", String(10), primary_key=True),
    Column("variant", String(10), primary_key=True),
    Column("server_seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    #: 00:00 UTC of the next day: the entries end then and the seed is published.
    Column("closes_at", UTCDateTime(), nullable=False),
    #: When the close was done (every entry ended, par and places fixed); null before.
    Column("closed_at", UTCDateTime(), nullable=True),
    #: The best bot's result on the deal (DailyResult.to_dict()), once closed.
    Column("par", JSON, nullable=True),
    #: "by-position" for a deal whose throws follow the turn and the open tiles; null
    #: for one whose throws follow their number (the deals before dice by position).
    Column("dice", String(12), nullable=True),
    Index("ix_daily_deals_open", "closed_at", "closes_at"),
)

#: One person's entry in a deal: at most one per account and deal.
daily_entries = Table(
    "daily_entries",
    metadata,
    Column("match_id", String(24), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("day", String(10), nullable=False),
    Column("variant", String(10), nullable=False),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    #: The player's name when they entered, as their seat keeps it.
    Column("name", String(40), nullable=False),
    Column("entered_at", UTCDateTime(), nullable=False),
    Column("finished", Boolean, nullable=False, default=False),
    #: How it ended: "played" (all ten turns), "resigned" (given up), "timeout" (the
    #: day closed on it); null while it is played.
    Column("ending", String(10), nullable=True),
    Column("finished_at", UTCDateTime(), nullable=True),
    #: The result (DailyResult) once finished; null while it is played.
    Column("jackpots", Integer, nullable=True),
    Column("total", Integer, nullable=True),
    Column("turn_scores", JSON, nullable=True),
    #: The final place on the day's board, fixed when the day closes.
    Column("place", Integer, nullable=True),
    UniqueConstraint("day", "variant", "user_id", name="uq_daily_entries_player"),
    Index("ix_daily_entries_user", "user_id", "day"),
)

#: The board in its own order: a deal's finished entries by jackpots (more first),
#: then total (lower first), the earlier entry first among equals, so a page of it
#: (and the count of the entries above one) is one index range.
Index(
    "ix_daily_entries_board",
    daily_entries.c.day,
    daily_entries.c.variant,
    daily_entries.c.finished,
    daily_entries.c.jackpots.desc(),
    daily_entries.c.total,
    daily_entries.c.entered_at,
    daily_entries.c.match_id,
)
