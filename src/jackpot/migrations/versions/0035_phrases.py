"""phrases said in a match, apart from its numbered events

Revision ID: 0035_phrases
Revises: 0001

A branch from 0001 of its own (the app upgrades to every head). The table starts
empty: nothing was said before it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0035_phrases"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_phrases",
        sa.Column("match_id", sa.String(length=24), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("phrase", sa.String(length=20), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_match_phrases_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", "seat", "n", name=op.f("pk_match_phrases")),
    )


def downgrade() -> None:
    op.drop_table("match_phrases")
