"""Tables of play/ beside the match's own: seeds made before their match, rematches, phrases.

A match's server seed must exist, and its commitment be shown, before anybody
chooses a client seed for it (docs/fair-play.md, "The order of the seeds").
``pending_seeds`` holds the seeds handed out by ``POST /api/commitments``: each is
used up by the one match created with its commitment, and removed unused once
``expires_at`` has passed. ``rematch_seeds`` holds the seed a rematch offer carries
from the moment it is made, so the people accepting it see its commitment before
they send their client seeds. ``rematch_offers`` is where a rematch stands (who
accepted, with which client seed); ``match_phrases`` what seated people said.

What was said is apart from ``match_events`` on purpose: a match's events are
numbered by its ``version``, the optimistic lock every move's save is conditional
on, so a phrase that took a number there would make a move racing it fail with 409.
Phrases are numbered on their own (``n``, per seat of a match), never touch the
match row, and a move cannot meet them.
"""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Index, Integer, String, Table, Text

from jackpot.web.base.tables.core import UTCDateTime, metadata

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

#: One phrase said: the seat that said it and its number among that seat's (1, 2,
#: ...; two said at once from one seat meet on the key, and the second is too soon),
#: its key (play/phrases.py lists them; the reader's page words it) and when.
match_phrases = Table(
    "match_phrases",
    metadata,
    Column("match_id", String(24), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("phrase", String(20), nullable=False),
    Column("at", UTCDateTime(), nullable=False),
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
    #: Each accepting seat's part of the new match's server seed, JSON {seat: part}
    #: (play/parts.py); null for an offer made before rematches had parts.
    Column("parts", Text, nullable=True),
    #: Seats whose client seed the server made (they sent none), comma-separated.
    Column("server_made", String(20), nullable=True),
    Column("status", String(10), nullable=False),  # open | started | declined
    Column("declined_by", Integer, nullable=True),
    Column("new_match_id", String(24), nullable=True),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("version", Integer, nullable=False, default=0),
)
