"""What a position is worth for the match: the chances to win alone and to share first, and equity.

A choice that keeps the most chance of shutting the box is not always the one that
keeps the most chance of winning: in Classic the seats after the first know the score
to beat, and a draw is worth something. Equity weighs a shared first place by the
number of seats sharing it (half a win against one other, a third against two), so
that the equities of every seat of a match add up to one and one number orders the
choices.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

ZERO = Fraction(0)
ONE = Fraction(1)


@dataclass(frozen=True, slots=True)
class Chances:
    """A seat's chances in its match, exact.

    ``p_draw`` is the chance of sharing first place with one or more other seats;
    ``equity`` = ``p_win`` + the sum over j of P(sharing first with j others) / (j + 1),
    which ``p_win`` and ``p_draw`` alone do not give when three or four seats may tie.
    """

    p_win: Fraction
    p_draw: Fraction
    equity: Fraction

    def ranks_above(self, other: Chances) -> bool:
        """The order in which choices are preferred: more equity, then more chance alone."""
        return (self.equity, self.p_win) > (other.equity, other.p_win)


#: A position from which the seat can no longer come first.
LOST = Chances(ZERO, ZERO, ZERO)
#: A shut box in Classic, and a match already won.
WON = Chances(ONE, ZERO, ONE)
