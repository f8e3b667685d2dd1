"""The application: every feature's routes, the middlewares, and its lifetime.

Settings, database, bus and the background steps live as long as it does; the fast
lane for moves sits among the middlewares. Who hears of play, and which steps run,
is wiring.py's.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import RedirectResponse
from fastapi.staticfiles import StaticFiles

from jackpot.strategy.match_odds import warm_up as build_odds_tables
from jackpot.web.accounts import api as accounts_api
from jackpot.web.accounts import confirm_email as accounts_confirm
from jackpot.web.accounts import language as accounts_language
from jackpot.web.accounts import pages as accounts_pages
from jackpot.web.accounts import theme as accounts_theme
from jackpot.web.accounts import tokens as accounts_tokens
from jackpot.web.analysis import routes as analysis_routes
from jackpot.web.base.edge import api_docs
from jackpot.web.base.edge.client import AllowedHosts
from jackpot.web.base.edge.headers import SecurityHeaders
from jackpot.web.base.edge.language import Language
from jackpot.web.base.edge.middleware import BodyLimit
from jackpot.web.base.edge.openapi_errors import document_errors
from jackpot.web.base.edge.responses import handle_errors
from jackpot.web.base.edge.shared_streams import SharedStreamCaps, SharedStreams
from jackpot.web.base.edge.templates import make_templates
from jackpot.web.base.edge.text_guard import TextGuard
from jackpot.web.base.identity import share_changes
from jackpot.web.base.limits import make_counters, redis_prefix
from jackpot.web.base.live.bus_redis import make_bus
from jackpot.web.base.live.stream_caps import StreamCaps, total_streams
from jackpot.web.base.passwords import Passwords
from jackpot.web.base.redis_pool import shared_redis
from jackpot.web.base.settings import Settings, load_settings
from jackpot.web.base.steps import run_steps
from jackpot.web.base.storage.db import Database
from jackpot.web.daily import api as daily_api
from jackpot.web.daily import pages as daily_pages
from jackpot.web.notify import routes as notify_routes
from jackpot.web.notify import stream as user_stream
from jackpot.web.notify.push import routes as push_routes
from jackpot.web.notify.push.keys import application_server_key
from jackpot.web.notify.user_hub import UserHub
from jackpot.web.people import api as people_api
from jackpot.web.people import pages as people_pages
from jackpot.web.play.edge import api as play_api
from jackpot.web.play.edge import app_shell, rematch_routes
from jackpot.web.play.edge import pages as play_pages
from jackpot.web.play.edge.fast_moves import FastMoves
from jackpot.web.play.storage.live_matches import follow, live_matches_of
from jackpot.web.play.watchers import make_watchers
from jackpot.web.players import leaderboard, live_odds, profile, replay
from jackpot.web.tournaments import api as tournaments_api
from jackpot.web.tournaments import pages as tournaments_pages
from jackpot.web.watch import routes as watch_routes
from jackpot.web.wiring import background_steps, listen

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"

#: Every feature's routes. Their paths do not overlap, so the order only decides
#: which 405 a wrong method gets.
ROUTERS = (
    # Before play's API: /api/matches/live is not a match (ids start with "m_").
    watch_routes.router,
    play_api.router,
    accounts_api.router,
    accounts_tokens.router,
    leaderboard.router,
    profile.router,
    replay.router,
    live_odds.router,
    analysis_routes.router,
    play_pages.router,
    app_shell.router,
    accounts_pages.router,
    notify_routes.router,
    rematch_routes.router,
    accounts_language.router,
    accounts_theme.router,
    push_routes.router,
    user_stream.router,
    daily_api.router,
    tournaments_api.router,
    tournaments_pages.router,
    people_api.router,
    people_pages.router,
    daily_pages.router,
    accounts_confirm.router,
    api_docs.router,
)


#: The collector's thresholds once the app is ready (Python's are 700, 10, 10). A full
#: collection walks every live object (about 115,000 under 200 matches' load) and stops
#: the process for 20-65 ms, stalling every move in flight; with the defaults one came
#: about every second under load and found a few hundred objects. With these, young
#: collections come ten times rarer and full ones some two hundred times rarer (they
#: still run): closed-loop p99 90 → 73 ms, memory unchanged (docs/benchmarks.md).
GC_THRESHOLDS = (7000, 20, 100)


def _freeze_startup_objects(_done: object) -> None:
    """Move what exists once the app is ready (above all the solver's tables, a few
    hundred thousand Fractions) out of the garbage collector's sight: they live as
    long as the process, and every full collection would walk them again. Under
    load that walking was about a tenth of the server's time (docs/benchmarks.md)."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or load_settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        listen()
        db = Database(settings.database_url, app.state.bus)
        await db.upgrade()
        app.state.db = db
        # The exact solver's tables and the match odds' (every Classic seat's state)
        # take a few seconds to build; build them now, off the event loop, rather than
        # inside the first transaction that ends a match (its review and the bots'
        # choices need them) while it holds the writer, or in the first odds request.
        warm_up = asyncio.create_task(asyncio.to_thread(build_odds_tables))
        warm_up.add_done_callback(_freeze_startup_objects)
        # Requests are served meanwhile (the thread shares the interpreter with them,
        # so they are slower until it is done); what must not be timed with it, as a
        # benchmark, can wait for this.
        app.state.tables_ready = warm_up
        # A lone server process hears every change made through it (a `jackpot sweep`
        # beside it is caught by the conditional UPDATEs, see live_matches.py).
        alone = settings.workers == 1
        follow(live_matches_of(db.writer.sync_engine), app.state.bus, alone=alone)
        share_changes(db.actors, app.state.bus, alone=alone,
                      seconds=settings.credential_cache_seconds)
        await app.state.bus.start()
        app.state.user_hub.start(db)
        app.state.watchers.start()
        stop = asyncio.Event()
        task = None
        if settings.sweeper_in_process:
            task = asyncio.create_task(run_steps(background_steps(db, settings), stop))
        try:
            yield
        finally:
            stop.set()
            app.state.bus.close_all()
            await app.state.user_hub.aclose()
            await app.state.watchers.aclose()
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(task, timeout=5)
            await app.state.bus.aclose()
            with contextlib.suppress(Exception):
                await warm_up
            await app.state.counters.aclose()
            if app.state.shared_streams is not None:
                await app.state.shared_streams.aclose()
            if app.state.redis is not None:
                await app.state.redis.aclose(close_connection_pool=True)
            app.state.passwords.close()
            await db.dispose()

    app = FastAPI(
        title="peer2peergames' Jackpot",
        version="1",
        openapi_url="/api/openapi.json",
        # No documentation page: FastAPI's loads Swagger UI from a CDN, a script of
        # another origin running on ours. The schema is the documentation.
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
        # No OpenTelemetry here: with it off FastAPI skips asking the providers
        # on every request (about 1% of a move under load).
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    document_errors(app)
    app.state.settings = settings
    app.state.bus = make_bus(settings.redis_url)
    # Every request-time use of Redis shares one bounded pool that waits (redis_pool.py).
    app.state.redis = (
        shared_redis(settings.redis_url, settings.redis_connections, settings.redis_wait_seconds)
        if settings.redis_url
        else None
    )
    app.state.counters = make_counters(app.state.redis, settings.database_url)
    app.state.passwords = Passwords(
        settings.hash_threads or None,
        settings.hash_queue,
        settings.hash_known_queue,
        time_cost=settings.hash_time_cost,
        memory_kib=settings.hash_memory_kib,
    )
    app.state.stream_caps = StreamCaps(settings.streams_per_address, total_streams(settings))
    app.state.watchers = make_watchers(settings, app.state.redis)
    # With Redis, one address's streams count together in every process.
    app.state.shared_streams = (
        SharedStreams(
            app.state.redis, redis_prefix(settings.database_url), settings.streams_per_address
        )
        if app.state.redis is not None
        else None
    )
    app.state.user_hub = UserHub(app.state.bus)
    # A bad VAPID key stops start-up; a missing one is made now, once (notify/push/keys.py).
    application_server_key(settings)
    app.state.templates = make_templates()
    handle_errors(app)

    @app.get("/api/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/api/docs", include_in_schema=False)
    async def docs() -> RedirectResponse:
        """Where the documentation page was: the schema it showed."""
        return RedirectResponse("/api/openapi.json", status_code=308)

    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    # Innermost first: the fast lane for moves runs inside the text check, the body
    # limit and the security headers, like every route.
    app.add_middleware(FastMoves)
    if app.state.shared_streams is not None:
        app.add_middleware(SharedStreamCaps, streams=app.state.shared_streams)
    app.add_middleware(TextGuard)
    app.add_middleware(BodyLimit)
    app.add_middleware(SecurityHeaders, settings=settings)
    app.add_middleware(Language)
    # Outermost: a Host we do not answer for is refused before anything reads it.
    app.add_middleware(AllowedHosts, hosts=settings.hosts_allowed)
    return app
