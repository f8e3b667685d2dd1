"""Check a finished match's record from first principles.

Every die is re-derived from the published seeds, every cover is checked against what
the dice offered, every bot move against its strength's rule, and the result against
a fresh replay on the engine. The first difference stops the check: after it, the
replay would be describing a match that did not happen, so any later complaint would
be noise.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jackpot.engine import IllegalMove, Match, Variant, describe_options, options
from jackpot.fair.dice import bot_strength, throw_dice
from jackpot.fair.record import (
    OutEntry,
    Record,
    RecordEvent,
    RecordFormatError,
    ThrowEntry,
    parse_record,
)
from jackpot.fair.seating import order_of_play, seats_label
from jackpot.fair.seeds import check_client_seed, split_client_seed
from jackpot.strategy.bots import choose_cover, choose_dice_count
from jackpot.strategy.strength import Strength


@dataclass(frozen=True, slots=True)
class Verification:
    ok: bool
    #: What was checked and found right, one sentence each, in order.
    checks: list[str] = field(default_factory=list)
    #: The first thing found wrong (None when ok).
    problem: str | None = None
    summary: str = ""


class _Problem(Exception):
    """Stops the replay at the first difference; its message is the verdict."""


def _tiles(tiles: tuple[int, ...] | None) -> str:
    return "null" if tiles is None else "[" + ", ".join(map(str, tiles)) + "]"


def _seat_name(record: Record, seat: int) -> str:
    return f"seat {seat} ({record.seats[seat].name})"


def verify(record: Record | str | bytes | Mapping[str, Any]) -> Verification:
    """Verify a record (or its JSON text or decoded object) of a finished match."""
    checks: list[str] = []
    try:
        try:
            # A Record built in code skipped the parser's checks; round-tripping it
            # through them means the replay below only ever sees well-formed values.
            source = record.to_dict() if isinstance(record, Record) else record
            record = parse_record(source)
        except RecordFormatError as exc:
            raise _Problem(f"format: {exc}") from None
        except (TypeError, ValueError, AttributeError) as exc:
            raise _Problem(f"format: not a jackpot record ({exc})") from None
        checks.append(f"format: the record is well-formed {record.format}")
        summary = _verify(record, checks)
    except _Problem as problem:
        return Verification(
            ok=False, checks=checks, problem=str(problem), summary=f"invalid: {problem}"
        )
    return Verification(ok=True, checks=checks, problem=None, summary=summary)


def _verify(record: Record, checks: list[str]) -> str:
    server_seed = record.server_seed
    if server_seed is None:
        raise _Problem("the server seed is not published yet: the match is not over")
    digest = hashlib.sha256(server_seed.encode("ascii")).hexdigest()
    if digest != record.commitment:
        raise _Problem(
            f"commitment: the SHA-256 of the server seed is {digest}, "
            f"not the commitment {record.commitment} shown at the start"
        )
    checks.append("commitment: the SHA-256 of the server seed is the commitment")
    _check_client_seed(record, checks)
    _check_order_of_play(record, server_seed, checks)
    _check_bot_strengths(record, server_seed, checks)
    match = _replay(record, server_seed, checks)
    return _check_result(record, match, checks)


def _people_in_joining_order(record: Record) -> list[int]:
    """The human seats (numbered in the order of play) in the order they joined."""
    joined = record.joined or tuple(range(len(record.seats)))
    return sorted((i for i, s in enumerate(record.seats) if s.bot is None), key=joined.__getitem__)


def _check_client_seed(record: Record, checks: list[str]) -> None:
    humans = _people_in_joining_order(record)
    parts = split_client_seed(record.client_seed)
    if humans and len(parts) != len(humans):
        raise _Problem(
            f"client seed: {record.client_seed!r} has {len(parts)} part(s) joined by '.', "
            f"but the match has {len(humans)} human seat(s), one part each"
        )
    for k, part in enumerate(parts):
        try:
            check_client_seed(part)
        except ValueError as exc:
            whose = _seat_name(record, humans[k]) if humans else f"part {k + 1}"
            raise _Problem(f"{exc} (the part of {whose})") from None
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


def _check_order_of_play(record: Record, server_seed: str, checks: list[str]) -> None:
    """``/2``: the seats play in the order the seed draws from their joining order.

    People join first (the creator first) and bots after them, so a bot with a lower
    joining index than a person is a record that moved a bot into a person's place.
    """
    joined = record.joined
    if joined is None:
        return
    people = sum(1 for s in record.seats if s.bot is None)
    for seat, index in enumerate(joined):
        is_person = record.seats[seat].bot is None
        if is_person != (index < people):
            kind = "a person" if is_person else "a bot"
            raise _Problem(
                f"joined[{seat}]: {_seat_name(record, seat)} is {kind} with joining index "
                f"{index}, but the {people} person(s) join first (indices 0-{people - 1}) "
                "and bots after them"
                if people
                else f"joined[{seat}]: expected a bot's joining index, got {index}"
            )
    drawn = order_of_play(server_seed, record.client_seed, len(record.seats), people=people)
    if joined != drawn:
        source = (
            "a match without people keeps the joining order"
            if people == 0
            else f"the seed draws {list(drawn)} from the label {seats_label(record.client_seed)!r}"
        )
        raise _Problem(f"joined: record says {list(joined)}, but {source}")
    how = "drawn from the seed" if people else "the joining order (no person to draw for)"
    checks.append(f"order of play: {list(joined)} (joining index of each seat), {how}")


def _check_bot_strengths(record: Record, server_seed: str, checks: list[str]) -> None:
    drawn = []
    for seat, entry in enumerate(record.seats):
        if entry.bot is None:
            continue
        strength = bot_strength(server_seed, record.client_seed, seat)
        if strength is not entry.bot:
            raise _Problem(
                f"seats[{seat}].bot: record says {entry.bot}, "
                f"the seed draws {strength} for {_seat_name(record, seat)}"
            )
        drawn.append(f"{_seat_name(record, seat)} {strength}")
    if drawn:
        checks.append("bot strengths: drawn from the seed as recorded: " + ", ".join(drawn))


def resignations_before_cover(events: Sequence[RecordEvent], i: int, match: Match) -> list[int]:
    """Indices of the resignations that came before the shutting cover of throw entry ``i``.

    A record keeps a cover with its throw, so another seat's resignation made while
    the cover was pending is listed after it. When the cover shuts the box it may end
    the match, after which nobody can resign: those outs must have come first, unless
    they would have left the thrower alone (who would then have won before covering).
    Only resignations: a timeout is for the seat whose move is due. Applying them
    first when the cover does not end the match changes nothing, so a replay may
    always do it. ``match`` is the state with the cover pending. The browser
    verifier applies the same rule.
    """
    thrower = events[i].seat
    following: list[int] = []
    for j in range(i + 1, len(events)):
        out = events[j]
        if not isinstance(out, OutEntry) or out.seat == thrower or out.reason != "resigned":
            break
        following.append(j)
    leavers = {events[j].seat for j in following}
    still_in = [s for s in range(match.seats) if match.out[s] is None and s not in leavers]
    return following if len(still_in) > 1 else []


def _replay(record: Record, server_seed: str, checks: list[str]) -> Match:
    match = Match.new(record.variant, len(record.seats))
    strengths: list[Strength | None] = [s.bot for s in record.seats]
    throws = dead = bot_moves = one_die = 0
    outs: list[str] = []
    events = record.events
    handled: set[int] = set()
    for i, event in enumerate(events):
        if i in handled:
            continue
        if match.finished:
            raise _Problem(f"events[{i}]: the match was already over")
        if isinstance(event, OutEntry):
            match = _leave(record, match, event, i)
            outs.append(f"{_seat_name(record, event.seat)} {event.reason}")
            continue

        def resignations_first(m: Match, i: int = i) -> Match:
            for j in resignations_before_cover(events, i, m):
                entry = events[j]
                assert isinstance(entry, OutEntry)
                m = _leave(record, m, entry, j)
                outs.append(f"{_seat_name(record, entry.seat)} {entry.reason}")
                handled.add(j)
            return m

        match = _throw(record, match, event, server_seed, strengths[event.seat], resignations_first)
        throws += 1
        dead += event.cover == ()
        one_die += len(event.dice) == 1
        bot_moves += strengths[event.seat] is not None
    if not match.finished:
        turn = match.turn
        assert turn is not None
        due = "a throw" if turn.dice is None else "a cover"
        raise _Problem(
            f"events: the record ends before the match is over "
            f"({_seat_name(record, turn.seat)} owes {due})"
        )
    if throws:
        checks.append(
            f"throws: {throws} throws numbered 0-{throws - 1} in order, "
            "each by the seat whose turn it was"
        )
        checks.append("dice: every throw's dice are the ones the seeds give")
        if record.variant is Variant.CLASSIC:
            checks.append(
                f"dice counts: {one_die} one-die throw(s), each with 7, 8 and 9 covered"
                if one_die
                else "dice counts: every throw was two dice"
            )
        checks.append(f"covers: every cover was on offer; {dead} dead throw(s) offered nothing")
        if bot_moves:
            checks.append(f"bots: all {bot_moves} bot throws and covers follow their strength")
    checks.append("outs: " + ("; ".join(outs) if outs else "nobody left the match"))
    return match


def _leave(record: Record, match: Match, event: OutEntry, i: int) -> Match:
    turn = match.turn
    # Only a move that is due has a deadline; anybody may resign at any moment.
    if event.reason == "timeout" and turn is not None and turn.seat != event.seat:
        raise _Problem(
            f"events[{i}]: {_seat_name(record, event.seat)} timed out, but no move of "
            f"theirs was due: it was {_seat_name(record, turn.seat)}'s turn"
        )
    try:
        match, _ = match.leave(event.seat, event.reason)
    except IllegalMove as exc:
        raise _Problem(f"events[{i}] (out): {exc}") from None
    return match


def _throw(
    record: Record,
    match: Match,
    event: ThrowEntry,
    server_seed: str,
    strength: Strength | None,
    before_shutting_cover: Callable[[Match], Match],
) -> Match:
    n = event.n
    # Problems count throws from 1, as the match page and the replay do; the record's
    # ``n`` (which the dice derive from) counts from 0.
    where = f"throw {n + 1}"
    if n != match.throws:
        raise _Problem(
            f"{where}: numbered n={n}, but the next throw of the match is throw "
            f"{match.throws + 1} (n={match.throws})"
        )
    turn = match.turn
    assert turn is not None
    if match.out[event.seat] is not None:
        raise _Problem(f"{where}: {_seat_name(record, event.seat)} threw but is out of the match")
    if event.seat != turn.seat:
        raise _Problem(
            f"{where}: {_seat_name(record, event.seat)} threw, "
            f"but it is {_seat_name(record, turn.seat)}'s turn"
        )
    if turn.dice is not None:
        raise _Problem(
            f"{where}: {_seat_name(record, turn.seat)} threw again "
            "before covering for the previous throw"
        )
    count = len(event.dice)
    if count == 1 and not match.may_throw_one_die:
        why = (
            "Jackpot is always played with two dice"
            if record.variant is Variant.JACKPOT
            else "one die is allowed only once 7, 8 and 9 are all covered"
        )
        raise _Problem(f"{where}: one die thrown, but {why}")
    if strength is not None:
        wanted = choose_dice_count(record.variant, strength, turn.open)
        if wanted != count:
            raise _Problem(
                f"{where}: {_seat_name(record, event.seat)} is a {strength} bot and throws "
                f"{wanted} dice here, not {count}"
            )
    seeded = throw_dice(server_seed, record.client_seed, n, count)
    if seeded != event.dice:
        raise _Problem(
            f"{where}: dice {_tiles(event.dice)} differ from the seed's {_tiles(seeded)}"
        )
    try:
        match, _ = match.throw(event.seat, event.dice)
    except IllegalMove as exc:  # pragma: no cover - the checks above pre-empt every refusal
        raise _Problem(f"{where}: {exc}") from None
    offered = options(record.variant, turn.open, event.dice)
    if event.cover == ():
        if offered:
            raise _Problem(
                f"{where}: cover [] (a dead throw), "
                f"but the dice offered {describe_options(offered)}"
            )
        return match
    if not offered:
        raise _Problem(
            f"{where}: cover {_tiles(event.cover)}, but the dice offered nothing: "
            "a dead throw is written []"
        )
    if event.cover is None:
        return match  # the seat went out, or the match ended, before covering
    if event.cover not in offered:
        raise _Problem(
            f"{where}: cover {_tiles(event.cover)} is not on offer: "
            f"the dice {' and '.join(map(str, event.dice))} reach {describe_options(offered)}"
        )
    if strength is not None:
        wanted_cover = choose_cover(record.variant, strength, turn.open, event.dice)
        if wanted_cover != event.cover:
            raise _Problem(
                f"{where}: {_seat_name(record, event.seat)} is a {strength} bot and covers "
                f"{_tiles(wanted_cover)} here, not {_tiles(event.cover)}"
            )
    if set(event.cover) == turn.open:
        match = before_shutting_cover(match)
    try:
        match, _ = match.cover(event.seat, event.cover)
    except IllegalMove as exc:  # pragma: no cover - membership was checked above
        raise _Problem(f"{where}: {exc}") from None
    return match


def _check_result(record: Record, match: Match, checks: list[str]) -> str:
    replayed = match.result
    assert replayed is not None
    theirs = record.result
    if theirs is None:
        raise _Problem(f"result: record says null, replay gives {json.dumps(replayed.to_dict())}")
    mine = replayed.to_dict()
    for key, value in theirs.to_dict().items():
        if value != mine[key]:
            raise _Problem(
                f"result.{key}: record says {json.dumps(value)}, "
                f"replay gives {json.dumps(mine[key])}"
            )
    checks.append("result: rounds, totals, shut, places and winners equal the replay's")
    return _summary(record, match)


def _summary(record: Record, match: Match) -> str:
    result = match.result
    assert result is not None
    seats = len(record.seats)
    head = (
        f"valid: {record.variant}, {seats} seat{'s' if seats != 1 else ''}, {match.throws} throws"
    )
    names = [_seat_name(record, s) for s in result.winners]
    if not names:
        return f"{head}, no winner"
    if len(names) == 1:
        return f"{head}, winner {names[0]}"
    return f"{head}, draw between {', '.join(names[:-1])} and {names[-1]}"
