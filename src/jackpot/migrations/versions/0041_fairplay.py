"""every person's own seed, seeds made of parts, and daily dice by position

Revision ID: 0041_fairplay
Revises: 0040_playback
Create Date: 2026-12-07

seats.seed_by is "server" for a person's seat whose client seed the server made (none
was sent); matches.parts lists a seed made of parts ({"commitment", "part"} in joining
order) for a match made for several people at once. A seek, a challenge and a rematch
offer keep each person's client seed and part until their match is made. A daily
deal's dice go by position from the first day after this change (daily_deals.dice);
deals for today and before keep theirs by number, and their records still verify.
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0041_fairplay"
down_revision = "0040_playback"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("seed_by", sa.String(6), nullable=True))
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("parts", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("dice", sa.String(12), nullable=True))
    with op.batch_alter_table("seeks") as batch:
        batch.add_column(sa.Column("client_seed", sa.String(64), nullable=True))
        batch.add_column(sa.Column("seed_by", sa.String(6), nullable=True))
        batch.add_column(sa.Column("part", sa.String(64), nullable=True))
    with op.batch_alter_table("challenges") as batch:
        batch.add_column(sa.Column("from_seed", sa.String(64), nullable=True))
        batch.add_column(sa.Column("from_seed_by", sa.String(6), nullable=True))
        batch.add_column(sa.Column("from_part", sa.String(64), nullable=True))
    with op.batch_alter_table("rematch_offers") as batch:
        batch.add_column(sa.Column("parts", sa.Text(), nullable=True))
        batch.add_column(sa.Column("server_made", sa.String(20), nullable=True))
    with op.batch_alter_table("daily_deals") as batch:
        batch.add_column(sa.Column("dice", sa.String(12), nullable=True))
    today = datetime.now(UTC).date().isoformat()
    op.execute(
        sa.text("UPDATE daily_deals SET dice = 'by-position' WHERE day > :today").bindparams(
            today=today
        )
    )


def downgrade() -> None:
    with op.batch_alter_table("daily_deals") as batch:
        batch.drop_column("dice")
    with op.batch_alter_table("rematch_offers") as batch:
        batch.drop_column("server_made")
        batch.drop_column("parts")
    with op.batch_alter_table("challenges") as batch:
        batch.drop_column("from_part")
        batch.drop_column("from_seed_by")
        batch.drop_column("from_seed")
    with op.batch_alter_table("seeks") as batch:
        batch.drop_column("part")
        batch.drop_column("seed_by")
        batch.drop_column("client_seed")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("dice")
        batch.drop_column("parts")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("seed_by")
