"""``jackpot serve``, ``jackpot sweep`` and ``jackpot db upgrade``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from typing import Any


def _settings() -> Any:
    from jackpot.web.settings import SettingsError, load_settings

    try:
        return load_settings()
    except SettingsError as exc:
        print(f"jackpot: configuration error: {exc}", file=sys.stderr)
        return None


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from jackpot.web.app import create_app

    settings = _settings()
    if settings is None:
        return 2
    uvicorn.run(
        create_app(settings),
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        # Open SSE streams would otherwise hold a SIGTERM forever (DESIGN.md §6);
        # the app also ends them itself on shutdown.
        timeout_graceful_shutdown=5,
        proxy_headers=True,
    )
    return 0


def sweep(args: argparse.Namespace) -> int:
    from jackpot.web.bus import EventBus
    from jackpot.web.db import Database
    from jackpot.web.sweeper import run_sweeper, sweep_once

    settings = _settings()
    if settings is None:
        return 2

    async def main() -> None:
        db = Database(settings.database_url)
        await db.upgrade()
        try:
            if args.once:
                n = await sweep_once(db, EventBus())
                print(f"applied {n} timeout{'s' if n != 1 else ''}")
            else:
                await run_sweeper(
                    db, EventBus(), settings.sweep_interval, settings.guest_days, asyncio.Event()
                )
        finally:
            await db.dispose()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())
    return 0


def db_upgrade(args: argparse.Namespace) -> int:
    from jackpot.web.db import Database

    settings = _settings()
    if settings is None:
        return 2

    async def main() -> None:
        db = Database(settings.database_url)
        try:
            await db.upgrade()
        finally:
            await db.dispose()

    asyncio.run(main())
    print("database is up to date")
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("serve", help="run the web site")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--log-level", default="info")
    p.set_defaults(func=serve)

    p = subparsers.add_parser("sweep", help="apply missed throw deadlines (several may run)")
    p.add_argument("--once", action="store_true", help="one pass, then exit")
    p.set_defaults(func=sweep)

    p = subparsers.add_parser("db", help="database maintenance")
    dsub = p.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    u = dsub.add_parser("upgrade", help="apply the migrations")
    u.set_defaults(func=db_upgrade)
