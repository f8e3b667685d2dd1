"""the order of play drawn from the seed: each seat's joining index

Revision ID: 0014_seat_order
Revises: 0001
Create Date: 2026-12-01

A branch from 0001 of its own (the app upgrades to every head). NULL: the match
started before the draw (its record stays jackpot-record/1) or has not started.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_seat_order"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("joined", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("joined")
