"""What every feature of the site stands on; it imports no feature.

Settings, errors, the clock, the database and its tables, mail, the live-event bus,
and the HTTP helpers (who is asking, forms, templates, error shapes, middleware).
"""
