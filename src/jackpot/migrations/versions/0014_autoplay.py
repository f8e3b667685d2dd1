"""autoplay of forced moves: the account's default, each seat's switch, who acted

Revision ID: 0014_autoplay
Revises: 0001
Create Date: 2026-12-01

A branch from 0001 of its own (the app upgrades to every head). users: NULL is the
default (on). seats: set at the start for each person (NULL: a bot, or a match
started before autoplay, which keeps playing without it); ``acted``: the person made
a move themselves (NULL before autoplay: the record's throws tell instead).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_autoplay"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("autoplay_throws", sa.Boolean(), nullable=True))
        batch.add_column(sa.Column("autoplay_covers", sa.Boolean(), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("autoplay_throws", sa.Boolean(), nullable=True))
        batch.add_column(sa.Column("autoplay_covers", sa.Boolean(), nullable=True))
        batch.add_column(sa.Column("acted", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("acted")
        batch.drop_column("autoplay_covers")
        batch.drop_column("autoplay_throws")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("autoplay_covers")
        batch.drop_column("autoplay_throws")
