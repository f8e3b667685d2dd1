"""``jackpot serve``, ``jackpot sweep`` and ``jackpot db upgrade``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import sys
from typing import Any


def _settings(push: bool = True) -> Any:
    """The settings, checked against the machine (web/base/startup_checks.py) and,
    with ``push``, the Web Push key loaded (made on first use); None, after one line
    on stderr saying what is wrong and what to do, when unusable."""
    from jackpot.web.base.env_values import SettingsError
    from jackpot.web.base.settings import load_settings
    from jackpot.web.base.startup_checks import check_all
    from jackpot.web.notify.push.keys import vapid_key

    try:
        settings = load_settings()
        check_all(settings)
        if push:
            vapid_key(settings)
        return settings
    except SettingsError as exc:
        print(f"configuration error: {exc}", file=sys.stderr)
        return None


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from jackpot.web.app import create_app
    from jackpot.web.base.edge.http_guard import GuardedHttp
    from jackpot.web.play.edge.socket_moves import MAX_MESSAGE

    # Links in mails and the allowed Host names default to the address served; set
    # in the environment so that every worker process reads the same.
    host = args.host
    if host in ("0.0.0.0", "::", ""):
        host = socket.getfqdn()
    os.environ["JACKPOT_LISTEN"] = f"[{host}]:{args.port}" if ":" in host else f"{host}:{args.port}"
    os.environ["JACKPOT_WORKERS"] = str(args.workers)
    settings = _settings()
    if settings is None:
        return 2
    if settings.base_url is None and host != args.host:
        print(
            f"jackpot: warning: listening on every interface without JACKPOT_BASE_URL: "
            f"links in mails point to {settings.link_base}",
            file=sys.stderr,
        )
    # Several workers need an import string: uvicorn starts each in its own process,
    # where the factory reads the same environment. They share the database, and
    # live updates need JACKPOT_REDIS_URL (else a watcher only sees moves made
    # through its own worker).
    if args.workers > 1 and settings.redis_url is None:
        print(
            "jackpot: warning: --workers without JACKPOT_REDIS_URL: live updates stay "
            "within each worker",
            file=sys.stderr,
        )
    workers = args.workers > 1
    app = None if workers else create_app(settings)
    config = uvicorn.Config(
        # Each worker process builds its own app from the factory (an import string
        # is what uvicorn can hand to a new process).
        app if app is not None else "jackpot.web.app:create_app",
        factory=workers,
        workers=args.workers if workers else None,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        # A stream that somehow stays open must not hold a SIGTERM forever: uvicorn
        # otherwise waits for open streams before it stops.
        timeout_graceful_shutdown=5,
        # X-Forwarded-* are read by web/base/edge/client.py, and only from the proxies
        # in JACKPOT_TRUSTED_PROXIES (uvicorn's own default trusts 127.0.0.1,
        # which would let any local client choose its address).
        proxy_headers=False,
        # A player thinks longer than uvicorn's default 5 s between moves; keeping
        # the connection open for 30 s spares most moves a new connection (and a
        # new TLS handshake behind a proxy that passes them through).
        timeout_keep_alive=30,
        # A match's WebSocket carries moves of a few dozen bytes (socket_moves.py).
        ws_max_size=MAX_MESSAGE,
        # Compressing frames of a few hundred bytes costs more CPU than it saves.
        ws_per_message_deflate=False,
        # uvicorn's httptools protocol with deadlines for requests and a cap on heads.
        http=GuardedHttp,
    )
    if workers:
        # uvicorn's supervisor runs its own Server in each worker, so there a
        # SIGTERM ends open streams after timeout_graceful_shutdown (5 s) at most.
        from uvicorn.supervisors import Multiprocess

        Multiprocess(config, sockets=[config.bind_socket()]).run()
        return 0
    assert app is not None
    bus = app.state.bus

    class Server(uvicorn.Server):
        """Ends the open SSE streams as soon as a shutdown signal arrives: uvicorn
        waits for open connections before running the app's own shutdown."""

        def handle_exit(self, sig: int, frame: Any) -> None:
            bus.close_all()
            super().handle_exit(sig, frame)

    Server(config).run()
    return 0


def sweep(args: argparse.Namespace) -> int:
    from jackpot.web.base.identity import share_changes
    from jackpot.web.base.live.bus_redis import make_bus
    from jackpot.web.base.steps import run_steps
    from jackpot.web.base.storage.db import Database
    from jackpot.web.wiring import background_steps, listen

    settings = _settings()
    if settings is None:
        return 2
    if settings.base_url is None:
        print(
            "jackpot: warning: JACKPOT_BASE_URL is not set: links in mails sent by this "
            f"sweeper point to {settings.link_base}",
            file=sys.stderr,
        )

    async def main() -> None:
        listen()
        # Timeouts must reach the watchers of every server process: with
        # JACKPOT_REDIS_URL they are published through Redis.
        bus = make_bus(settings.redis_url)
        db = Database(settings.database_url, bus)
        await db.upgrade()
        # The guests it deletes are announced like a log-out (identity.share_changes).
        share_changes(db.actors, bus, alone=False, seconds=settings.credential_cache_seconds)
        await bus.start()
        try:
            steps = background_steps(db, settings)
            if args.once:
                for step in steps:
                    done = await step.run()
                    if done is not None:
                        print(f"{step.name}: {done}")
            else:
                await run_steps(steps, asyncio.Event())
        finally:
            await bus.aclose()
            await db.dispose()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())
    return 0


def db_upgrade(args: argparse.Namespace) -> int:
    from jackpot.web.base.storage.db import Database

    settings = _settings(push=False)
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


def bench(args: argparse.Namespace) -> int:
    """Hands its arguments to the benchmark's own parser (jackpot/bench/run.py)."""
    from jackpot.bench.run import main as bench_main

    return bench_main(list(args.passthrough_args))


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("serve", help="run the web site")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--log-level", default="info")
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes (use PostgreSQL and JACKPOT_REDIS_URL with more than one)",
    )
    p.set_defaults(func=serve)

    p = subparsers.add_parser(
        "bench",
        help="the load benchmark: real players against a server it starts (--help for more)",
        add_help=False,
    )
    p.set_defaults(func=bench, passthrough=True)

    p = subparsers.add_parser("sweep", help="apply missed throw deadlines (several may run)")
    p.add_argument("--once", action="store_true", help="one pass, then exit")
    p.set_defaults(func=sweep)

    p = subparsers.add_parser("db", help="database maintenance")
    dsub = p.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    u = dsub.add_parser("upgrade", help="apply the migrations")
    u.set_defaults(func=db_upgrade)
