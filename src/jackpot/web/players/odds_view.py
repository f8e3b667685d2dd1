"""The odds of a position and of its options as the API and the replay write them.

Each chance goes out twice: exact, as the fraction ``str(Fraction)`` writes
("282877/15116544", "0", "1"), for anyone who wants to check it, and as a percentage
in the reader's language for the pages. ``p_exact`` / ``p_text`` are the chance of
shutting the box this turn (what the odds have always shown); ``p_win``, ``p_draw``
and ``equity`` are the seat's chances in the match (strategy/chances.py). In a solo
match there is nobody to beat: its ``p_win`` and ``equity`` are the chance of shutting
the box, and ``measure`` says so ("shut" rather than "match"). ``expected_score`` is
the lowest expected score of the turn from what an option leaves.

A position is also written as a link to the analysis board (``board_link``): the
replay's steps carry one, and the board reads the same fields back.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any, Literal
from urllib.parse import urlencode

from jackpot.engine import Variant
from jackpot.i18n.formats import number, percent
from jackpot.strategy.chances import Chances
from jackpot.strategy.classic_match import Facing
from jackpot.strategy.match_odds import OptionOdds, PositionOdds, Stake

Measure = Literal["match", "shut"]


def pct(p: Fraction | None) -> str | None:
    """A chance as the pages write it, two decimals in the reader's language."""
    return None if p is None else percent(float(p), 2)


def measure_of(seats: int) -> Measure:
    """What "chance to win" and "given away" measure in a match of ``seats`` seats."""
    return "match" if seats >= 2 else "shut"


def chances_json(chances: Chances | None) -> dict[str, Any]:
    """A seat's chances in the match, exact and as text (all None when there are none)."""
    if chances is None:
        return dict.fromkeys(
            ("p_win", "p_draw", "equity", "p_win_text", "p_draw_text", "equity_text")
        )
    return {
        "p_win": str(chances.p_win),
        "p_draw": str(chances.p_draw),
        "equity": str(chances.equity),
        "p_win_text": pct(chances.p_win),
        "p_draw_text": pct(chances.p_draw),
        "equity_text": pct(chances.equity),
    }


def option_json(option: OptionOdds) -> dict[str, Any]:
    """One option: a cover (``tiles``) or a dice count (``dice``), valued for the turn
    and for the match."""
    choice: dict[str, Any] = (
        {"tiles": list(option.tiles)} if option.tiles is not None else {"dice": option.dice_count}
    )
    return {
        **choice,
        "p_text": pct(option.p_shut),
        "p_exact": str(option.p_shut),
        **score_json(option.expected_score),
        **chances_json(option.chances),
    }


def score_json(expected: Fraction | None) -> dict[str, Any]:
    """An expected score, exact and with two decimals in the reader's language."""
    return {
        "expected_score": None if expected is None else str(expected),
        "expected_score_text": None if expected is None else number(float(expected), 2),
    }


def position_json(odds: PositionOdds | None, seats: int) -> dict[str, Any]:
    """The position of the seat now playing, as ``GET /api/matches/{id}/odds`` gives it.

    The fields the odds have always had come first (``seat``, ``open``, ``dice``,
    ``p_shut`` as text, ``options``: the throw's covers, ``best``); then the match's
    chances of the position and of each option, and the choice of one die or two
    when that is what the seat must decide (``dice_options``, ``best_dice``)."""
    body: dict[str, Any] = {
        "seat": None,
        "open": [],
        "dice": None,
        "p_shut": None,
        "p_shut_exact": None,
        **score_json(None),
        "ends_turn": False,
        "options": [],
        "best": None,
        "measure": measure_of(seats),
        "decision": None,
        **chances_json(None),
        "dice_options": [],
        "best_dice": None,
    }
    if odds is None:
        return body
    body.update(
        seat=odds.seat,
        open=sorted(odds.open_tiles),
        dice=None if odds.dice is None else list(odds.dice),
        p_shut=pct(odds.p_shut),
        p_shut_exact=str(odds.p_shut),
        **score_json(odds.expected_score),
        ends_turn=odds.ends_turn,
        decision=odds.decision,
        **chances_json(odds.chances),
    )
    best = odds.best
    if odds.decision == "cover":
        body["options"] = [option_json(o) for o in odds.options]
        body["best"] = None if best is None or best.tiles is None else list(best.tiles)
    elif odds.decision == "dice":
        body["dice_options"] = [option_json(o) for o in odds.options]
        body["best_dice"] = None if best is None else best.dice_count
    return body


def board_link(
    variant: Variant, open_tiles: Iterable[int], dice: Iterable[int] | None, stake: Stake
) -> str:
    """The analysis board's address for a position: ``variant``, ``open`` and ``dice``
    ("1,2,5", "3,4"; no dice: before the throw), and what the seat plays for (Classic:
    ``beat``, ``holders``, ``after``; Jackpot: ``seats``, ``shut``, ``after``; nothing
    for a seat alone)."""
    query: dict[str, str | int] = {
        "variant": str(variant),
        "open": ",".join(map(str, sorted(open_tiles))),
    }
    if dice:
        query["dice"] = ",".join(map(str, dice))
    if isinstance(stake, Facing):
        if stake.to_beat is not None:
            query.update(beat=stake.to_beat, holders=stake.holders)
        query["after"] = stake.after
    elif stake is not None:
        query.update(seats=stake.seats_in, shut=stake.shut_before, after=stake.after)
    return "/analysis?" + urlencode(query, safe=",")
