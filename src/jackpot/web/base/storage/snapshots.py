"""The engine's snapshot in a match row: the one place that writes it and reads it back.

A match row keeps the engine's state (``Match.to_dict()``) so that a move loads one
row rather than replaying the match; the snapshot's shape is the engine's own
business, and only the storage wings touch it: every other module asks here for the
``Match`` of a row (tests/test_architecture.py holds this).
"""

from __future__ import annotations

from typing import Any

from jackpot.engine import Match


def match_of(row: Any) -> Match | None:
    """The engine's state of a match row; None before the match started."""
    state = row["state"]
    return None if state is None else Match.from_dict(state)


def snapshot(match: Match) -> dict[str, Any]:
    """What a match row keeps of ``match`` (its ``state`` column)."""
    return match.to_dict()
