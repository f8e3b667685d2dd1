"""the daily deal: its deals and entries, and matches with no clock per throw

Revision ID: 0033_daily
Revises: 0001
Create Date: 2026-12-06

A branch from 0001 of its own (the app upgrades to every head). A daily entry has no
deadline per throw, so ``matches.deadline_seconds`` may now be NULL. PostgreSQL drops
the NOT NULL in place. SQLite cannot alter a column, and rebuilding ``matches`` would
be worse than slow here: the upgrade runs inside a transaction, where foreign keys
cannot be switched off, so dropping the old table would cascade-delete every seat and
record. SQLite documents the way for a change that leaves the stored rows as they
are (removing a NOT NULL is one, "Making Other Kinds Of Table Schema Changes" in its
ALTER TABLE page): edit the table's CREATE statement in the schema and bump the
schema version, in the same transaction.
"""

from __future__ import annotations

import re

import sqlalchemy as sa
from alembic import op

revision = "0033_daily"
down_revision = "0001"
branch_labels = None
depends_on = None

#: The column as 0001 created it on SQLite, and as it is written without NOT NULL.
_NOT_NULL = re.compile(r'(\bdeadline_seconds"?\s+INTEGER)\s+NOT NULL', re.IGNORECASE)


def _sqlite_set_deadline_nullable(nullable: bool) -> None:
    bind = op.get_bind()
    sql = bind.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'matches'"
    ).scalar_one()
    if nullable:
        changed = _NOT_NULL.sub(r"\1", sql)
    else:
        changed = re.sub(
            r'(\bdeadline_seconds"?\s+INTEGER)(?!\s+NOT NULL)', r"\1 NOT NULL", sql, flags=re.I
        )
    if changed == sql:
        return
    version = bind.exec_driver_sql("PRAGMA schema_version").scalar_one()
    bind.exec_driver_sql("PRAGMA writable_schema = ON")
    bind.exec_driver_sql(
        "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'matches'",
        (changed,),
    )
    bind.exec_driver_sql(f"PRAGMA schema_version = {int(version) + 1}")
    bind.exec_driver_sql("PRAGMA writable_schema = OFF")


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _sqlite_set_deadline_nullable(True)
    else:
        op.alter_column("matches", "deadline_seconds", existing_type=sa.Integer(), nullable=True)
    op.create_table(
        "daily_deals",
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("variant", sa.String(length=10), nullable=False),
        sa.Column("server_seed", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closes_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("par", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("day", "variant", name=op.f("pk_daily_deals")),
    )
    op.create_index("ix_daily_deals_open", "daily_deals", ["closed_at", "closes_at"])
    op.create_table(
        "daily_entries",
        sa.Column("match_id", sa.String(length=24), nullable=False),
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("variant", sa.String(length=10), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("entered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("ending", sa.String(length=10), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("jackpots", sa.Integer(), nullable=True),
        sa.Column("total", sa.Integer(), nullable=True),
        sa.Column("turn_scores", sa.JSON(), nullable=True),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_daily_entries_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_daily_entries_user_id_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_daily_entries")),
        sa.UniqueConstraint("day", "variant", "user_id", name="uq_daily_entries_player"),
    )
    op.create_index("ix_daily_entries_user", "daily_entries", ["user_id", "day"])
    op.create_index(
        "ix_daily_entries_board",
        "daily_entries",
        ["day", "variant", "finished", sa.text("jackpots DESC"), "total", "entered_at", "match_id"],
    )


def downgrade() -> None:
    op.drop_index("ix_daily_entries_board", table_name="daily_entries")
    op.drop_index("ix_daily_entries_user", table_name="daily_entries")
    op.drop_table("daily_entries")
    op.drop_index("ix_daily_deals_open", table_name="daily_deals")
    op.drop_table("daily_deals")
    op.execute(sa.text("DELETE FROM matches WHERE deadline_seconds IS NULL"))
    if op.get_bind().dialect.name == "sqlite":
        _sqlite_set_deadline_nullable(False)
    else:
        op.alter_column("matches", "deadline_seconds", existing_type=sa.Integer(), nullable=False)
