"""Exact solver, the three bots and Monte Carlo simulation: pure, no I/O, no clock.

Randomness comes only from the ``numpy.random.Generator`` a caller passes to
:func:`jackpot.strategy.simulate.simulate`.
"""

from jackpot.strategy import analysis, bots, simulate, solver
from jackpot.strategy.strength import STRENGTH_ORDER, Strength

__all__ = ["STRENGTH_ORDER", "Strength", "analysis", "bots", "simulate", "solver"]
