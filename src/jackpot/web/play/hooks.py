"""The listeners other features give play/, registered once at start-up (web/wiring.py).

play/ changes matches and tells others without importing them: the ratings and the
end notices hear of every match's end (finish.py), the notices a move leaves are
planned by the planner set here (move_plan.py) and written as its feature says, and
a rematch offer is told to its listeners (rematch.py). Registering the same listener
twice keeps one: every app a process builds (tests build many) registers the same ones.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeVar

from jackpot.web.matches.news import (
    EndListener,
    NewsPlanner,
    NoticeWrites,
    RematchListener,
    no_news,
)
from jackpot.web.play.storage.move_statements import DIALECTS

L = TypeVar("L", EndListener, RematchListener)


@dataclass
class PlayHooks:
    match_end: list[EndListener] = field(default_factory=list)
    rematch: list[RematchListener] = field(default_factory=list)
    news: NewsPlanner = no_news


HOOKS = PlayHooks()


def plan_news_with(planner: NewsPlanner, writes: NoticeWrites) -> None:
    """The news a move leaves: planned by ``planner`` with the move, and written by
    the move's own statements as ``writes`` says (the feature's table, not play's)."""
    HOOKS.news = planner
    DIALECTS.use(writes)


def add(listeners: list[L], listener: L) -> None:
    """Register ``listener`` once, after those registered before it."""
    if listener not in listeners:
        listeners.append(listener)


@contextmanager
def listening(listeners: list[L], listener: L) -> Iterator[None]:
    """``listener`` registered for the block only (a test that watches play)."""
    add(listeners, listener)
    try:
        yield
    finally:
        listeners.remove(listener)
