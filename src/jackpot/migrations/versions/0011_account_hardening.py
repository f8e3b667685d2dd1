"""tokens that expire and show when last used, reset mails through an outbox, no
login_failures table (failure counters moved to Redis or the process)

Revision ID: 0011_account_hardening
Revises: 0001
Create Date: 2026-12-01

A branch from 0001 of its own (the app upgrades to every head), so it depends on
no other feature's migration.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from alembic import op

revision = "0011_account_hardening"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("credentials", schema=None) as batch_op:
        batch_op.add_column(sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True))
    # Tokens made before expiry existed get the default life from today, so none
    # dies the moment this runs and none lives for ever.
    expires = datetime.now(UTC) + timedelta(days=90)
    if op.get_bind().dialect.name == "sqlite":
        expires = expires.replace(tzinfo=None)
    credentials = sa.table(
        "credentials",
        sa.column("kind", sa.String),
        sa.column("expires_at", sa.DateTime(timezone=True)),
    )
    op.execute(
        credentials.update()
        .where(credentials.c.kind == "token", credentials.c.expires_at.is_(None))
        .values(expires_at=expires)
    )
    op.create_table(
        "reset_mails",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("send_after", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("error", sa.String(length=200), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_reset_mails_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reset_mails")),
    )
    with op.batch_alter_table("reset_mails", schema=None) as batch_op:
        batch_op.create_index("ix_reset_mails_user", ["user_id", "created_at"], unique=False)
        batch_op.create_index("ix_reset_mails_pending", ["status", "send_after"], unique=False)
    with op.batch_alter_table("login_failures", schema=None) as batch_op:
        batch_op.drop_index("ix_login_failures_key")
    op.drop_table("login_failures")


def downgrade() -> None:
    op.create_table(
        "login_failures",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("key", sa.String(length=300), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_failures")),
    )
    with op.batch_alter_table("login_failures", schema=None) as batch_op:
        batch_op.create_index("ix_login_failures_key", ["key", "at"], unique=False)
    with op.batch_alter_table("reset_mails", schema=None) as batch_op:
        batch_op.drop_index("ix_reset_mails_pending")
        batch_op.drop_index("ix_reset_mails_user")
    op.drop_table("reset_mails")
    with op.batch_alter_table("credentials", schema=None) as batch_op:
        batch_op.drop_column("last_used_at")
