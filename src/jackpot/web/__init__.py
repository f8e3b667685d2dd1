"""The web site: FastAPI app, database, actions, auth, pages, live events, sweeper.

Only this package (and ``jackpot.cli.web``) imports web frameworks; the pure core
(engine, fair, strategy) knows nothing of it.
"""
