"""spare deadlines: what a match gives each seat, and what a seek or challenge asks for

Revision ID: 0038_spares
Revises: 0037_origin

matches.spares is the spare deadlines each seat of the match has (0 to 5; 0, every
match made before, is a missed deadline putting the seat out as always). How many a
seat has left is the engine's (its snapshot in matches.state, ``spares_left``), so no
column keeps it twice. seeks.spares and challenges.spares are what a "play now" or a
challenge asks for: seeks pair only with equal spares, so the seeks' open index gains
the column.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0038_spares"
down_revision = "0037_origin"
branch_labels = None
depends_on = None

TABLES = ("matches", "seeks", "challenges")


def upgrade() -> None:
    # Plain ADD COLUMN, never a batch rebuild (0037_origin says why).
    for table in TABLES:
        op.add_column(
            table, sa.Column("spares", sa.Integer(), nullable=False, server_default="0")
        )
    op.drop_index("ix_seeks_open", table_name="seeks")
    op.create_index(
        "ix_seeks_open",
        "seeks",
        ["status", "variant", "deadline_seconds", "seats", "spares", "created_at"],
    )


def downgrade() -> None:
    op.drop_index("ix_seeks_open", table_name="seeks")
    op.create_index(
        "ix_seeks_open", "seeks", ["status", "variant", "deadline_seconds", "seats", "created_at"]
    )
    for table in TABLES:
        op.drop_column(table, "spares")
