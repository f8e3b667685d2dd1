"""Refuse text no field may hold (a NUL character, a lone UTF-16 surrogate) at the edge.

Python strings can hold both, but neither survives the way down: PostgreSQL refuses
a NUL in text with an error, and UTF-8 cannot encode a lone surrogate (JSON's
``"\\ud800"``), so either ended as a 500 wherever it first met the database or an
encoder. No field or name of ours has a use for them, so this middleware answers
422 for any of them in the path, the query string or the body, once for every route,
before any handler (or the fast lane for moves) runs.

It costs the moves nothing measurable: the body is checked as the app reads it,
and only a body holding ``\\u`` (JSON's escape, the only way to write either in
valid JSON), ``%00`` (a form's) or a raw NUL byte is looked at more closely.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl, unquote

from fastapi import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jackpot.web.base.edge.responses import error_response

_HAS_BODY = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class BadText(Exception):
    """Text that no field may hold; the message says where it was."""


def bad_char(text: str) -> str | None:
    """What is wrong with ``text`` (a NUL or a lone surrogate), or None."""
    if "\x00" in text:
        return "a NUL character"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "a lone UTF-16 surrogate (\\ud800-\\udfff without its pair)"
    return None


def _check_json(value: Any, where: str) -> None:
    if isinstance(value, str):
        problem = bad_char(value)
        if problem:
            raise BadText(f"{where or 'the body'} holds {problem}")
    elif isinstance(value, dict):
        for key, item in value.items():
            problem = bad_char(key)
            if problem:
                raise BadText(f"a field name in {where or 'the body'} holds {problem}")
            _check_json(item, f"{where}.{key}" if where else key)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_json(item, f"{where}[{i}]" if where else f"[{i}]")


def check_body(body: bytes) -> None:
    """Raise ``BadText`` if the body, read as JSON or as a form, holds bad text.

    A body that is neither is left to the framework, which says what is wrong."""
    if b"\x00" in body:
        raise BadText("the body holds a NUL byte")
    if b"\\u" in body:
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            data = None  # not JSON: the framework answers 400 or 422 itself
        _check_json(data, "")
    if b"%00" in body:
        for key, value in parse_qsl(body.decode("latin-1"), keep_blank_values=True):
            if "\x00" in key or "\x00" in value:
                raise BadText(f"the form field {key.strip(chr(0))!r} holds a NUL character")


def check_target(scope: Scope) -> None:
    """The path and the query string (a path parameter or query value with ``%00``)."""
    if "\x00" in scope["path"]:
        raise BadText("the address holds a NUL character")
    query: bytes = scope.get("query_string", b"")
    if b"%00" in query or b"\x00" in query:
        for key, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
            if "\x00" in key or "\x00" in value:
                raise BadText(f"the query parameter {key!r} holds a NUL character")
        if "\x00" in unquote(query.decode("latin-1")):
            raise BadText("the query string holds a NUL character")


class TextGuard:
    """422 ``bad_text`` for a NUL or a lone surrogate anywhere in the request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            check_target(scope)
        except BadText as exc:
            await self._refuse(scope, receive, send, exc)
            return
        if scope["method"] not in _HAS_BODY:
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        refused: BadText | None = None

        async def checked_receive() -> Message:
            nonlocal refused
            msg = await receive()
            if msg["type"] == "http.request":
                chunks.append(msg.get("body", b""))
                if not msg.get("more_body", False):
                    try:
                        check_body(chunks[0] if len(chunks) == 1 else b"".join(chunks))
                    except BadText as exc:
                        refused = exc
                        raise
            return msg

        answered = False

        async def checked_send(msg: Message) -> None:
            # The framework may turn the failed read into its own 400: a refused body
            # is answered 422 instead, whatever the app made of it.
            nonlocal answered
            if refused is not None:
                if not answered:
                    answered = True
                    await self._refuse(scope, receive, send, refused)
                return
            await send(msg)

        try:
            await self.app(scope, checked_receive, checked_send)
        except BadText:
            if not answered and refused is not None:
                answered = True
                await self._refuse(scope, receive, send, refused)
            elif refused is None:
                raise

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, exc: BadText) -> None:
        response = error_response(
            Request(scope),
            422,
            "bad_text",
            f"{exc}: text may not contain NUL characters or lone surrogates",
        )
        await response(scope, receive, send)
