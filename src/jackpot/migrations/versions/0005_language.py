"""the language an account chose: its pages after logging in, and its mails

Revision ID: 0005_language
Revises: 0001
Create Date: 2026-12-01

A branch from 0001 of its own (the app upgrades to every head), so it depends on
no other feature's migration. NULL: never chosen, the browser's language decides.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_language"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("locale", sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("locale")
