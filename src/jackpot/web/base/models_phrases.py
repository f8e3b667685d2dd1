"""The table of what seated people said in their match: a phrase from a fixed list.

Apart from ``match_events`` on purpose: a match's events are numbered by its
``version``, the optimistic lock every move's save is conditional on, so a phrase
that took a number there would make a move racing it fail with 409. Phrases are
numbered on their own (``n``, per seat of a match), never touch the match row, and
a move cannot meet them.
"""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Integer, String, Table

from jackpot.web.base.models import UTCDateTime, metadata

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
