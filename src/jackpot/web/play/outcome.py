"""What an action did, for its caller to answer with: the match, its events, its rows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jackpot.engine import Match
from jackpot.web.base.errors import ApiError


@dataclass
class Outcome:
    """What an action did: the match id and the live events it published on commit."""

    match_id: str
    events: list[dict[str, Any]] = field(default_factory=list)
    #: The match row and seats as written, so the caller can answer with the new
    #: state without reading it back (None when the action did not keep them).
    row: dict[str, Any] | None = None
    seat_rows: list[Any] | None = None
    #: A move refused after its due time: the timeout was written and must be
    #: committed and published; the caller raises this afterwards.
    refusal: ApiError | None = None
    #: The engine's state in ``row`` (saves decoding it again for the answer).
    match: Match | None = None
