"""the account's colour theme

Revision ID: 0022_theme
Revises: 0001
Create Date: 2026-12-05

A branch from 0001 of its own (the app upgrades to every head). users.theme: "light"
or "dark"; NULL is the device's own setting (the default).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022_theme"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("theme", sa.String(length=6), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("theme")
