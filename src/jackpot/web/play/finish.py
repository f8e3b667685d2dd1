"""The one owner of a match's end: every way a match ends comes through here.

Played out, resigned, timed out, called off by its creator, left waiting past its
expiry: each action that ends a match calls ``finish`` inside its own transaction,
which tells every end listener the app registered (hooks.py): the ratings, the end
notices, and any feature that cares (a daily board, a tournament). What they write
commits or rolls back with the end itself; the end's live events go out after the
commit with the action's others (base/storage/db.py's ``publish_on_commit``). What the end
reveals (the server seed, the bots' strengths) is decided by matches/disclosure.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.engine import Event, MatchEnded, SeatOut
from jackpot.web.matches.disclosure import shown_seed, shown_strengths
from jackpot.web.matches.news import EndedBy, MatchEnd
from jackpot.web.matches.views import shown_parts
from jackpot.web.play.hooks import HOOKS


async def finish(conn: AsyncConnection, end: MatchEnd) -> None:
    """Tell every end listener, in the order they were registered."""
    for listener in HOOKS.match_end:
        await listener(conn, end)


def revealed(row: Any, seat_rows: Sequence[Any], now: datetime) -> dict[str, Any]:
    """What an ending's live event shows beside its result: the seed and the bots'
    strengths, where disclosure.py allows them as the match ends."""
    return {
        "server_seed": shown_seed(row, now, ending=True),
        "strengths": shown_strengths(row, seat_rows, now, ending=True),
        "parts": shown_parts(row, now, ending=True),
    }


def ended_by(events: Sequence[Event]) -> EndedBy:
    """How the engine's ``events`` ended the match: by the seat that went out just
    before the end (the last other seat resigned or ran out of time), else by play."""
    before: Event | None = None
    for ev in events:
        if isinstance(ev, MatchEnded):
            if isinstance(before, SeatOut):
                return "resigned" if before.reason == "resigned" else "timeout"
            return "played"
        before = ev
    return "played"
