"""ratings, rating history and per-seat match statistics

Revision ID: 0002_ratings
Revises: 0001
Create Date: 2026-11-30

A branch from 0001 of its own (the app upgrades to every head), so it depends on
no other feature's migration.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_ratings"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_ratings",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(length=10), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("provisional", sa.Boolean(), nullable=False),
        sa.Column("listed", sa.Boolean(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("turns", sa.Integer(), nullable=False),
        sa.Column("jackpots", sa.Integer(), nullable=False),
        sa.Column("score_sum", sa.Integer(), nullable=False),
        sa.Column("last_match_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_player_ratings_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", "variant", name=op.f("pk_player_ratings")),
    )
    op.create_index(
        "ix_player_ratings_board",
        "player_ratings",
        ["variant", "listed", "rating", "user_id"],
        unique=False,
    )
    op.create_table(
        "rating_history",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(length=10), nullable=False),
        sa.Column("match_id", sa.String(length=24), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_rating_history_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_rating_history_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", "variant", "match_id", name=op.f("pk_rating_history")),
    )
    op.create_index(
        "ix_rating_history_user", "rating_history", ["user_id", "variant", "at"], unique=False
    )
    op.create_table(
        "seat_stats",
        sa.Column("match_id", sa.String(length=24), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(length=10), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("humans", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(length=5), nullable=False),
        sa.Column("turns", sa.Integer(), nullable=False),
        sa.Column("jackpots", sa.Integer(), nullable=False),
        sa.Column("score_sum", sa.Integer(), nullable=False),
        sa.Column("choices", sa.Integer(), nullable=False),
        sa.Column("best_choices", sa.Integer(), nullable=False),
        sa.Column("given_away", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_seat_stats_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_seat_stats_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", "seat", name=op.f("pk_seat_stats")),
    )
    op.create_index("ix_seat_stats_user", "seat_stats", ["user_id", "finished_at"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_seat_stats_user", table_name="seat_stats")
    op.drop_table("seat_stats")
    op.drop_index("ix_rating_history_user", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_player_ratings_board", table_name="player_ratings")
    op.drop_table("player_ratings")
