"""a match's server seed may stay hidden past its end, until a set time

Revision ID: 0015_seed_hidden
Revises: 0001
Create Date: 2026-12-05

A branch from 0001 of its own (the app upgrades to every head). NULL for every match
made so far: its seed is shown when it ends, as before.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_seed_hidden"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("seed_hidden_until", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("seed_hidden_until")
