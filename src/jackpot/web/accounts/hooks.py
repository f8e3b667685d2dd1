"""The listeners features above accounts/ give it, registered once at start-up (web/wiring.py).

An account's own changes can touch what features above it keep: a block ends the
challenges between the two (people/), and a guest who makes an account gives its
name to the seats it sat in (play/). accounts/ cannot import those features, and
must not write their tables: it tells the listeners they registered, in the same
transaction, and each writes its own rows.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncConnection

#: ``listener(conn, blocker_id, blocked_id)``, in the transaction of a block.
BlockListener = Callable[[AsyncConnection, int, int], Awaitable[None]]
#: ``listener(conn, user_id, name)``: a guest became an account called ``name``.
NamedListener = Callable[[AsyncConnection, int, str], Awaitable[None]]

L = TypeVar("L", BlockListener, NamedListener)


@dataclass
class AccountHooks:
    block: list[BlockListener] = field(default_factory=list)
    guest_named: list[NamedListener] = field(default_factory=list)


ACCOUNT_HOOKS = AccountHooks()


def add(listeners: list[L], listener: L) -> None:
    """Register ``listener`` once: every app a process builds registers the same."""
    if listener not in listeners:
        listeners.append(listener)
