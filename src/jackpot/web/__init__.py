"""The web site, one sub-package per capability; app.py wires them.

base/ is what every feature stands on; matches/ reads matches; play/, accounts/,
players/ and notify/ are the features. Imports run app -> features -> base -> the
core (docs/architecture.md).

Only this package (and ``jackpot.cli.web``) imports web frameworks; the pure core
(engine, fair, strategy) knows nothing of it.
"""
