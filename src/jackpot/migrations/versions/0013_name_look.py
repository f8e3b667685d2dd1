"""display names of any script: each account's look, so lookalikes are refused

Revision ID: 0013_name_look
Revises: 0001
Create Date: 2026-12-01

A branch from 0001 of its own (the app upgrades to every head). ``name_look`` is the
confusables skeleton of the name (web/base/names.py), filled here for the accounts
there are; indexed, not unique: accounts made before this rule may share one.
``name_key`` is widened for case folds that grow ("ß" is "ss"); SQLite does not hold
a column to its length, so only PostgreSQL's is changed (no table rebuild).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from jackpot.web.base.names import name_look

revision = "0013_name_look"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("users", sa.Column("name_look", sa.String(length=200), nullable=True))
    op.create_index("ix_users_name_look", "users", ["name_look"], unique=False)
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        op.alter_column("users", "name_key", type_=sa.String(length=64))
    users = sa.table(
        "users",
        sa.column("id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("is_guest", sa.Boolean),
        sa.column("name_look", sa.String),
    )
    rows = bind.execute(sa.select(users.c.id, users.c.name).where(users.c.is_guest.is_(False)))
    for user_id, name in rows.all():
        bind.execute(users.update().where(users.c.id == user_id).values(name_look=name_look(name)))


def downgrade() -> None:
    op.drop_index("ix_users_name_look", table_name="users")
    op.drop_column("users", "name_look")
