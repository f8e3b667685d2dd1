"""matches.shown_until: when each seat's page has played every move out

Revision ID: 0040_playback
Revises: 0039_reviews
Create Date: 2026-12-07

A throw due after another person's quick moves waits until the slowest page has
shown all of them (play/move_plan.py), where it waited for the last move's alone.
Existing matches start without a backlog: their next move sets it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0040_playback"
down_revision = "0039_reviews"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN, never a batch rebuild (0037_origin says why).
    op.add_column("matches", sa.Column("shown_until", sa.JSON(), nullable=True))


def downgrade() -> None:
    op.drop_column("matches", "shown_until")
