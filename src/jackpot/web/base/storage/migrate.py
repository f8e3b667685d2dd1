"""Running the Alembic migrations from code, on a connection the caller holds.

``jackpot serve`` and ``jackpot db upgrade`` run them on a connection they already
hold, so the async app needs no second loop.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection

#: src/jackpot, where alembic.ini and migrations/ are.
PACKAGE_DIR = Path(__file__).resolve().parents[3]


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
