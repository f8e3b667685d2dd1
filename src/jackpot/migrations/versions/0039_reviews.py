"""a match end's review is written after its commit, from a queue

Revision ID: 0039_reviews
Revises: 0038_spares

pending_reviews holds the matches whose ratings the ending transaction wrote and
whose seats' figures (turns, choices, skill: the review of the record) the review
step writes after the commit (players/reviews.py). Every match ended before this
was reviewed as it ended, so the queue starts empty.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0039_reviews"
down_revision = "0038_spares"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pending_reviews",
        sa.Column(
            "match_id",
            sa.String(24),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("queued_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claim", sa.String(32), nullable=True),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_pending_reviews_queued", "pending_reviews", ["queued_at"])


def downgrade() -> None:
    op.drop_index("ix_pending_reviews_queued", table_name="pending_reviews")
    op.drop_table("pending_reviews")
