"""Swiss tournaments: the tournament, its entries, rounds, tables, pairs kept apart, news

Revision ID: 0042_tournaments
Revises: 0041_fairplay
Create Date: 2026-12-07

New tables only; a table names its match, so it follows the matches' origin.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0042_tournaments"
down_revision = "0041_fairplay"
branch_labels = None
depends_on = None


def _tournament() -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(
        "tournament_id",
        sa.String(length=24),
        sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    )


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(length=24), primary_key=True),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column(
            "creator_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("variant", sa.String(length=10), nullable=False),
        sa.Column("table_size", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("deadline_seconds", sa.Integer(), nullable=False),
        sa.Column("spares", sa.Integer(), nullable=False),
        sa.Column("round_seconds", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("max_players", sa.Integer(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("round_ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("entered", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status", "starts_at"])
    op.create_index("ix_tournaments_round_end", "tournaments", ["status", "round_ends_at"])
    op.create_table(
        "tournament_entries",
        _tournament(),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("entered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("client_seed", sa.String(length=64), nullable=False),
        sa.Column("seed_by_server", sa.Boolean(), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("part", sa.String(length=64), nullable=False),
        sa.Column("number", sa.Integer(), nullable=True),
        sa.Column("rating", sa.Float(), nullable=True),
        sa.Column("withdrawn_round", sa.Integer(), nullable=True),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.UniqueConstraint("tournament_id", "number", name="uq_tournament_entries_number"),
    )
    op.create_index("ix_tournament_entries_user", "tournament_entries", ["user_id", "entered_at"])
    op.create_table(
        "tournament_rounds",
        _tournament(),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("paired_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("byes", sa.JSON(), nullable=False),
        sa.Column("timed_out_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "tournament_tables",
        _tournament(),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("table", sa.Integer(), primary_key=True),
        sa.Column(
            "match_id",
            sa.String(length=24),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            nullable=False,
            unique=True,
        ),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("places", sa.JSON(), nullable=True),
    )
    op.create_table(
        "tournament_apart",
        _tournament(),
        sa.Column("a", sa.Integer(), primary_key=True),
        sa.Column("b", sa.Integer(), primary_key=True),
        sa.Column("from_round", sa.Integer(), nullable=False),
    )
    op.create_table(
        "tournament_news",
        sa.Column(
            "match_id",
            sa.String(length=24),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("tournament_id", sa.String(length=24), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mail", sa.String(length=8), nullable=False),
        sa.Column("mail_after", sa.DateTime(timezone=True), nullable=True),
        sa.Column("mail_attempts", sa.Integer(), nullable=False),
    )
    op.create_index("ix_tournament_news_mail", "tournament_news", ["mail", "created_at"])
    op.create_index("ix_tournament_news_created", "tournament_news", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_tournament_news_created", table_name="tournament_news")
    op.drop_index("ix_tournament_news_mail", table_name="tournament_news")
    op.drop_table("tournament_news")
    op.drop_table("tournament_apart")
    op.drop_table("tournament_tables")
    op.drop_table("tournament_rounds")
    op.drop_index("ix_tournament_entries_user", table_name="tournament_entries")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_round_end", table_name="tournaments")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_table("tournaments")
