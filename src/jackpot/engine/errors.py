"""Why an action was refused, in words a player understands.

Each kind is its own class so the web layer can map it to a status code
(out of turn and match over are conflicts; malformed dice are bad input) without
parsing messages.
"""

from __future__ import annotations


class IllegalMove(ValueError):
    """An action the rules do not allow in the current state."""


class MatchOver(IllegalMove):
    pass


class NotYourTurn(IllegalMove):
    pass


class SeatIsOut(IllegalMove):
    pass


class UnknownSeat(IllegalMove):
    pass


class WrongPhase(IllegalMove):
    """A throw while a cover is due, or a cover while a throw is due."""


class NotOnOffer(IllegalMove):
    pass


class BadDice(IllegalMove):
    """Dice that are not 1-6, or a one-die throw where two are required."""
