"""turn mails, reminders and rematch offers

Revision ID: 0003_notify
Revises: 0001
Create Date: 2026-11-30

A branch from 0001 of its own (the app upgrades to every head), so it depends on
no other feature's migration.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_notify"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "mail_prefs",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("turn_mail", sa.String(length=5), nullable=False),
        sa.Column("last_digest_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lease_owner", sa.String(length=32), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_mail_prefs_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_mail_prefs")),
    )
    op.create_table(
        "notices",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("key", sa.String(length=80), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.String(length=24), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("send_after", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("error", sa.String(length=200), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_notices_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_notices_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notices")),
        sa.UniqueConstraint("key", name=op.f("uq_notices_key")),
    )
    with op.batch_alter_table("notices", schema=None) as batch_op:
        batch_op.create_index("ix_notices_pending", ["status", "send_after"], unique=False)
        batch_op.create_index("ix_notices_match", ["match_id", "kind", "status"], unique=False)
        batch_op.create_index("ix_notices_user", ["user_id", "status"], unique=False)
    op.create_table(
        "rematch_offers",
        sa.Column("match_id", sa.String(length=24), nullable=False),
        sa.Column("offered_by", sa.Integer(), nullable=False),
        sa.Column("accepted", sa.String(length=20), nullable=False),
        sa.Column("seeds", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("declined_by", sa.Integer(), nullable=True),
        sa.Column("new_match_id", sa.String(length=24), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_rematch_offers_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_rematch_offers")),
    )


def downgrade() -> None:
    op.drop_table("rematch_offers")
    with op.batch_alter_table("notices", schema=None) as batch_op:
        batch_op.drop_index("ix_notices_user")
        batch_op.drop_index("ix_notices_match")
        batch_op.drop_index("ix_notices_pending")
    op.drop_table("notices")
    op.drop_table("mail_prefs")
