"""Playing a match: its life here (actions, new matches, seating, the end, rematch, sweeper).

``storage/`` holds a move's SQL and the matches this process keeps as committed; it is
the only part that reads or writes the engine's snapshot. ``edge/`` holds what faces
the network: the match API and pages, the fast lane, the match's socket and its SSE.
Features above play/ call the modules at its root and never import either wing.
"""
