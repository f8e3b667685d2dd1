"""web push: browsers registered per account, and the push worker's ledger

Revision ID: 0006_push
Revises: 0001
Create Date: 2026-12-01

A branch from 0001 of its own (the app upgrades to every head), like 0003_notify.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_push"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("endpoint", sa.String(length=1024), nullable=False),
        sa.Column("p256dh", sa.String(length=100), nullable=False),
        sa.Column("auth", sa.String(length=40), nullable=False),
        sa.Column("lang", sa.String(length=5), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_ok_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_push_subscriptions_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_subscriptions")),
        sa.UniqueConstraint("endpoint", name=op.f("uq_push_subscriptions_endpoint")),
    )
    with op.batch_alter_table("push_subscriptions", schema=None) as batch_op:
        batch_op.create_index("ix_push_subscriptions_user", ["user_id"], unique=False)
    op.create_table(
        "push_sends",
        sa.Column("key", sa.String(length=80), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_owner", sa.String(length=32), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("done", sa.Text(), nullable=False),
        sa.Column("error", sa.String(length=200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_push_sends_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_push_sends")),
    )
    with op.batch_alter_table("push_sends", schema=None) as batch_op:
        batch_op.create_index("ix_push_sends_retry", ["status", "next_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("push_sends", schema=None) as batch_op:
        batch_op.drop_index("ix_push_sends_retry")
    op.drop_table("push_sends")
    with op.batch_alter_table("push_subscriptions", schema=None) as batch_op:
        batch_op.drop_index("ix_push_subscriptions_user")
    op.drop_table("push_subscriptions")
