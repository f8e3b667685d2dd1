"""server seeds made before their match: pending seeds, and a rematch offer's seed

Revision ID: 0032_commitments
Revises: 0001

A branch from 0001 of its own (the app upgrades to every head). Both tables start
empty: matches made before them drew their seed at creation, as programs' still do.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0032_commitments"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pending_seeds",
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("server_seed", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("commitment", name=op.f("pk_pending_seeds")),
    )
    with op.batch_alter_table("pending_seeds", schema=None) as batch_op:
        batch_op.create_index("ix_pending_seeds_expires", ["expires_at"], unique=False)
    op.create_table(
        "rematch_seeds",
        sa.Column("match_id", sa.String(length=24), nullable=False),
        sa.Column("server_seed", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_rematch_seeds_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_rematch_seeds")),
    )


def downgrade() -> None:
    op.drop_table("rematch_seeds")
    with op.batch_alter_table("pending_seeds", schema=None) as batch_op:
        batch_op.drop_index("ix_pending_seeds_expires")
    op.drop_table("pending_seeds")
