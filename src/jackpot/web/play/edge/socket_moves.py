"""A player's WebSocket on one match: moves in, acknowledgements and live events out.

Over HTTP a move costs a request to parse, four middleware layers, a response, and
a chunk written to each seat's SSE stream: most of the server's time under load
(docs/benchmarks.md). On one socket per player (as lichess's round socket) a move
is a small text frame and its events go out on the same connection. The moves run
through the same ``moves.commit_move`` as the HTTP routes (the same action, the same
transaction, events published only after the commit); the HTTP API stays for
programs and as the page's fallback.

``GET /api/matches/{id}/socket`` (WebSocket), resumable like the SSE stream with
``?last_event_id=N``. The fast lane (fast_moves.py) hands it the socket straight from
the site's own middlewares: past the handshake every frame in or out would
otherwise wake, and go through, a dozen layers of the framework's routing and
exception handling (8 % of the server's time under load, docs/benchmarks.md).

The protocol is in docs/contracts.md. Bad input gets an ``error`` frame that says
what was wrong; the socket stays open. A frame over ``MAX_MESSAGE`` bytes closes it
(uvicorn's ``ws_max_size``); one move is handled at a time per socket, and a socket
that cannot keep up with its match's events is closed like a slow SSE stream (the
bus's bounded queue), so the client reconnects and catches up from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import orjson
from pydantic import ValidationError
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from jackpot.web.base.edge.client import client_bucket
from jackpot.web.base.edge.http import bus_of, current_actor, db_of, same_origin
from jackpot.web.base.edge.responses import validation_message
from jackpot.web.base.errors import ApiError, already_said, bad_request, unauthorized
from jackpot.web.base.live.stream_caps import StreamCaps
from jackpot.web.matches.store import check_match_id
from jackpot.web.play.edge.sse import backlog_since, live_after
from jackpot.web.play.moves import CoverBody, ThrowBody, commit_move
from jackpot.web.play.watchers import is_seated, watchers_of

#: The largest frame a client may send (a move is under 100 bytes).
MAX_MESSAGE = 4096
#: Close code when the server ends a socket that must reconnect (RFC 6455: "try again later").
TRY_AGAIN = 1013


def _json(data: Any) -> str:
    return orjson.dumps(data).decode()


def _error(request_id: Any, exc: ApiError) -> str:
    return _json(
        {"type": "error", "id": request_id, "status": exc.status,
         "error": {"code": exc.code, "message": exc.message}}
    )


def _parse(text: str | None) -> dict[str, Any]:
    """A move frame's JSON object, or ApiError saying what is wrong with it."""
    if text is None:
        raise bad_request("send moves as text frames of JSON", "bad_frame")
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        raise bad_request("the frame is not valid JSON", "bad_json") from None
    if not isinstance(data, dict):
        raise bad_request('a move is a JSON object: {"id": 1, "action": "throw"}', "bad_frame")
    return data


def _request_id(data: dict[str, Any]) -> Any:
    """The frame's ``id``, echoed in the answer, or ApiError if it cannot be."""
    request_id = data.get("id")
    if not (request_id is None or isinstance(request_id, int | str)) or (
        isinstance(request_id, str) and len(request_id) > 64
    ):
        raise bad_request("id must be a number or a string of at most 64 characters", "bad_frame")
    return request_id


def _move(data: dict[str, Any]) -> ThrowBody | CoverBody:
    """The move a frame asks for, or ApiError saying what is wrong with it."""
    action = data.get("action")
    try:
        if action == "throw":
            return ThrowBody.model_validate({"dice": data.get("dice")})
        if action == "cover":
            return CoverBody.model_validate({"tiles": data.get("tiles")})
    except ValidationError as exc:
        raise already_said(*validation_message(exc.errors())) from None
    raise bad_request("action must be 'throw' or 'cover'", "bad_action")


async def match_socket(scope: Scope, receive: Receive, send: Send, match_id: str) -> None:
    """Serve one match socket: the handshake and the closing through Starlette's
    ``WebSocket``, the frames between them on the server's own ``receive`` and
    ``send``."""
    websocket = WebSocket(scope, receive, send)
    if not same_origin(websocket):
        # A page on another site may open a socket with this site's cookie.
        await websocket.close(code=1008, reason="cross-site")
        return
    try:
        check_match_id(match_id)
    except ApiError:
        await websocket.close(code=1008, reason="no such match")
        return
    last = 0
    raw = websocket.query_params.get("last_event_id", "0")
    with contextlib.suppress(ValueError):
        last = max(0, min(int(raw), 2**31))
    # A socket holds a descriptor as long as a stream does: the same caps.
    caps: StreamCaps = websocket.app.state.stream_caps
    address = client_bucket(websocket)
    try:
        caps.acquire(address)
    except ApiError as exc:
        # Accepted, then closed: the client sees "try again later" and why, where a
        # refused handshake would only say 403.
        await websocket.accept()
        await websocket.close(code=TRY_AGAIN, reason=exc.code)
        return
    sock = _Socket(websocket, receive, send, match_id)
    try:
        reader = await sock.player()
        found, backlog = await backlog_since(
            sock.db, match_id, last, reader.user_id if reader else None
        )
        if not found:
            await websocket.close(code=1008, reason="no such match")
            return
        # A reader without a seat watches: counted while the socket is open
        # (watchers.py), from before the client hears it is open.
        watching = not await is_seated(sock.db, match_id, await sock.player())
        if watching:
            watchers_of(websocket).opened(match_id)
        forward: asyncio.Task[None] | None = None
        try:
            await websocket.accept()
            forward = asyncio.create_task(sock.forward(backlog, last))
            await sock.serve_moves()
        finally:
            if watching:
                watchers_of(websocket).closed(match_id)
            if forward is not None:
                forward.cancel()
                with contextlib.suppress(BaseException):
                    await forward
    finally:
        sock.sub.close()
        caps.release(address)


class _Socket:
    """One open socket: its subscription, the last event it has sent, its player."""

    def __init__(self, websocket: WebSocket, receive: Receive, send: Send, match_id: str) -> None:
        self.ws = websocket
        self._receive = receive
        self._send = send
        self.match_id = match_id
        self.db = db_of(websocket)
        self.bus = bus_of(websocket)
        self.sub = self.bus.subscribe(match_id)
        self.sent = 0
        #: Taking events and writing them is one step (the two tasks share ``sent``).
        self._writing = asyncio.Lock()
        self._actor: tuple[Any, int, float] | None = None

    async def _send_text(self, text: str) -> None:
        await self._send({"type": "websocket.send", "text": text})

    async def player(self) -> Any:
        """Who is moving: looked up again as often as the credential cache's entries
        expire, and at once after a log-out or password change it hears of (its
        generation), so the socket's right to move ends with its credential's."""
        actors = self.db.actors
        now = time.monotonic()
        if self._actor is not None:
            actor, generation, until = self._actor
            if generation == actors.generation and now < until:
                return actor
        generation = actors.generation
        self.ws.scope.pop("jackpot.actor", None)
        actor = await current_actor(self.ws)
        self._actor = (actor, generation, now + actors.ttl)
        return actor

    async def serve_moves(self) -> None:
        """Read move frames and answer each one, one at a time, until the client goes.
        The answer carries the move's events that the socket has not sent yet: one
        write for the mover instead of two."""
        while True:
            msg = await self._receive()
            if msg["type"] == "websocket.disconnect":
                return
            request_id: Any = None
            head: str | None = None
            self.sub.hold()
            try:
                data = _parse(msg.get("text"))
                # Read first: an error about the move still names the frame it answers.
                request_id = _request_id(data)
                body = _move(data)
                actor = await self.player()
                if actor is None:
                    raise unauthorized(
                        "sign in first, or play from the browser that started the match"
                    )
                out = await commit_move(self.db, actor, self.match_id, body)
                assert out.row is not None
                # The events are the news: the page applies them to the state it
                # has, so the whole state is not built and sent again (docs/contracts.md).
                head = f'{{"type":"ack","id":{_json(request_id)},"seq":{out.row["version"]}'
            except ApiError as exc:
                reply = _error(request_id, exc)
            finally:
                held = self.sub.release()
            try:
                async with self._writing:
                    events: list[str] = []
                    if held or not self.sub.queue.empty():
                        events = await self._take([], held)
                    if head is not None:
                        reply = head + ',"events":[' + ",".join(events) + "]}"
                    elif events:
                        await self._send_text(_events(events))
                    await self._send_text(reply)
            except (OSError, RuntimeError):  # closed meanwhile (uvicorn: ClientDisconnected)
                return
            except _Dropped:  # too far behind: its marker was taken here, not by forward
                await self.ws.close(code=TRY_AGAIN, reason="reconnect to catch up")
                return

    async def _take(
        self, batch: list[dict[str, Any]], held: list[dict[str, Any]] | None = None
    ) -> list[str]:
        """``batch``, the queued live events and those ``held`` (delivered after the
        queued ones), those after the last one sent, in order and without gaps (a
        gap filled from the database, a repeat dropped); ``_Dropped`` if the bus
        dropped this subscriber."""
        while not self.sub.queue.empty():
            batch.append(self.sub.queue.get_nowait())
        if held:
            batch.extend(held)
        events, self.sent, end = await live_after(self.db, self.match_id, batch, self.sent)
        if end == "closed":
            raise _Dropped
        return [data for _seq, data in events]

    async def forward(self, backlog: list[tuple[int, str]], sent: int) -> None:
        """The match's events: the backlog, then the live ones. Ends the socket when
        the bus drops it (too slow, or the server stopping)."""
        self.sent = sent
        if backlog:
            self.sent = backlog[-1][0]
            await self._send_text(_events([data for _seq, data in backlog]))
        try:
            while True:
                first = await self.sub.queue.get()
                async with self._writing:
                    events = await self._take([first])
                    if events:
                        await self._send_text(_events(events))
        except _Dropped:
            await self.ws.close(code=TRY_AGAIN, reason="reconnect to catch up")


class _Dropped(Exception):
    """The bus dropped this socket's subscription."""


def _events(datas: list[str]) -> str:
    """One frame for events already in JSON (as stored, or as published)."""
    return '{"type":"events","events":[' + ",".join(datas) + "]}"
