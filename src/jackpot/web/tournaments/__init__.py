"""Swiss tournaments, above play/: entries, rounds paired from the standings, their tables' matches.

Its tables are base/tables/tournaments.py; docs/tournaments.md states the rules.
"""
