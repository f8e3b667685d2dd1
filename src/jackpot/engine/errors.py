"""Why an action was refused, in words a player understands.

Each kind is its own class so the web layer can map it to a status code
(out of turn and match over are conflicts; malformed dice are bad input) without
parsing messages. Each also carries the same thing as data, a ``reason`` and its
``facts`` (tiles, dice, options as tuples), so an edge can say it in another
language without parsing the English.
"""

from __future__ import annotations


class IllegalMove(ValueError):
    """An action the rules do not allow in the current state."""

    def __init__(self, message: str, reason: str = "illegal", **facts: object) -> None:
        super().__init__(message)
        self.reason = reason
        self.facts = facts


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
