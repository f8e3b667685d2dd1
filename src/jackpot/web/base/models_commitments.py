"""Tables of server seeds made before their match: pending seeds, and a rematch offer's seed.

A match's server seed must exist, and its commitment be shown, before anybody
chooses a client seed for it (docs/fair-play.md, "The order of the seeds").
``pending_seeds`` holds the seeds handed out by ``POST /api/commitments``: each is
used up by the one match created with its commitment, and removed unused once
``expires_at`` has passed. ``rematch_seeds`` holds the seed a rematch offer carries
from the moment it is made, so the people accepting it see its commitment before
they send their client seeds.
"""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Index, String, Table

from jackpot.web.base.models import UTCDateTime, metadata

pending_seeds = Table(
    "pending_seeds",
    metadata,
    #: SHA-256 of the seed, 64 lowercase hex: what the creator was shown and names.
    Column("commitment", String(64), primary_key=True),
    Column("server_seed", String(64), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("expires_at", UTCDateTime(), nullable=False),
    Index("ix_pending_seeds_expires", "expires_at"),
)

rematch_seeds = Table(
    "rematch_seeds",
    metadata,
    #: The finished match whose rematch is on offer (one offer per match at a time).
    Column("match_id", String(24), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("server_seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
)
