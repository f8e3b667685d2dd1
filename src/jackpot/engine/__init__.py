"""Pure rules of Jackpot and Classic Shut the Box: no I/O, no clock, no randomness."""

from jackpot.engine.errors import (
    BadDice,
    IllegalMove,
    MatchOver,
    NotOnOffer,
    NotYourTurn,
    SeatIsOut,
    UnknownSeat,
    WrongPhase,
)
from jackpot.engine.events import (
    Covered,
    Event,
    MatchEnded,
    SeatOut,
    Thrown,
    TurnEnded,
    TurnStarted,
)
from jackpot.engine.match import REASONS, Match, Turn
from jackpot.engine.result import Result
from jackpot.engine.tiles import (
    FULL,
    TILES,
    Option,
    Variant,
    describe_options,
    from_mask,
    may_throw_one_die,
    options,
    score,
    to_mask,
)

BadDiceCount = BadDice

__all__ = [
    "FULL",
    "REASONS",
    "TILES",
    "BadDice",
    "BadDiceCount",
    "Covered",
    "Event",
    "IllegalMove",
    "Match",
    "MatchEnded",
    "MatchOver",
    "NotOnOffer",
    "NotYourTurn",
    "Option",
    "Result",
    "SeatIsOut",
    "SeatOut",
    "Thrown",
    "Turn",
    "TurnEnded",
    "TurnStarted",
    "UnknownSeat",
    "Variant",
    "WrongPhase",
    "describe_options",
    "from_mask",
    "may_throw_one_die",
    "options",
    "score",
    "to_mask",
]
