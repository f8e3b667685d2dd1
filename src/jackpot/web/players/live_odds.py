"""The odds of the position on the board now, for practice and bot matches, or once a match is over.

A match between people keeps its odds to itself while it is played: advice shown to
one person would help them against another. Practice alone and matches against bots
may show them (the match page's "show odds" switch), and any match may once it has
ended. What the answer holds is odds_view.py's.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from jackpot.strategy.match_odds import match_odds
from jackpot.web.base.edge.http import current_actor, db_of
from jackpot.web.base.errors import ApiError
from jackpot.web.base.storage.snapshots import match_of
from jackpot.web.matches import store
from jackpot.web.players.odds_view import position_json

router = APIRouter()


@router.get("/api/matches/{match_id}/odds")
async def odds_api(match_id: str, request: Request) -> dict[str, Any]:
    """The exact odds of the position on the board now: each option's chance of
    shutting the box this turn (``p_exact``) and its chances in the match (``p_win``,
    ``p_draw``, ``equity``: fractions such as "282877/15116544"), and the same for the
    position as a whole.

    Only where nobody can be helped against another person: practice alone and
    matches against bots, or any match once it has ended. Between people, during
    play, it is refused (403 ``odds_hidden``).
    """
    actor = await current_actor(request)
    async with db_of(request).read() as conn:
        row = await store.shown_match_row(conn, match_id, actor.user_id if actor else None)
        seat_rows = await store.seat_rows(conn, match_id)
    people = sum(1 for s in seat_rows if not s["is_bot"])
    if people >= 2 and row["status"] != "finished":
        raise ApiError(
            403,
            "odds_hidden",
            "odds are shown during play only in practice and against the bot; "
            "between people, the replay shows them once the match has ended",
        )
    match = match_of(row)
    if match is not None and match.daily and not match.finished:
        # Everyone plays the same dice against everyone else's choices: help with
        # them would be help against the others on the board.
        raise ApiError(
            403,
            "odds_hidden",
            "odds are not shown during a daily deal: the board compares the players' "
            "own choices; the replay shows them once the day has closed",
        )
    return position_json(match_odds(match) if match is not None else None, len(seat_rows))
