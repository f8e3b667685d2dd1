"""The daily deal: the same dice for everyone, every day, measured against the best bot.

A feature above play/: it makes its entries with play/'s ``new_match``, hears of
their ends through the end listener it registers (web/wiring.py), and closes each
day in a background step through play/'s move transaction. Its tables are in
base/tables/daily.py; a player's own dailies are read by matches/dailies.py.
"""
