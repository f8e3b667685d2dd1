"""Check a record (a match, or a daily entry) from first principles.

Every die is re-derived from the published seeds, every cover is checked against what
the dice offered, every bot move against its strength's rule, and the result against
a fresh replay on the engine, by the rules of the record's format. The first
difference stops the check. A record whose server seed is not published yet (a match
in progress, a daily entry before its day closes) is checked as far as it can be
without the seed, and the report says what waits for it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from jackpot.engine import Match, Result, Variant
from jackpot.fair.dice import bot_strength
from jackpot.fair.record import Record, RecordFormatError, parse_record
from jackpot.fair.replay import (
    Difference,
    Tally,
    replay,
    resignations_before_cover,
    seat_name,
)
from jackpot.fair.seating import order_of_play, seats_label
from jackpot.fair.seeds import check_client_seed, split_client_seed
from jackpot.fair.verify_daily import (
    DailyReport,
    check_daily_client_seed,
    check_entry,
    daily_waiting,
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


def verify(record: Record | str | bytes | Mapping[str, Any]) -> Verification:
    """Verify a record (or its JSON text or decoded object)."""
    checks: list[str] = []
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
        summary = _verify(record, checks, daily)
    except _Waiting as waiting:
        return Verification(
            ok=False,
            checks=checks,
            problem=str(waiting),
            summary=f"not verifiable yet: {waiting}",
            awaiting_seed=True,
            daily=daily[0] if daily else None,
        )
    except Difference as problem:
        return Verification(
            ok=False, checks=checks, problem=str(problem), summary=f"invalid: {problem}"
        )
    return Verification(
        ok=True, checks=checks, problem=None, summary=summary, daily=daily[0] if daily else None
    )


class _Waiting(Exception):
    """Everything that could be checked without the seed holds; the rest waits for it."""


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
    if record.daily is not None:
        check_daily_client_seed(record, checks)
    else:
        _check_client_seed(record, checks)
    _check_order_of_play(record, server_seed, checks)
    if server_seed is not None:
        _check_bot_strengths(record, server_seed, checks)
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


def _people_in_joining_order(record: Record) -> list[int]:
    """The human seats (numbered in the order of play) in the order they joined."""
    joined = record.joined or tuple(range(len(record.seats)))
    people = (i for i, s in enumerate(record.seats) if not s.is_bot)
    return sorted(people, key=joined.__getitem__)


def _check_client_seed(record: Record, checks: list[str]) -> None:
    humans = _people_in_joining_order(record)
    parts = split_client_seed(record.client_seed)
    if humans and len(parts) != len(humans):
        raise Difference(
            f"client seed: {record.client_seed!r} has {len(parts)} part(s) joined by '.', "
            f"but the match has {len(humans)} human seat(s), one part each"
        )
    for k, part in enumerate(parts):
        try:
            check_client_seed(part)
        except ValueError as exc:
            whose = seat_name(record, humans[k]) if humans else f"part {k + 1}"
            raise Difference(f"{exc} (the part of {whose})") from None
    if humans:
        order = "joining" if record.joined is not None else "seat"
        checks.append(
            f"client seed: {len(parts)} well-formed part(s), one for each human seat in "
            f"{order} order, so every player had a hand in the dice"
        )
    else:
        # Nobody has a stake in a bots-only match (selfplay): whoever ran it chose
        # the client seed, and any well-formed one will do.
        checks.append("client seed: well-formed (no seat is human, so anyone could choose it)")


def _check_order_of_play(record: Record, server_seed: str | None, checks: list[str]) -> None:
    """``/2`` on: the seats play in the order the seed draws from their joining order.

    People join first (the creator first) and bots after them, so a bot with a lower
    joining index than a person is a record that moved a bot into a person's place.
    That much holds without the seed; the draw itself needs it.
    """
    joined = record.joined
    if joined is None or record.daily is not None:
        return
    people = sum(1 for s in record.seats if not s.is_bot)
    for seat, index in enumerate(joined):
        is_person = not record.seats[seat].is_bot
        if is_person != (index < people):
            kind = "a person" if is_person else "a bot"
            raise Difference(
                f"joined[{seat}]: {seat_name(record, seat)} is {kind} with joining index "
                f"{index}, but the {people} person(s) join first (indices 0-{people - 1}) "
                "and bots after them"
                if people
                else f"joined[{seat}]: expected a bot's joining index, got {index}"
            )
    if server_seed is None:
        checks.append("order of play: people before bots in the joining order")
        return
    drawn = order_of_play(server_seed, record.client_seed, len(record.seats), people=people)
    if joined != drawn:
        source = (
            "a match without people keeps the joining order"
            if people == 0
            else f"the seed draws {list(drawn)} from the label {seats_label(record.client_seed)!r}"
        )
        raise Difference(f"joined: record says {list(joined)}, but {source}")
    how = "drawn from the seed" if people else "the joining order (no person to draw for)"
    checks.append(f"order of play: {list(joined)} (joining index of each seat), {how}")


def _check_bot_strengths(record: Record, server_seed: str, checks: list[str]) -> None:
    drawn = []
    for seat, entry in enumerate(record.seats):
        if entry.bot is None:
            continue
        strength = bot_strength(server_seed, record.client_seed, seat)
        if strength is not entry.bot:
            raise Difference(
                f"seats[{seat}].bot: record says {entry.bot}, "
                f"the seed draws {strength} for {seat_name(record, seat)}"
            )
        drawn.append(f"{seat_name(record, seat)} {strength}")
    if drawn:
        checks.append("bot strengths: drawn from the seed as recorded: " + ", ".join(drawn))


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
            checks.append("dice: every throw's dice are the ones the seeds give")
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
