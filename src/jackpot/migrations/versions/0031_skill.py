"""skill apart from the dice: decisions and the winning chance they gave away

Revision ID: 0031_skill
Revises: 0001
Create Date: 2026-12-10

A branch from 0001 of its own (the app upgrades to every head); it changes the tables
of 0002_ratings, so it depends on that revision. Rows written before it hold no
decisions (0) and no average (NULL) until ``jackpot ratings rebuild`` reads every
record again.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0031_skill"
down_revision = "0001"
branch_labels = None
depends_on = "0002_ratings"


def upgrade() -> None:
    with op.batch_alter_table("seat_stats") as batch:
        batch.add_column(
            sa.Column("decisions", sa.Integer(), nullable=False, server_default="0")
        )
        batch.add_column(
            sa.Column("skill_given_away", sa.Float(), nullable=False, server_default="0")
        )
    with op.batch_alter_table("player_ratings") as batch:
        batch.add_column(
            sa.Column("decisions", sa.Integer(), nullable=False, server_default="0")
        )
        batch.add_column(
            sa.Column("skill_given_away", sa.Float(), nullable=False, server_default="0")
        )
        batch.add_column(sa.Column("skill", sa.Float(), nullable=True))
    op.create_index(
        "ix_player_ratings_skill",
        "player_ratings",
        ["variant", "listed", "skill", "user_id"],
        unique=False,
    )


def downgrade() -> None:
    op.drop_index("ix_player_ratings_skill", table_name="player_ratings")
    with op.batch_alter_table("player_ratings") as batch:
        batch.drop_column("skill")
        batch.drop_column("skill_given_away")
        batch.drop_column("decisions")
    with op.batch_alter_table("seat_stats") as batch:
        batch.drop_column("skill_given_away")
        batch.drop_column("decisions")
