"""Tables of Swiss tournaments: the tournament, its entries, its rounds and its tables.

A tournament's matches are matches like any other (``matches``, ``seats``,
``record_events``, origin ``tournament``); the rows here say which round and table
each one is, who sits there by entry number, and the places once it ended, so the
standings are a plain function of these rows (engine/swiss.py), never a walk over
match states.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    UniqueConstraint,
)

from jackpot.web.base.tables.core import UTCDateTime, metadata

#: One tournament: its settings, where it stands, and its current round.
tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("creator_id", Integer, ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    Column("variant", String(10), nullable=False),
    Column("table_size", Integer, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("deadline_seconds", Integer, nullable=False),
    Column("spares", Integer, nullable=False),
    Column("round_seconds", Integer, nullable=False),
    Column("starts_at", UTCDateTime(), nullable=False),
    Column("max_players", Integer, nullable=False),
    Column("private", Boolean, nullable=False),
    #: "entering" until round 1 is paired, then "playing", then "finished".
    Column("status", String(10), nullable=False),
    #: The round being played (0 before the start; the last one once finished).
    Column("round", Integer, nullable=False),
    #: When the current round's time runs out (null before the start and at the end).
    Column("round_ends_at", UTCDateTime(), nullable=True),
    #: How many have entered (kept with each entry and withdrawal before the start).
    Column("entered", Integer, nullable=False),
    #: One more at every change to its entries, rounds or tables: what a process's
    #: copy of its standings is kept by (tournaments/store.py).
    Column("version", Integer, nullable=False, default=0),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("started_at", UTCDateTime(), nullable=True),
    Column("finished_at", UTCDateTime(), nullable=True),
    #: The list's order (/tournaments) and the start step's index range.
    Index("ix_tournaments_status", "status", "starts_at"),
    Index("ix_tournaments_round_end", "status", "round_ends_at"),
)

#: One person's entry; ``number`` is their entry number once the tournament started.
tournament_entries = Table(
    "tournament_entries",
    metadata,
    Column(
        "tournament_id",
        String(24),
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    #: Their name when they entered, as their seats show it.
    Column("name", String(40), nullable=False),
    Column("entered_at", UTCDateTime(), nullable=False),
    Column("client_seed", String(64), nullable=False),
    #: They sent none: the server made their client seed (their tables' records say so).
    Column("seed_by_server", Boolean, nullable=False, default=False),
    Column("commitment", String(64), nullable=False),
    #: Their part of every table's server seed (secret until the tournament ends).
    Column("part", String(64), nullable=False),
    #: Fixed at the start: the entry number (entry order) and the rating then.
    Column("number", Integer, nullable=True),
    Column("rating", Float, nullable=True),
    #: The round during which they withdrew (null: still in).
    Column("withdrawn_round", Integer, nullable=True),
    #: Their final place, fixed when the tournament ends.
    Column("place", Integer, nullable=True),
    UniqueConstraint("tournament_id", "number", name="uq_tournament_entries_number"),
    Index("ix_tournament_entries_user", "user_id", "entered_at"),
)

#: A round: when it was paired and when its time runs out, and who sat it out.
tournament_rounds = Table(
    "tournament_rounds",
    metadata,
    Column(
        "tournament_id",
        String(24),
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("round", Integer, primary_key=True),
    Column("paired_at", UTCDateTime(), nullable=False),
    Column("ends_at", UTCDateTime(), nullable=False),
    #: Entry numbers: the one left over first, then those no table could take.
    Column("byes", JSON, nullable=False),
    #: When the round's time ran out and its matches were told (null: not yet).
    Column("timed_out_at", UTCDateTime(), nullable=True),
)

#: A table of a round: its match, its players by entry number in joining order, and
#: their places in the match (same order) once it ended.
tournament_tables = Table(
    "tournament_tables",
    metadata,
    Column(
        "tournament_id",
        String(24),
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("round", Integer, primary_key=True),
    Column("table", Integer, primary_key=True),
    Column(
        "match_id",
        String(24),
        ForeignKey("matches.id", ondelete="CASCADE"),
        nullable=False,
        unique=True,
    ),
    Column("players", JSON, nullable=False),
    Column("places", JSON, nullable=True),
)

#: Two entries kept apart (one blocked the other) from a round on.
tournament_apart = Table(
    "tournament_apart",
    metadata,
    Column(
        "tournament_id",
        String(24),
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("a", Integer, primary_key=True),
    Column("b", Integer, primary_key=True),
    Column("from_round", Integer, nullable=False),
)

#: "Your table is ready": one row per player and table, written when the round is
#: paired. It is the mail's outbox (``mail``: pending, sent, skipped, failed, claimed
#: by a lease in ``mail_after``) and the list of news the push worker sends.
tournament_news = Table(
    "tournament_news",
    metadata,
    Column("match_id", String(24), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("tournament_id", String(24), nullable=False),
    Column("round", Integer, nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("mail", String(8), nullable=False),
    Column("mail_after", UTCDateTime(), nullable=True),
    Column("mail_attempts", Integer, nullable=False),
    Index("ix_tournament_news_mail", "mail", "created_at"),
    Index("ix_tournament_news_created", "created_at"),
)
