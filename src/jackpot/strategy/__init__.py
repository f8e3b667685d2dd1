"""Exact solver, the three bots and Monte Carlo simulation: pure, no I/O, no clock.

Randomness comes only from the ``numpy.random.Generator`` a caller passes to
:func:`jackpot.strategy.simulate.simulate`. Sub-modules are imported where used
(``from jackpot.strategy.solver import ...``) so that fair play and the site do not
pay for loading NumPy.
"""

from jackpot.strategy.strength import STRENGTH_ORDER, Strength

__all__ = ["STRENGTH_ORDER", "Strength"]
