"""email confirmation: the addresses accounts confirmed, and the confirmation mails

Revision ID: 0020_email_confirm
Revises: 0001
Create Date: 2026-12-05

A branch from 0001 of its own (the app upgrades to every head). Every account that
exists when it runs counts as having confirmed its address (docs/security.md says
why): their mail goes on as before.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020_email_confirm"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "confirmed_emails",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_confirmed_emails_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_confirmed_emails")),
    )
    op.create_table(
        "confirm_mails",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True,
            nullable=False,
        ),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("send_after", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("error", sa.String(length=200), nullable=True),
        sa.Column("token_hash", sa.String(length=64), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("used", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_confirm_mails_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_confirm_mails")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_confirm_mails_token_hash")),
    )
    with op.batch_alter_table("confirm_mails", schema=None) as batch_op:
        batch_op.create_index("ix_confirm_mails_user", ["user_id", "created_at"], unique=False)
        batch_op.create_index("ix_confirm_mails_pending", ["status", "send_after"], unique=False)
    # The accounts there are now: confirmed, as of now.
    users = sa.table(
        "users", sa.column("id"), sa.column("email"), sa.column("is_guest", sa.Boolean())
    )
    confirmed = sa.table(
        "confirmed_emails", sa.column("user_id"), sa.column("email"), sa.column("confirmed_at")
    )
    op.execute(
        confirmed.insert().from_select(
            ["user_id", "email", "confirmed_at"],
            sa.select(users.c.id, users.c.email, sa.func.current_timestamp()).where(
                users.c.email.is_not(None), users.c.is_guest.is_(sa.false())
            ),
        )
    )


def downgrade() -> None:
    with op.batch_alter_table("confirm_mails", schema=None) as batch_op:
        batch_op.drop_index("ix_confirm_mails_pending")
        batch_op.drop_index("ix_confirm_mails_user")
    op.drop_table("confirm_mails")
    op.drop_table("confirmed_emails")
