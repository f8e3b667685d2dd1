"""The analysis board's answer: a stated position's odds, written as a match's odds are.

The numbers are ``strategy.match_odds.position_odds``'s, the call a match's odds and
its replay make, and they are written by the same ``players/odds_view.py``: the same
fields as ``GET /api/matches/{id}/odds``, exact fractions beside the reader's
percentages. What the board adds: the choices best first, the position as it was
read (``variant``, ``stake``), its own address (``board``), and no seat.
"""

from __future__ import annotations

from typing import Any

from jackpot.strategy.classic_match import Facing
from jackpot.strategy.match_odds import PositionOdds, Stake, position_odds
from jackpot.web.analysis.position import BoardPosition
from jackpot.web.players.odds_view import board_link, option_json, position_json


def stake_json(stake: Stake) -> dict[str, int | None] | None:
    """What the seat plays for, in the query's own fields (None alone)."""
    if stake is None:
        return None
    if isinstance(stake, Facing):
        return {"beat": stake.to_beat, "holders": stake.holders, "after": stake.after}
    return {"seats": stake.seats_in, "shut": stake.shut_before, "after": stake.after}


def odds_of(position: BoardPosition) -> PositionOdds:
    return position_odds(position.variant, position.open_tiles, position.dice, position.stake)


def board_answer(position: BoardPosition) -> dict[str, Any]:
    """The position's odds as ``GET /api/analysis`` gives them: ``options`` (a throw's
    covers) or ``dice_options`` (one die or two) best first."""
    odds = odds_of(position)
    # Alone the measure is the chance of shutting the box; else the match.
    body = position_json(odds, 1 if position.stake is None else 2)
    ranked = [option_json(o) for o in odds.ranked()]
    if odds.decision == "cover":
        body["options"] = ranked
    elif odds.decision == "dice":
        body["dice_options"] = ranked
    body.update(
        seat=None,
        variant=str(position.variant),
        stake=stake_json(position.stake),
        board=board_link(position.variant, position.open_tiles, position.dice, position.stake),
    )
    return body
