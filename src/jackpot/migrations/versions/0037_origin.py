"""every match knows where it comes from, and the rules that follow from that

Revision ID: 0037_origin
Revises: 0003_notify, 0014_seat_order, 0033_daily, 0036_challenge_mail_retry
Create Date: 2026-12-07

It reads the tables of the features that made matches so far, so it follows their
migrations (the branches of those features meet here). Each
existing match gets its origin from what made it: a daily entry, a challenge
accepted, a play-now seek paired, a rematch started; else a person made it (solo
practice, against the bot, or for people to join). Its rules follow: people's
matches are rated, offer a rematch, and are listed to watch when public and without
a bot; the others are none of these. Every match made from now on is given all of
these by what makes it (play/new_match.py's MatchSpec).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0037_origin"
down_revision = ("0003_notify", "0014_seat_order", "0033_daily", "0036_challenge_mail_retry")
branch_labels = None
depends_on = None

#: Every statement reads the row as it was; later ones only touch rows still "people".
BACKFILL = (
    """UPDATE matches SET origin = 'daily',
         origin_id = (SELECT e.day || ':' || e.variant FROM daily_entries e
                      WHERE e.match_id = matches.id)
       WHERE id IN (SELECT match_id FROM daily_entries)""",
    """UPDATE matches SET origin = 'challenge',
         origin_id = (SELECT min(c.id) FROM challenges c WHERE c.match_id = matches.id)
       WHERE origin = 'people' AND id IN (SELECT match_id FROM challenges
                                          WHERE match_id IS NOT NULL)""",
    """UPDATE matches SET origin = 'play_now',
         origin_id = (SELECT max(s.id) FROM seeks s WHERE s.match_id = matches.id)
       WHERE origin = 'people' AND id IN (SELECT match_id FROM seeks
                                          WHERE match_id IS NOT NULL)""",
    """UPDATE matches SET origin = 'rematch',
         origin_id = (SELECT min(o.match_id) FROM rematch_offers o
                      WHERE o.new_match_id = matches.id)
       WHERE origin = 'people' AND id IN (SELECT new_match_id FROM rematch_offers
                                          WHERE new_match_id IS NOT NULL)""",
    """UPDATE matches SET origin = 'solo' WHERE origin = 'people' AND seat_count = 1""",
    """UPDATE matches SET origin = 'bot'
       WHERE origin = 'people'
         AND (SELECT count(*) FROM seats s WHERE s.match_id = matches.id
              AND NOT s.is_bot) = 1
         AND EXISTS (SELECT 1 FROM seats s WHERE s.match_id = matches.id AND s.is_bot)""",
    """UPDATE matches SET rated = FALSE, offers_rematch = FALSE, on_watch = FALSE
       WHERE origin IN ('daily', 'solo', 'bot')""",
    """UPDATE matches SET on_watch = FALSE
       WHERE private OR EXISTS (SELECT 1 FROM seats s WHERE s.match_id = matches.id
                                AND s.is_bot)""",
)


def upgrade() -> None:
    # Plain ADD COLUMN, never a batch rebuild: on SQLite the upgrade runs in a
    # transaction where foreign keys stay on, and dropping the old table would
    # cascade-delete every seat and record (0033_daily says more).
    op.add_column(
        "matches", sa.Column("origin", sa.String(12), nullable=False, server_default="people")
    )
    op.add_column("matches", sa.Column("origin_id", sa.String(40), nullable=True))
    for rule in ("rated", "offers_rematch", "on_watch"):
        op.add_column(
            "matches", sa.Column(rule, sa.Boolean(), nullable=False, server_default=sa.true())
        )
    for statement in BACKFILL:
        op.execute(statement)


def downgrade() -> None:
    for column in ("on_watch", "offers_rematch", "rated", "origin_id", "origin"):
        op.drop_column("matches", column)
