"""a challenge's mail is tried again after a failure, as the other mails are

Revision ID: 0036_challenge_mail_retry
Revises: 0034_people

challenges.mail_attempts counts the failed sends; challenges.mail_after is when the
next try may go (a failure's backoff, or a sender's lease while it sends). A row
left "sending" by a process that died mid-send goes back to "pending", due at once:
it is sent again rather than never.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0036_challenge_mail_retry"
down_revision = "0034_people"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("challenges") as batch:
        batch.add_column(
            sa.Column("mail_attempts", sa.Integer(), nullable=False, server_default="0")
        )
        batch.add_column(sa.Column("mail_after", sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE challenges SET mail = 'pending' WHERE mail = 'sending'")


def downgrade() -> None:
    with op.batch_alter_table("challenges") as batch:
        batch.drop_column("mail_after")
        batch.drop_column("mail_attempts")
