"""Tables of players/: ratings, per-match player statistics and rating history.

They share ``metadata`` with core.py so Alembic and the tests see one schema,
but live apart because they are derived data: every row here can be rebuilt from
the stored records (``jackpot ratings rebuild``), while core.py holds the facts.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
)

from jackpot.web.base.tables.core import UTCDateTime, metadata

#: One player's rating and rated-match totals in one variant.
#:
#: ``listed`` is "opted in and no longer provisional", kept on the row so the
#: leaderboard is a single index range (variant, listed, rating) with no join
#: filter to scan past: on 100,000 players a page costs the rows it shows.
player_ratings = Table(
    "player_ratings",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("variant", String(10), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    #: The displayed number (ratings.display_rating of the ordinal).
    Column("rating", Integer, nullable=False),
    Column("provisional", Boolean, nullable=False),
    Column("listed", Boolean, nullable=False),
    Column("matches", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("turns", Integer, nullable=False),
    Column("jackpots", Integer, nullable=False),
    Column("score_sum", Integer, nullable=False),
    Column("last_match_at", UTCDateTime(), nullable=True),
    #: Decisions made in rated matches (two options or more) and the match equity they
    #: gave away in all (strategy/skill.py), and the average per decision: NULL before
    #: the first decision. The average is kept on the row, indexed like the rating, so
    #: the leaderboard sorted by it is one index range too.
    Column("decisions", Integer, nullable=False, server_default="0"),
    Column("skill_given_away", Float, nullable=False, server_default="0"),
    Column("skill", Float, nullable=True),
    Index("ix_player_ratings_board", "variant", "listed", "rating", "user_id"),
    Index("ix_player_ratings_skill", "variant", "listed", "skill", "user_id"),
)

#: The rating after each rated match, for the profile's chart.
rating_history = Table(
    "rating_history",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("variant", String(10), primary_key=True),
    Column("match_id", String(24), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("at", UTCDateTime(), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("rating", Integer, nullable=False),
    Index("ix_rating_history_user", "user_id", "variant", "at"),
)

#: What one human seat did in one finished match: the source of history lists and
#: profile figures without re-reading records (choices need the solver).
seat_stats = Table(
    "seat_stats",
    metadata,
    Column("match_id", String(24), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("variant", String(10), nullable=False),
    Column("finished_at", UTCDateTime(), nullable=False),
    Column("seats", Integer, nullable=False),
    #: Human seats in the match: 2 or more means it was rated.
    Column("humans", Integer, nullable=False),
    Column("place", Integer, nullable=False),
    #: "won" (the only winner), "drew" (a shared win), "lost" (anything else).
    Column("outcome", String(5), nullable=False),
    Column("turns", Integer, nullable=False),
    Column("jackpots", Integer, nullable=False),
    Column("score_sum", Integer, nullable=False),
    #: Covers where more than one option was on offer, and how many kept the best chance.
    Column("choices", Integer, nullable=False),
    Column("best_choices", Integer, nullable=False),
    #: Sum over those choices of the chance of shutting the box given away.
    Column("given_away", Float, nullable=False),
    #: Decisions with two options or more (covers and the choice of one die or two), and
    #: the match equity they gave away: the match's exact sum, rounded once to a float.
    Column("decisions", Integer, nullable=False, server_default="0"),
    Column("skill_given_away", Float, nullable=False, server_default="0"),
    Index("ix_seat_stats_user", "user_id", "finished_at"),
)

#: Matches whose end was rated but whose review (the seats' figures from the record,
#: players/reviews.py) is still to be written: queued by the ending transaction, taken
#: by the review step after the commit, deleted in the transaction that writes the
#: figures. ``claim`` and ``claimed_until`` are a pass's lease: a process that died
#: mid-pass leaves the row to be taken again once it runs out.
pending_reviews = Table(
    "pending_reviews",
    metadata,
    Column("match_id", String(24), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    #: When the match was rated: the figures are written in the order the ratings were.
    Column("queued_at", UTCDateTime(), nullable=False),
    Column("claim", String(32), nullable=True),
    Column("claimed_until", UTCDateTime(), nullable=True),
    Index("ix_pending_reviews_queued", "queued_at"),
)
