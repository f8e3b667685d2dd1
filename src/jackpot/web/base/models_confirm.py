"""Tables of email confirmation: which addresses their accounts have confirmed, and the mails.

Until an account's address is confirmed the site sends it only the confirmation
mail and password resets (notify/mailbox.py skips every other mail), so nobody can
aim the site's mail at an address they do not read. ``confirmed_emails`` says which
address an account confirmed (the address, not a flag: a confirmation holds for the
address it was made for). ``confirm_mails`` is the queue of confirmation mails,
like ``reset_mails``: the request writes a row, the mail worker makes the link's
token when it sends (only its hash is kept here) and the link is used once.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, Column, ForeignKey, Index, Integer, String, Table

from jackpot.web.base.models import UTCDateTime, metadata

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
