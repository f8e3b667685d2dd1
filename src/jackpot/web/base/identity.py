"""Who is asking: the actor behind a session cookie or an API token, cached briefly.

Every request reads this; signing up, logging in and the rest of what changes an
account live in ``accounts/``. Cookies and tokens are random secrets of which only a
SHA-256 is stored.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from sqlalchemy import Delete, Select, Update, bindparam, event, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from jackpot.web.base.clock import utcnow
from jackpot.web.base.live.bus import EventBus
from jackpot.web.base.tables import core as t

SESSION_COOKIE = "jackpot_session"
CSRF_COOKIE = "jackpot_csrf"
#: Longest credential looked up: anything longer is nobody's.
MAX_TOKEN = 200


@dataclass(frozen=True)
class Actor:
    """Who is acting: an account or a guest (a user row without email)."""

    user_id: int
    name: str
    is_guest: bool


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


#: Set in a connection's ``info`` by ``ActorCache.watch``.
DIRTY = "jackpot.actors_changed"

CacheKey = tuple[tuple[str, ...], str]

#: The execution option of a users UPDATE that leaves who a credential belongs to as
#: it was (last seen, language, leaderboard, autoplay): ``.execution_options(**KEEPS_ACTOR)``.
#: The cache is kept: clearing it in every process at each sign-in would send every
#: open socket's next move to the database.
KEEPS_ACTOR_OPTION = "jackpot_keeps_actor"
KEEPS_ACTOR = {KEEPS_ACTOR_OPTION: True}


class ActorCache:
    """Who a credential belongs to, remembered for at most ``ttl`` seconds.

    The lookup is a read transaction on every request, and a match's socket asked
    again every second; this saves it. Within the process it is never stale:
    ``watch`` clears it whenever a statement changes the users or credentials
    tables (log-out, sign-up, password change or reset, renaming, the guest sweep)
    and again when that transaction ends (``changed``), and an answer read while
    such a change was under way is not kept (``generation``). Another process's
    change (a log-out served by another worker) is seen here at most ``ttl``
    seconds later, or at once where ``share_changes`` hears of it.
    """

    #: Seconds an entry lives where other processes' changes go unheard.
    TTL = 1.0
    MAX_ENTRIES = 10_000

    def __init__(self) -> None:
        self.generation = 0
        self.ttl = self.TTL
        #: Tells the other processes that users or credentials changed (share_changes).
        self.announce: Callable[[], None] | None = None
        self._entries: dict[CacheKey, tuple[float, Actor, datetime | None]] = {}

    def get(self, key: CacheKey) -> Actor | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        stored, actor, expires_at = entry
        if time.monotonic() - stored > self.ttl or (
            expires_at is not None and expires_at < utcnow()
        ):
            self._entries.pop(key, None)
            return None
        return actor

    def put(
        self, key: CacheKey, actor: Actor, expires_at: datetime | None, generation: int
    ) -> None:
        if generation != self.generation:
            return  # a change to credentials or users began meanwhile
        if len(self._entries) >= self.MAX_ENTRIES:
            self._entries.clear()
        self._entries[key] = (time.monotonic(), actor, expires_at)

    def invalidate(self) -> None:
        self.generation += 1
        self._entries.clear()

    def changed(self) -> None:
        """A transaction that changed users or credentials has ended: forget what
        readers may have cached from the rows it replaced, here and elsewhere."""
        self.invalidate()
        if self.announce is not None:
            self.announce()

    def watch(self, engine: AsyncEngine) -> None:
        """Clear on every UPDATE or DELETE of users or credentials run on ``engine``,
        and mark the connection so that ``Database.write`` clears again once the
        transaction has ended (readers may have seen the old rows until then)."""

        @event.listens_for(engine.sync_engine, "before_execute")
        def _before_execute(conn: Any, clause: Any, *_args: Any) -> None:
            if (
                isinstance(clause, Update | Delete)
                and (clause.table is t.users or clause.table is t.credentials)
                and not clause.get_execution_options().get(KEEPS_ACTOR_OPTION)
            ):
                conn.info[DIRTY] = True
                self.invalidate()


#: The bus channel on which a process says that users or credentials changed.
CREDENTIALS_CHANNEL = "credentials"


def share_changes(actors: ActorCache, bus: EventBus, alone: bool, seconds: float) -> None:
    """Keep entries for ``seconds`` where every change reaches this process: with
    the Redis bus, each process announces its changes and clears its entries on
    hearing another's (and whenever its subscription broke, when it may have
    missed one); ``alone``, the only server process, it makes them all itself.
    Otherwise (several workers without Redis) entries keep the one-second ``TTL``."""
    if bus.sees_every_process:
        actors.announce = lambda: bus.post(CREDENTIALS_CHANNEL, [{"type": "credentials"}])

        def heard(channel: str, _events: Sequence[dict[str, Any]]) -> None:
            if channel == CREDENTIALS_CHANNEL:
                actors.invalidate()

        bus.listeners.append(heard)
        bus.gap_listeners.append(actors.invalidate)
    if bus.sees_every_process or alone:
        actors.ttl = seconds


#: The credential lookup of every request, built once per kind of credential (a
#: prebuilt statement skips building the expression and its cache key each time).
_ACTOR_QUERIES: dict[tuple[str, ...], Select[Any]] = {}


class Found(NamedTuple):
    actor: Actor
    expires_at: datetime | None
    last_used_at: datetime | None


#: A token's "last used" is written at most this often (a write per request would
#: cost more than the request).
LAST_USED_STEP = timedelta(minutes=5)


async def note_token_use(conn: AsyncConnection, token: str, now: datetime) -> None:
    await conn.execute(
        update(t.credentials)
        .where(t.credentials.c.token_hash == token_hash(token))
        .values(last_used_at=now)
    )


async def lookup_token(
    conn: AsyncConnection, token: str, kinds: tuple[str, ...]
) -> Found | None:
    """The actor a live credential belongs to, when it expires and was last used."""
    if not token or len(token) > MAX_TOKEN:
        return None
    query = _ACTOR_QUERIES.get(kinds)
    if query is None:
        query = _ACTOR_QUERIES[kinds] = (
            select(
                t.users.c.id,
                t.users.c.name,
                t.users.c.is_guest,
                t.credentials.c.expires_at,
                t.credentials.c.last_used_at,
            )
            .join(t.credentials, t.credentials.c.user_id == t.users.c.id)
            .where(
                t.credentials.c.token_hash == bindparam("token_hash"),
                t.credentials.c.kind.in_(kinds),
            )
        )
    row = (await conn.execute(query, {"token_hash": token_hash(token)})).first()
    if row is None or (row.expires_at is not None and row.expires_at < utcnow()):
        return None
    actor = Actor(user_id=row.id, name=row.name, is_guest=bool(row.is_guest))
    return Found(actor, row.expires_at, row.last_used_at)
