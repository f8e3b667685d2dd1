"""Turn the engine's events into the record's event log (jackpot-record/1).

The engine reports a throw and its cover as two events; the record keeps them as
one entry, with the cover pending (``None``) until it arrives. A cover that never
arrives, because the seat went out or the match ended, stays ``None``. A spare deadline
used is an entry of its own, where it happened (after the throw whose cover was due).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from jackpot.engine import Covered, Event, LastRound, SeatOut, SpareUsed, Thrown
from jackpot.fair.entries import (
    LastRoundEntry,
    OutEntry,
    OutReason,
    RecordEvent,
    SpareEntry,
    ThrowEntry,
)


def append_events(log: list[RecordEvent], events: Iterable[Event]) -> None:
    """Add what the events say to ``log`` in place (only the last few entries are touched)."""
    for event in events:
        if isinstance(event, Thrown):
            cover: tuple[int, ...] | None = None if event.options else ()
            log.append(ThrowEntry(n=event.n, seat=event.seat, dice=event.dice, cover=cover))
        elif isinstance(event, Covered):
            for i in range(len(log) - 1, -1, -1):
                entry = log[i]
                if isinstance(entry, ThrowEntry) and entry.n == event.n:
                    log[i] = replace(entry, cover=event.tiles)
                    break
            else:
                raise ValueError(f"a cover for throw {event.n}, which is not in the log")
        elif isinstance(event, SeatOut):
            reason: OutReason = "resigned" if event.reason == "resigned" else "timeout"
            log.append(OutEntry(seat=event.seat, reason=reason))
        elif isinstance(event, SpareUsed):
            log.append(SpareEntry(seat=event.seat))
        elif isinstance(event, LastRound):
            log.append(LastRoundEntry(round=event.round))
