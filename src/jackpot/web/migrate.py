"""Running the Alembic migrations from code (``jackpot serve``, ``jackpot db upgrade``)
on a connection the caller already holds, so the async app needs no second loop."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection

PACKAGE_DIR = Path(__file__).resolve().parent.parent


def alembic_config() -> Config:
    cfg = Config(str(PACKAGE_DIR / "alembic.ini"))
    cfg.set_main_option("script_location", str(PACKAGE_DIR / "migrations"))
    return cfg


def upgrade_connection(conn: Connection) -> None:
    cfg = alembic_config()
    cfg.attributes["connection"] = conn
    # "heads": features built in parallel add migrations on branches from the same
    # parent; upgrading every head applies them all without a merge revision.
    command.upgrade(cfg, "heads")
