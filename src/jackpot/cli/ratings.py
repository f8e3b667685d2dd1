"""``jackpot ratings rebuild``: recompute every rating from the stored records.

Ratings are derived data. If the rating rules change, or a bug is found in them,
the records are the truth, and this command rewrites ratings, rating history and
per-seat figures from them in one transaction (readers see the old numbers until
it commits, never a half-built table).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from typing import Any


def rebuild(args: argparse.Namespace) -> int:
    from sqlalchemy import func, select

    from jackpot.web.base.env_values import SettingsError
    from jackpot.web.base.settings import load_settings
    from jackpot.web.base.storage.db import Database
    from jackpot.web.base.tables.players import player_ratings
    from jackpot.web.players.ratings import rebuild as do_rebuild

    try:
        settings = load_settings()
    except SettingsError as exc:
        print(f"jackpot: configuration error: {exc}", file=sys.stderr)
        return 2

    async def main() -> tuple[int, int]:
        db = Database(settings.database_url)
        try:
            await db.upgrade()
            async with db.write() as conn:
                n = await do_rebuild(conn)
                rated = (
                    await conn.execute(select(func.count()).select_from(player_ratings))
                ).scalar_one()
            return n, int(rated)
        finally:
            await db.dispose()

    start = time.perf_counter()
    matches, rated = asyncio.run(main())
    took = time.perf_counter() - start
    print(f"read {matches} finished matches; {rated} ratings rebuilt in {took:.1f} s")
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("ratings", help="ratings maintenance")
    sub = p.add_subparsers(dest="ratings_command", metavar="ACTION", required=True)
    r = sub.add_parser(
        "rebuild", help="recompute every rating from the match records (deterministic)"
    )
    r.set_defaults(func=rebuild)
