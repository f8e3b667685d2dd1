"""Moves the server makes for a seat: every move of a bot, and a person's forced moves.

A person who plays at their own pace should only be asked for decisions. Every
Jackpot throw is two dice, and a Classic throw is too until 7, 8 and 9 are down; a
throw that offers one option leaves nothing to choose. Autoplay makes exactly those
moves for a person who asked for it; what is left for them is always a real choice.

The dice arrive through ``roll(n, count)`` so this stays pure: the caller binds it
to the match's seed (``jackpot.fair.throw_dice``), a test binds it to chosen dice.
A verifier cannot tell these moves from pressed ones, and needs not: they are the
same moves with the same fair dice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from jackpot.engine import Event, Match, Option, TurnEnded
from jackpot.strategy.bots import choose_cover, choose_dice_count
from jackpot.strategy.strength import Strength

Roll = Callable[[int, int], tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class AutoplayPrefs:
    """Which forced moves a person lets the server make for them."""

    #: Throw when the throw is not a choice (every Jackpot throw; Classic two dice
    #: while the one-die choice is closed).
    throws: bool = False
    #: Cover when the throw offers exactly one option.
    single_covers: bool = False


OFF = AutoplayPrefs()
ON = AutoplayPrefs(throws=True, single_covers=True)


@dataclass(frozen=True, slots=True)
class AutoThrow:
    count: int = 2


@dataclass(frozen=True, slots=True)
class AutoCover:
    tiles: Option


AutoMove = AutoThrow | AutoCover


def is_real_choice(match: Match) -> bool:
    """Whether the move now due, whoever owes it, is a decision (False once it is over).

    A throw is one when one die or two may be chosen; a cover when there are two
    options or more. Anything else is forced: autoplay with both switches on makes it.
    """
    return match.turn is not None and forced_move(match, match.turn.seat, ON) is None


def forced_move(match: Match, seat: int, prefs: AutoplayPrefs) -> AutoMove | None:
    """The move autoplay makes for ``seat`` now; None on a real choice, another's turn, the end."""
    turn = match.turn
    if turn is None or turn.seat != seat:
        return None
    if turn.dice is None:
        return AutoThrow() if prefs.throws and not match.may_throw_one_die else None
    if prefs.single_covers and len(turn.options) == 1:
        return AutoCover(turn.options[0])
    return None


def make(match: Match, seat: int, move: AutoMove, roll: Roll) -> tuple[Match, list[Event]]:
    if isinstance(move, AutoThrow):
        return match.throw(seat, roll(match.throws, move.count))
    return match.cover(seat, move.tiles)


def autoplay(
    match: Match, seat: int, prefs: AutoplayPrefs, roll: Roll
) -> tuple[Match, list[Event]]:
    """Make ``seat``'s forced moves until a real choice, the end of its turn, or another's turn."""
    events: list[Event] = []
    while (move := forced_move(match, seat, prefs)) is not None:
        match, caused = make(match, seat, move, roll)
        events.extend(caused)
        if any(isinstance(e, TurnEnded) for e in caused):
            break
    return match, events


def bot_step(match: Match, strength: Strength, roll: Roll) -> tuple[Match, list[Event]]:
    """One action of the seat whose turn it is: a throw, or the cover it owes."""
    turn = match.turn
    if turn is None:
        raise ValueError("the match is over")
    if turn.dice is None:
        count = choose_dice_count(match.variant, strength, turn.open)
        return match.throw(turn.seat, roll(match.throws, count))
    return match.cover(turn.seat, choose_cover(match.variant, strength, turn.open, turn.dice))


def play_on(
    match: Match,
    strengths: Sequence[Strength | None],
    roll: Roll,
    prefs: Sequence[AutoplayPrefs] = (),
) -> tuple[Match, list[Event]]:
    """Let bots move, and people's forced moves be made, until a person must decide.

    ``prefs[s]`` is seat s's autoplay (OFF where missing). Every throw and cover among
    the returned events was made by a bot or by autoplay, so a caller can tell the
    person's seats' moves apart as "made for you" without any mark in the events.
    """
    events: list[Event] = []
    while match.turn is not None:
        seat = match.turn.seat
        strength = strengths[seat]
        if strength is not None:
            match, caused = bot_step(match, strength, roll)
        else:
            match, caused = autoplay(match, seat, prefs[seat] if seat < len(prefs) else OFF, roll)
            if not caused:
                break
        events.extend(caused)
    return match, events


def play_bots(
    match: Match, strengths: Sequence[Strength | None], roll: Roll
) -> tuple[Match, list[Event]]:
    """Let bot seats move until a human seat is due or the match ends ("bots move at once")."""
    return play_on(match, strengths, roll)
