"""Alembic environment: migrate the connection the app hands over, or the URL in
alembic.ini when run by hand."""

from __future__ import annotations

from alembic import context
from sqlalchemy import engine_from_config, pool

from jackpot.web.base.tables.core import metadata

config = context.config


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = engine_from_config(
        config.get_section(config.config_ini_section, {}),
        prefix="sqlalchemy.",
        poolclass=pool.NullPool,
    )
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


run()
