"""The time of day in UTC, and how the API writes it.

Actions take ``now`` from their caller where they can, so tests and the sweeper can
say what time it is; everything else asks here.
"""

from __future__ import annotations

import functools
from datetime import UTC, datetime


def utcnow() -> datetime:
    return datetime.now(UTC)


def iso(when: datetime | None) -> str | None:
    """ISO 8601 to the second, with ``Z``: what every time in the API looks like."""
    if when is None:
        return None
    return _iso(when)


@functools.lru_cache(maxsize=1024)
def _iso(when: datetime) -> str:
    # Memoised: the same few times (a match's start, its deadline) are written in
    # answer after answer.
    return when.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
