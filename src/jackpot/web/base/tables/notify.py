"""Tables of notify/: turn mails and reminders, mail settings, reset and confirmation mails.

They share ``metadata`` with core.py (one schema for Alembic and the tests) but live
apart: the match tables must not grow columns that only notify/ reads.

``notices`` is a durable outbox. A row is written in the same transaction as the
move that made it needed (so a committed move can never lose its mail), and a
worker step of the sweeper sends it later. The ``key`` is unique: a second row for
the same turn or the same throw cannot exist, which is what "at most one mail per
player per match per turn" and "one reminder per throw" rest on.

Password resets and address confirmation are mails first: the request writes a
row, the mail worker makes the link's token when it sends (only its hash is kept)
and the link is used once. Until an account's address is confirmed the site sends
it only the confirmation mail and password resets (notify/mailbox.py skips every
other mail), so nobody can aim the site's mail at an address they do not read.
``confirmed_emails`` says which address an account confirmed (the address, not a
flag: a confirmation holds for the address it was made for).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
)

from jackpot.web.base.tables.core import UTCDateTime, metadata

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

password_resets = Table(
    "password_resets",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("expires_at", UTCDateTime(), nullable=False),
    Column("used", Boolean, nullable=False, default=False),
)

#: Reset mails waiting for the mail worker (reset_mail.py): the request only writes
#: this row; the worker makes the link's token and sends the mail.
reset_mails = Table(
    "reset_mails",
    metadata,
    Column(
        "id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    ),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    #: pending | sent | failed
    Column("status", String(8), nullable=False),
    Column("attempts", Integer, nullable=False, default=0),
    Column("send_after", UTCDateTime(), nullable=False),
    #: A worker's claim while it sends (a conditional UPDATE takes it).
    Column("lease_until", UTCDateTime(), nullable=True),
    Column("error", String(200), nullable=True),
    Index("ix_reset_mails_user", "user_id", "created_at"),
    Index("ix_reset_mails_pending", "status", "send_after"),
)

confirmed_emails = Table(
    "confirmed_emails",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("email", String(254), nullable=False),
    Column("confirmed_at", UTCDateTime(), nullable=False),
)

confirm_mails = Table(
    "confirm_mails",
    metadata,
    Column(
        "id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    ),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    #: The address the mail goes to and confirms.
    Column("email", String(254), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    #: pending | sent | failed | dropped (confirmed meanwhile)
    Column("status", String(8), nullable=False),
    Column("attempts", Integer, nullable=False, default=0),
    Column("send_after", UTCDateTime(), nullable=False),
    #: A worker's claim while it sends (a conditional UPDATE takes it).
    Column("lease_until", UTCDateTime(), nullable=True),
    Column("error", String(200), nullable=True),
    #: The link's token (its SHA-256), made when the mail is sent; until when it
    #: works, and whether it was used.
    Column("token_hash", String(64), nullable=True, unique=True),
    Column("expires_at", UTCDateTime(), nullable=True),
    Column("used", Boolean, nullable=False, default=False),
    Index("ix_confirm_mails_user", "user_id", "created_at"),
    Index("ix_confirm_mails_pending", "status", "send_after"),
)
