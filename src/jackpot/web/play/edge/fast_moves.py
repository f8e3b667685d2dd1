"""Throws, covers and match sockets served without the framework's per-request machinery.

A throw or a cover is nearly every request a busy site gets. Through FastAPI's
router each one paid for route matching over every included router, dependency
solving, the request and exception middlewares and response serialisation: about
a quarter of the server's time under the load benchmark (docs/benchmarks.md). This
middleware answers exactly those two routes itself, calling the same
``moves.move`` the routes call, and hands every other request on untouched.

It only takes requests whose outcome it can give exactly as the routes would: a
JSON body (or none, for a throw) that the routes' own pydantic models accept, from
a caller who is signed in and on this site. Anything else (malformed JSON, a body
of the wrong shape, nobody signed in, another site) goes on to the framework with
its body replayed, which answers with its usual error. It sits inside
``BodyLimit`` and ``SecurityHeaders``, so bodies are limited and headers added as
for any response, and outside the framework's exception handling, so it turns an
``ApiError`` into the one error shape itself (base/edge/responses.py).

A match's WebSocket (socket_moves.py) is only ever served from here: it lives for
the whole match, and every frame would otherwise pass through the framework's
layers again (the site's own middlewares, outside this one, have seen it).
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson
from fastapi import Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ValidationError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jackpot.web.base.edge.http import current_actor, same_origin
from jackpot.web.base.edge.responses import error_response
from jackpot.web.base.errors import ApiError
from jackpot.web.play.edge.socket_moves import match_socket
from jackpot.web.play.moves import CoverBody, ThrowBody, move

_MOVE = re.compile(r"/api/matches/([^/]+)/(throw|cover)")
_SOCKET = re.compile(r"/api/matches/([^/]+)/socket")
_MODELS: dict[str, type[BaseModel]] = {"throw": ThrowBody, "cover": CoverBody}


class FastMoves:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = None
        if scope["type"] == "http" and scope["method"] == "POST":
            found = _MOVE.fullmatch(scope["path"])
        elif scope["type"] == "websocket":
            socket = _SOCKET.fullmatch(scope["path"])
            if socket is not None:
                await match_socket(scope, receive, send, socket.group(1))
                return
        if found is None:
            await self.app(scope, receive, send)
            return
        read, body = await _read_body(receive)
        request = Request(scope)
        payload = _NO if body is None else _payload(request, found.group(2), body)
        if payload is not _NO and same_origin(request) and await current_actor(request):
            try:
                result: Any = await move(request, found.group(1), payload)
                response: Response = _JSON(result)
            except ApiError as exc:
                response = error_response(request, exc.status, exc.code, exc.message)
            await response(scope, receive, send)
            return
        await self.app(scope, _replay(read, receive), send)


class _JSON(JSONResponse):
    """The same bytes as the routes' answer (compact, UTF-8), encoded by orjson."""

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


_NO: Any = object()


def _payload(request: Request, action: str, body: bytes) -> Any:
    """The route's body model, None for a throw without a body, or ``_NO`` when
    only the framework can say what is wrong with it."""
    ctype = request.headers.get("content-type")
    if ctype is not None and ctype.split(";")[0].strip().lower() != "application/json":
        return _NO
    if not body:
        return None if action == "throw" else _NO
    try:
        data = json.loads(body)
        return _MODELS[action].model_validate(data)
    except (ValueError, ValidationError, RecursionError):  # RecursionError: [[[[...]]]]
        return _NO


async def _read_body(receive: Receive) -> tuple[list[Message], bytes | None]:
    """The messages read and the whole body, or None if the client went away."""
    read: list[Message] = []
    while True:
        msg = await receive()
        read.append(msg)
        if msg["type"] != "http.request":
            return read, None
        if not msg.get("more_body", False):
            return read, b"".join(m.get("body", b"") for m in read)


def _replay(read: list[Message], receive: Receive) -> Receive:
    """``receive`` giving back the messages already read, then the rest."""
    pending = list(read)

    async def replayed() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed
