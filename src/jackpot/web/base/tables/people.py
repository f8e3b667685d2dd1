"""Tables of finding people to play: seeks and challenges.

A seek is a person's "play now" of one kind (variant, seconds per throw, seats); it
waits until as many seeks of that kind make a group, and then names the match made
for them. A challenge is one person's offer to another of a two-seat match.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
)

from jackpot.web.base.tables.core import UTCDateTime, metadata

#: A person's "play now": waiting, then paired (with its match), cancelled or expired.
seeks = Table(
    "seeks",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("variant", String(10), nullable=False),
    Column("deadline_seconds", Integer, nullable=False),
    Column("seats", Integer, nullable=False),
    #: The seeker's rating in the variant when they asked, and whether it was
    #: provisional: what the pairing and the open list compare.
    Column("rating", Integer, nullable=False),
    Column("provisional", Boolean, nullable=False),
    #: The spare deadlines the match gives each seat: seeks pair only with equal spares.
    Column("spares", Integer, nullable=False, server_default="0"),
    Column("status", String(10), nullable=False),
    Column("match_id", String(24), nullable=True),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("expires_at", UTCDateTime(), nullable=False),
    #: The seeker's client seed ("server" in seed_by when they sent none) and their
    #: part of the server seed (play/parts.py), kept until their match is made.
    Column("client_seed", String(64), nullable=True),
    Column("seed_by", String(6), nullable=True),
    Column("part", String(64), nullable=True),
    #: The waiting seeks of one kind, oldest first: the pairing's one index range.
    Index(
        "ix_seeks_open", "status", "variant", "deadline_seconds", "seats", "spares", "created_at"
    ),
    Index("ix_seeks_user", "user_id", "status"),
)

#: One person's offer to another of a two-seat match.
challenges = Table(
    "challenges",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("from_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("to_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("variant", String(10), nullable=False),
    Column("deadline_seconds", Integer, nullable=False),
    #: The spare deadlines the match would give each seat.
    Column("spares", Integer, nullable=False, server_default="0"),
    #: open, accepted, declined, withdrawn or expired.
    Column("status", String(10), nullable=False),
    Column("match_id", String(24), nullable=True),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("expires_at", UTCDateTime(), nullable=False),
    #: The challenged player's mail about it (people/mail.py): pending, sent, skipped
    #: (their mail setting is off, their address unconfirmed, or the challenge was
    #: answered first) or failed (after the mail outboxes' number of attempts).
    Column("mail", String(8), nullable=False, server_default="pending"),
    #: Failed sends so far, and when the next try may go (a failure's backoff, or a
    #: sender's lease while it sends; None: at once).
    Column("mail_attempts", Integer, nullable=False, server_default="0"),
    Column("mail_after", UTCDateTime(), nullable=True),
    #: The challenger's client seed ("server" in from_seed_by when they sent none) and
    #: part of the server seed (play/parts.py), kept until the challenge is answered.
    Column("from_seed", String(64), nullable=True),
    Column("from_seed_by", String(6), nullable=True),
    Column("from_part", String(64), nullable=True),
    Index("ix_challenges_to", "to_id", "status"),
    Index("ix_challenges_mail", "mail", "created_at"),
    Index("ix_challenges_from", "from_id", "status", "created_at"),
    Index("ix_challenges_open", "status", "expires_at"),
)
