"""What every feature of the site stands on; it imports no feature.

Its root holds what any layer asks for by name: settings, errors, the clock, who is
asking, limits and quotas, passwords and names, mail, background steps. Its wings:
``storage/`` (connections, the writer, group commit, migrations), ``tables/`` (every
table, one module per feature), ``live/`` (the event bus and what counts live
streams) and ``edge/`` (HTTP: middlewares, forms, templates, error shapes).
"""
