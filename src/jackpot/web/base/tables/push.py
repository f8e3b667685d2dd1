"""Tables of Web Push: the browsers registered per account, and what was pushed.

``push_subscriptions`` holds one browser's ``PushSubscription`` (its endpoint and
the keys its payloads are encrypted to). ``push_sends`` is the push worker's own
ledger beside ``notices``: one row per notice key once the worker has taken it up,
so a push goes out at most once per notice (at most once per turn, since a turn
has one notice key), whatever the mail worker decides about the same notice (a
player may want pushes and no mail). Keyed by the notice's ``key`` rather than its
id: a pending reminder is deleted when its throw is made, and SQLite may hand that
id to the next notice.
"""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Index, Integer, String, Table, Text

from jackpot.web.base.tables.core import UTCDateTime, metadata

#: Longest endpoint accepted; the push services in use send well under 600 bytes.
MAX_ENDPOINT = 1024

push_subscriptions = Table(
    "push_subscriptions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    #: The push service's URL for this browser: unique, a browser has one.
    Column("endpoint", String(MAX_ENDPOINT), nullable=False, unique=True),
    #: The browser's P-256 public key and auth secret, base64url as sent (RFC 8291).
    Column("p256dh", String(100), nullable=False),
    Column("auth", String(40), nullable=False),
    #: The page's language when the browser was registered: its pushes' language
    #: while the account has chosen none (users.locale comes first, as for mails).
    Column("lang", String(5), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("last_ok_at", UTCDateTime(), nullable=True),
    Index("ix_push_subscriptions_user", "user_id"),
)

push_sends = Table(
    "push_sends",
    metadata,
    #: The notice's key ("turn:<match>:<round>:<seat>", "remind:...", "rematch:...").
    Column("key", String(80), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    #: pending (being sent or waiting to retry) | sent | dropped | failed
    Column("status", String(8), nullable=False),
    Column("attempts", Integer, nullable=False),
    #: Not before: now at first, then the backoff after a failure.
    Column("next_at", UTCDateTime(), nullable=False),
    Column("lease_owner", String(32), nullable=True),
    Column("lease_until", UTCDateTime(), nullable=True),
    #: Subscriptions that took this push already, comma-separated ids: a retry
    #: after one browser's push service failed does not repeat it to the others.
    Column("done", Text, nullable=False),
    Column("error", String(200), nullable=True),
    Column("created_at", UTCDateTime(), nullable=False),
    Index("ix_push_sends_retry", "status", "next_at"),
)
