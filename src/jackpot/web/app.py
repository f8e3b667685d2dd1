"""The application factory: settings, database, bus, sweeper, routes, error shapes."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jackpot.web.bus import make_bus
from jackpot.web.db import Database
from jackpot.web.errors import ApiError
from jackpot.web.language import Language
from jackpot.web.language import router as language_router
from jackpot.web.settings import Settings, load_settings
from jackpot.web.sweeper import run_sweeper

PACKAGE_DIR = Path(__file__).resolve().parent.parent
log = logging.getLogger("jackpot.web")

#: Largest request body accepted; the biggest legitimate one is a short form.
MAX_BODY = 64 * 1024

_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    422: "invalid",
    429: "too_many_requests",
}


class BodyTooLarge(Exception):
    pass


class BodyLimit:
    """Refuse bodies over ``MAX_BODY`` with 413, whether announced or streamed."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    too_big = int(value) > MAX_BODY
                except ValueError:
                    too_big = True
                if too_big:
                    await _too_large(scope, receive, send)
                    return
        seen = 0
        over = False

        async def limited_receive() -> Message:
            nonlocal seen, over
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > MAX_BODY:
                    over = True
                    raise BodyTooLarge
            return msg

        replaced = False

        async def checked_send(msg: Message) -> None:
            # The framework may turn the failed read into its own 400; a body that
            # was too big is answered 413 instead, whatever the app made of it.
            nonlocal replaced
            if over:
                if not replaced:
                    replaced = True
                    await _too_large(scope, receive, send)
                return
            await send(msg)

        try:
            await self.app(scope, limited_receive, checked_send)
        except BodyTooLarge:
            if not replaced:
                await _too_large(scope, receive, send)


class SecurityHeaders:
    """Headers every response carries (pure ASGI: no per-request task overhead)."""

    HEADERS = (
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"same-origin"),
        (b"x-frame-options", b"DENY"),
    )

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                msg["headers"] = [*msg.get("headers", []), *self.HEADERS]
            await send(msg)

        await self.app(scope, receive, send_with_headers)


async def _too_large(scope: Scope, receive: Receive, send: Send) -> None:
    resp = JSONResponse(
        {"error": {"code": "too_large", "message": f"the request body is over {MAX_BODY} bytes"}},
        status_code=413,
    )
    await resp(scope, receive, send)


def _wants_html(request: Request) -> bool:
    return not request.url.path.startswith("/api") and "text/html" in request.headers.get(
        "accept", ""
    )


def _error_response(request: Request, status: int, code: str, message: str) -> Response:
    if _wants_html(request):
        templates = request.app.state.templates
        return templates.TemplateResponse(
            request, "error.html", {"status": status, "message": message}, status_code=status
        )
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _validation_message(exc: RequestValidationError) -> tuple[int, str, str]:
    errors = exc.errors()
    for err in errors:
        if err.get("type") == "json_invalid":
            return 400, "bad_json", "the body is not valid JSON"
    if errors:
        err = errors[0]
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        if err.get("type") == "missing" and where == "body":
            return 422, "invalid", "a JSON body is required"
        return 422, "invalid", f"{where}: {err.get('msg', 'is not valid')}"
    return 422, "invalid", "the request is not valid"


def _build_solver_tables() -> None:
    from jackpot.engine import Variant
    from jackpot.strategy.solver import optimal_table

    for variant in Variant:
        optimal_table(variant)


def _freeze_startup_objects(_done: object) -> None:
    """Move what exists once the app is ready (above all the solver's tables, a few
    hundred thousand Fractions) out of the garbage collector's sight: they live as
    long as the process, and every full collection would walk them again. Under
    load that walking was about a tenth of the server's time (docs/benchmarks.md)."""
    gc.freeze()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or load_settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(settings.database_url)
        await db.upgrade()
        app.state.db = db
        # The exact solver's tables take about a second to build; build them now, off
        # the event loop, rather than inside the first transaction that ends a match
        # (its review and the bots' choices need them) while it holds the writer.
        warm_up = asyncio.create_task(asyncio.to_thread(_build_solver_tables))
        warm_up.add_done_callback(_freeze_startup_objects)
        await app.state.bus.start()
        stop = asyncio.Event()
        task = None
        if settings.sweeper_in_process:
            task = asyncio.create_task(
                run_sweeper(
                    db,
                    app.state.bus,
                    settings.sweep_interval,
                    settings.guest_days,
                    stop,
                    settings=settings,
                )
            )
        try:
            yield
        finally:
            stop.set()
            app.state.bus.close_all()
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(task, timeout=5)
            await app.state.bus.aclose()
            with contextlib.suppress(Exception):
                await warm_up
            await db.dispose()

    app = FastAPI(
        title="peer2peergames' Jackpot",
        version="1",
        openapi_url="/api/openapi.json",
        docs_url="/api/docs",
        redoc_url=None,
        lifespan=lifespan,
        # No OpenTelemetry here: with it off FastAPI skips asking the providers
        # on every request (about 1% of a move under load).
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    app.state.settings = settings
    app.state.bus = make_bus(settings.redis_url)

    from jackpot.web.pages import make_templates
    from jackpot.web.pages import router as pages_router

    app.state.templates = make_templates()

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> Response:
        return _error_response(request, exc.status, exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        status, code, message = _validation_message(exc)
        return _error_response(request, status, code, message)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        status = exc.status_code
        message = exc.detail if isinstance(exc.detail, str) else "request refused"
        if status == 404:
            message = "there is nothing at this address"
        return _error_response(request, status, _CODES.get(status, "error"), message)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return _error_response(request, 500, "internal", "something went wrong on our side")

    from jackpot.web.api import router as api_router

    app.include_router(api_router)
    from jackpot.web.players import router as players_router

    # Before the pages: it serves /leaderboard, which pages.py only stubs.
    app.include_router(players_router)
    app.include_router(pages_router)
    from jackpot.web.rematch import router as rematch_router
    from jackpot.web.unsubscribe import router as notify_router

    app.include_router(notify_router)
    app.include_router(rematch_router)
    app.include_router(language_router)
    app.mount("/static", StaticFiles(directory=PACKAGE_DIR / "static"), name="static")
    # Innermost first: the fast lane for moves runs inside the body limit and the
    # security headers, like every route.
    from jackpot.web.fast_moves import FastMoves

    app.add_middleware(FastMoves, error_response=_error_response)
    app.add_middleware(BodyLimit)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(Language)
    return app
