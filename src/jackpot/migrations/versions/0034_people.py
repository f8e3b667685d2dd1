"""finding people to play: seeks, challenges, blocks and the challenge setting

Revision ID: 0034_people
Revises: 0001
Create Date: 2026-12-05

A branch from 0001 of its own (the app upgrades to every head): new tables only.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0034_people"
down_revision = "0001"
branch_labels = None
depends_on = None


def _user(table: str, column: str, primary: bool = False) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(
        column,
        sa.Integer(),
        sa.ForeignKey("users.id", ondelete="CASCADE", name=op.f(f"fk_{table}_{column}_users")),
        nullable=False,
        primary_key=primary,
    )


def upgrade() -> None:
    op.create_table(
        "people_prefs",
        _user("people_prefs", "user_id", primary=True),
        sa.Column("challenges", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "blocks",
        _user("blocks", "blocker_id", primary=True),
        _user("blocks", "blocked_id", primary=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_blocks_blocked", "blocks", ["blocked_id", "blocker_id"])
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(length=24), primary_key=True),
        _user("seeks", "user_id"),
        sa.Column("variant", sa.String(length=10), nullable=False),
        sa.Column("deadline_seconds", sa.Integer(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("provisional", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("match_id", sa.String(length=24), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_seeks_open", "seeks", ["status", "variant", "deadline_seconds", "seats", "created_at"]
    )
    op.create_index("ix_seeks_user", "seeks", ["user_id", "status"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(length=24), primary_key=True),
        _user("challenges", "from_id"),
        _user("challenges", "to_id"),
        sa.Column("variant", sa.String(length=10), nullable=False),
        sa.Column("deadline_seconds", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("match_id", sa.String(length=24), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mail", sa.String(length=8), nullable=False, server_default="pending"),
    )
    op.create_index("ix_challenges_mail", "challenges", ["mail", "created_at"])
    op.create_index("ix_challenges_to", "challenges", ["to_id", "status"])
    op.create_index("ix_challenges_from", "challenges", ["from_id", "status", "created_at"])
    op.create_index("ix_challenges_open", "challenges", ["status", "expires_at"])


def downgrade() -> None:
    op.drop_table("challenges")
    op.drop_table("seeks")
    op.drop_table("blocks")
    op.drop_table("people_prefs")
