"""The body limit in front of every request (headers.py adds the security headers)."""

from __future__ import annotations

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jackpot.i18n import gettext

#: Largest request body accepted; the biggest legitimate one is a short form.
MAX_BODY = 64 * 1024


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


async def _too_large(scope: Scope, receive: Receive, send: Send) -> None:
    message = gettext("the request body is over %(most)s bytes", most=MAX_BODY)
    resp = JSONResponse({"error": {"code": "too_large", "message": message}}, status_code=413)
    await resp(scope, receive, send)
