"""Tables for turn mails, reminders and rematch offers.

They share ``metadata`` with models.py (one schema for Alembic and the tests) but
live apart: they belong to the notification and rematch features, and the match
tables must not grow columns that only these features read.

``notices`` is a durable outbox. A row is written in the same transaction as the
move that made it needed (so a committed move can never lose its mail), and a
worker step of the sweeper sends it later. The ``key`` is unique: a second row for
the same turn or the same throw cannot exist, which is what "at most one mail per
player per match per turn" and "one reminder per throw" rest on.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
)

from jackpot.web.base.models import UTCDateTime, metadata

#: One row per account that has mail settings or has been mailed; absent means the
#: defaults. ``lease_*`` is the per-player claim a sweeper takes before it sends,
#: so two sweepers never mail the same person at once (and never both send a digest
#: within the hour); ``last_digest_at`` is what the hourly cap is measured from.
mail_prefs = Table(
    "mail_prefs",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    #: "long": turn mails for matches with deadlines of an hour or more (the default);
    #: "all": for every match; "off": no turn mails and no reminders.
    Column("turn_mail", String(5), nullable=False, default="long"),
    Column("last_digest_at", UTCDateTime(), nullable=True),
    Column("lease_owner", String(32), nullable=True),
    Column("lease_until", UTCDateTime(), nullable=True),
)

#: Every status a notice may have (the ``status`` column).
NOTICE_STATUSES = ("pending", "sent", "dropped", "failed")

notices = Table(
    "notices",
    metadata,
    Column(
        "id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    ),
    #: "turn:<match>:<round>:<seat>" or "remind:<match>:<throw n>".
    Column("key", String(80), nullable=False, unique=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("match_id", String(24), ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("kind", String(8), nullable=False),  # turn | reminder
    Column("round", Integer, nullable=True),
    #: The deadline of the throw the notice is about.
    Column("due_at", UTCDateTime(), nullable=True),
    #: Not before: a short grace for turn mails, deadline minus a fifth for reminders.
    Column("send_after", UTCDateTime(), nullable=False),
    #: pending | sent | dropped (no longer true, or the player opted out) | failed
    Column("status", String(8), nullable=False),
    Column("attempts", Integer, nullable=False, default=0),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("sent_at", UTCDateTime(), nullable=True),
    Column("error", String(200), nullable=True),
    Index("ix_notices_pending", "status", "send_after"),
    Index("ix_notices_match", "match_id", "kind", "status"),
    Index("ix_notices_user", "user_id", "status"),
)

#: A rematch offered at the end of a match between people, one per finished match.
rematch_offers = Table(
    "rematch_offers",
    metadata,
    Column("match_id", String(24), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("offered_by", Integer, nullable=False),  # seat
    #: Seats that accepted, comma-separated ("0,2"); the offering seat is the first.
    Column("accepted", String(20), nullable=False),
    #: Client seeds the accepting seats chose for the new match, JSON {seat: seed}.
    Column("seeds", Text, nullable=False, default="{}"),
    Column("status", String(10), nullable=False),  # open | started | declined
    Column("declined_by", Integer, nullable=True),
    Column("new_match_id", String(24), nullable=True),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("version", Integer, nullable=False, default=0),
)
