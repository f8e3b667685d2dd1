"""a match waiting for players expires: when it leaves the lobby

Revision ID: 0014_lobby_expiry
Revises: 0001
Create Date: 2026-12-01

A branch from 0001 of its own (the app upgrades to every head). NULL: the match never
waited (bots and solo start at once) or was made before expiry existed (it waits on).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_lobby_expiry"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("expires_at")
