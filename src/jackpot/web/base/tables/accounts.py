"""Tables of the account's say over whom it plays: blocks, and who may challenge it.

They belong to the account (accounts/blocks.py writes them) and are read by every
feature that seats people: a blocked pair is never seated together by anything the
site does.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, ForeignKey, Index, Integer, Table

from jackpot.web.base.tables.core import UTCDateTime, metadata

#: One row per account that changed its challenge setting (no row: anyone may).
people_prefs = Table(
    "people_prefs",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    #: Whether other people may challenge this account.
    Column("challenges", Boolean, nullable=False),
)

#: ``blocker_id`` blocked ``blocked_id``: neither is ever paired or seated with the other.
blocks = Table(
    "blocks",
    metadata,
    Column("blocker_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("blocked_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("created_at", UTCDateTime(), nullable=False),
    Index("ix_blocks_blocked", "blocked_id", "blocker_id"),
)
