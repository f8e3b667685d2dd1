"""Check a record (a match, or a daily entry) from first principles.

Every die is re-derived from the published seeds, every cover is checked against what
the dice offered, every bot move against its strength's rule, and the result against
a fresh replay on the engine, by the rules of the record's format. The first
difference stops the check. A record whose server seed is not published yet (a match
in progress, a daily entry before its day closes) is checked as far as it can be
without the seed, and the report says what waits for it; so is one whose seed is made
of parts not published yet (a tournament's, until the tournament ends).

Where the match came from (``"origin"``) and whose client seed the server made
(``"seed_by"``) change nothing that is checked: the report says them, beside the checks.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from jackpot.engine import Match, Result, Variant
from jackpot.fair.record import Record, RecordFormatError, parse_record
from jackpot.fair.replay import (
    Difference,
    Tally,
    replay,
    resignations_before_cover,
    seat_name,
)
from jackpot.fair.verify_daily import (
    DailyReport,
    check_daily_client_seed,
    check_entry,
    daily_waiting,
)
from jackpot.fair.verify_seeds import (
    check_bot_strengths,
    check_order_of_play,
    check_parts,
    check_people_parts,
    people_in_joining_order,
    record_notes,
)

__all__ = ["DailyReport", "Verification", "resignations_before_cover", "verify"]


@dataclass(frozen=True, slots=True)
class Verification:
    ok: bool
    #: What was checked and found right, one sentence each, in order.
    checks: list[str] = field(default_factory=list)
    #: The first thing found wrong (None when ok); when ``awaiting_seed``, what waits.
    problem: str | None = None
    summary: str = ""
    #: Nothing was found wrong, but the server seed is not published yet: the dice
    #: (and whatever else comes from the seed) cannot be checked before it is.
    awaiting_seed: bool = False
    #: A daily entry's result, par and standing against par (None for a match).
    daily: DailyReport | None = None
    #: Everything else holds, but the seed's parts are not published yet (a tournament's
    #: are, when it ends): that the seed is made of them waits for them.
    awaiting_parts: bool = False
    #: What the record says that no check depends on (its origin, the client seeds the
    #: server made), one sentence each.
    notes: list[str] = field(default_factory=list)

    @property
    def waiting(self) -> bool:
        """Nothing found wrong, and something is still to be published."""
        return self.awaiting_seed or self.awaiting_parts


def verify(record: Record | str | bytes | Mapping[str, Any]) -> Verification:
    """Verify a record (or its JSON text or decoded object)."""
    checks: list[str] = []
    notes: list[str] = []
    daily: list[DailyReport] = []
    try:
        try:
            # A Record built in code skipped the parser's checks; round-tripping it
            # through them means the replay below only ever sees well-formed values.
            source = record.to_dict() if isinstance(record, Record) else record
            record = parse_record(source)
        except RecordFormatError as exc:
            raise Difference(f"format: {exc}") from None
        except (TypeError, ValueError, AttributeError) as exc:
            raise Difference(f"format: not a jackpot record ({exc})") from None
        what = " (a daily entry)" if record.daily is not None else ""
        checks.append(f"format: the record is well-formed {record.format}{what}")
        notes = record_notes(record)
        summary = _verify(record, checks, daily)
    except _Waiting as waiting:
        return Verification(
            ok=False,
            checks=checks,
            problem=str(waiting),
            summary=f"not verifiable yet: {waiting}",
            awaiting_seed=not waiting.parts,
            daily=daily[0] if daily else None,
            awaiting_parts=waiting.parts,
            notes=notes,
        )
    except Difference as problem:
        return Verification(
            ok=False,
            checks=checks,
            problem=str(problem),
            summary=f"invalid: {problem}",
            notes=notes,
        )
    return Verification(
        ok=True,
        checks=checks,
        problem=None,
        summary=summary,
        daily=daily[0] if daily else None,
        notes=notes,
    )


class _Waiting(Exception):
    """Everything that could be checked without the seed (or without its parts) holds;
    the rest waits for it."""

    def __init__(self, message: str, *, parts: bool = False) -> None:
        super().__init__(message)
        self.parts = parts


def _verify(record: Record, checks: list[str], daily: list[DailyReport]) -> str:
    server_seed = record.server_seed
    if server_seed is not None:
        digest = hashlib.sha256(server_seed.encode("ascii")).hexdigest()
        if digest != record.commitment:
            raise Difference(
                f"commitment: the SHA-256 of the server seed is {digest}, "
                f"not the commitment {record.commitment} shown at the start"
            )
        checks.append("commitment: the SHA-256 of the server seed is the commitment")
    parts_hidden = check_parts(record, checks)
    if record.daily is not None:
        check_daily_client_seed(record, checks)
    else:
        check_people_parts(record, checks)
    check_order_of_play(record, server_seed, checks)
    if server_seed is not None:
        check_bot_strengths(record, server_seed, checks)
    tally = Tally()
    match = replay(record, server_seed, tally)
    _say_replayed(record, tally, checks)
    if record.daily is not None:
        report, summary = check_entry(record, match, checks)
        daily.append(report)
        if server_seed is None:
            raise _Waiting(daily_waiting(record))
        return summary
    if not match.finished:
        turn = match.turn
        assert turn is not None
        if server_seed is None and record.result is None:
            raise _Waiting(_match_waiting(record))
        due = "a throw" if turn.dice is None else "a cover"
        raise Difference(
            f"events: the record ends before the match is over "
            f"({seat_name(record, turn.seat)} owes {due})"
        )
    summary = _check_result(record, match, tally, checks)
    if server_seed is None:
        raise _Waiting(_match_waiting(record))
    if parts_hidden:
        raise _Waiting(
            "the parts of the server seed are not published yet (a tournament's are "
            "published when the tournament ends): that the seed is made of them waits "
            "for them; everything else holds",
            parts=True,
        )
    return summary


def _match_waiting(record: Record) -> str:
    waits = ["the dice"]
    if record.joined is not None and len(record.seats) > 1:
        waits.append("the order of play")
    if any(s.is_bot for s in record.seats):
        waits.append("the bots' strengths and moves")
    listed = ", ".join(waits[:-1]) + " and " + waits[-1] if len(waits) > 1 else waits[0]
    return (
        "the server seed is not published yet (it is published when the match ends): "
        f"{listed} wait for it"
    )


def _say_replayed(record: Record, tally: Tally, checks: list[str]) -> None:
    throws = tally.throws
    if throws:
        if record.daily is not None:
            checks.append(
                f"throws: {throws} throws, turn t's numbered from 16t on in order, each "
                "turn ended by a dead throw or a shut box before the next began"
            )
        else:
            checks.append(
                f"throws: {throws} throws numbered 0-{throws - 1} in order, "
                "each by the seat whose turn it was"
            )
        if record.server_seed is not None:
            by_position = record.daily is not None and record.daily.by_position
            how = " for its turn and the tiles it faced (by position)" if by_position else ""
            checks.append(f"dice: every throw's dice are the ones the seeds give{how}")
        if record.variant is Variant.CLASSIC:
            checks.append(
                f"dice counts: {tally.one_die} one-die throw(s), each with 7, 8 and 9 covered"
                if tally.one_die
                else "dice counts: every throw was two dice"
            )
        checks.append(
            f"covers: every cover was on offer; {tally.dead} dead throw(s) offered nothing"
        )
        if tally.bot_moves:
            checks.append(
                f"bots: all {tally.bot_moves} bot throws and covers follow their strength"
            )
    if record.daily is None:
        checks.append("outs: " + ("; ".join(tally.outs) if tally.outs else "nobody left the match"))
    if record.spares:
        # Bots move at once: only the people's spares are worth listing.
        used = [
            f"{seat_name(record, s)} {tally.spares.get(s, 0)}"
            for s in people_in_joining_order(record)
        ]
        checks.append(
            f"spares: each seat had {record.spares} spare deadline(s) and used at most that "
            f"({', '.join(used)}); a timeout came only with none left"
        )
    if tally.last_round is not None:
        checks.append(
            f"last round: the tournament round's time ran out in round {tally.last_round}, "
            "and the match ended with it"
        )


def _check_result(record: Record, match: Match, tally: Tally, checks: list[str]) -> str:
    replayed = match.result
    assert isinstance(replayed, Result)
    theirs = record.result
    if theirs is None:
        raise Difference(
            f"result: record says null, replay gives {json.dumps(replayed.to_dict())}"
        )
    mine = replayed.to_dict()
    for key, value in theirs.to_dict().items():
        if value != mine[key]:
            raise Difference(
                f"result.{key}: record says {json.dumps(value)}, "
                f"replay gives {json.dumps(mine[key])}"
            )
    shared = record.rules >= 3 and record.variant is Variant.CLASSIC
    rule = " (by /3: a shut box's followers share the next place)" if shared else ""
    checks.append(f"result: rounds, totals, shut, places{rule} and winners equal the replay's")
    seats = len(record.seats)
    plural = "s" if seats != 1 else ""
    head = f"valid: {record.variant}, {seats} seat{plural}, {tally.throws} throws"
    names = [seat_name(record, s) for s in replayed.winners]
    if not names:
        return f"{head}, no winner"
    if len(names) == 1:
        return f"{head}, winner {names[0]}"
    return f"{head}, draw between {', '.join(names[:-1])} and {names[-1]}"
