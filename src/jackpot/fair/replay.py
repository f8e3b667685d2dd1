"""The verifier's replay of a record's events on the engine, checking each against the rules.

Every throw is checked for its number, its seat, its count of dice and (once the seed
is published) its dice; every cover against what the dice offered; every bot move,
once its strength is known, against its strength's rule. A record whose seed is not
yet published is replayed all the same, on the dice it shows: what the rules say of
those dice can be checked now, and whether they are the seed's waits for the seed.

Spare deadlines change no die and no position, so of a spare only this is checked: a
seat never used more than the record gives it, and went out by timeout only with none
left. (A spare used while a cover was due is listed after that cover's throw, which
the replay has already covered: so a spare is not tied to whose move the replay says is
due.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from jackpot.engine import (
    THROW_STRIDE,
    IllegalMove,
    Match,
    Variant,
    describe_options,
    options,
)
from jackpot.fair.dice import position_dice, position_label, throw_dice
from jackpot.fair.entries import LastRoundEntry, OutEntry, RecordEvent, SpareEntry, ThrowEntry
from jackpot.fair.record import Record
from jackpot.strategy.bots import choose_cover, choose_dice_count
from jackpot.strategy.strength import Strength


class Difference(Exception):
    """Stops the check at the first difference; its message is the verdict.

    After it, the replay would be describing a match that did not happen, so any
    later complaint would be noise.
    """


@dataclass
class Tally:
    """What the replay saw, for the checks' sentences."""

    throws: int = 0
    dead: int = 0
    one_die: int = 0
    bot_moves: int = 0
    outs: list[str] = field(default_factory=list)
    #: Spare deadlines used by each seat.
    spares: dict[int, int] = field(default_factory=dict)
    #: The round with which the match ended because its tournament round's time ran out.
    last_round: int | None = None


def tiles_text(tiles: tuple[int, ...] | None) -> str:
    return "null" if tiles is None else "[" + ", ".join(map(str, tiles)) + "]"


def seat_name(record: Record, seat: int) -> str:
    return f"seat {seat} ({record.seats[seat].name})"


def new_match(record: Record) -> Match:
    """The match a record starts from: a daily entry, or a match by the record's rules."""
    if record.daily is not None:
        return Match.new_daily(record.variant, record.daily.turns)
    return Match.new(record.variant, len(record.seats), rules=record.rules, spares=record.spares)


def throw_name(match: Match, n: int) -> str:
    """How a report names the throw now due: "throw n + 1" as the match page counts, and
    in a daily entry "turn t + 1, throw k + 1" (its numbers jump from turn to turn)."""
    turn = match.turn
    if match.daily and turn is not None:
        return f"turn {match.round}, throw {turn.throws + 1}"
    return f"throw {n + 1}"


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
    throw = events[i]
    assert isinstance(throw, ThrowEntry)
    following: list[int] = []
    leavers: set[int] = set()
    for j in range(i + 1, len(events)):
        out = events[j]
        if isinstance(out, SpareEntry):
            continue  # the thrower's deadline, passed while its cover was due
        if not isinstance(out, OutEntry) or out.seat == throw.seat or out.reason != "resigned":
            break
        following.append(j)
        leavers.add(out.seat)
    still_in = [s for s in range(match.seats) if match.out[s] is None and s not in leavers]
    return following if len(still_in) > 1 else []


def replay(record: Record, server_seed: str | None, tally: Tally) -> Match:
    """The match the record's events make, or the Difference that stops it.

    Bot moves are checked when the seed is known (a bot's strength comes from it).
    """
    match = new_match(record)
    strengths: list[Strength | None] = [
        s.bot if server_seed is not None else None for s in record.seats
    ]
    events = record.events
    handled: set[int] = set()
    for i, event in enumerate(events):
        if i in handled:
            continue
        if isinstance(event, SpareEntry):
            _spare(record, match, event, i, tally)
            continue
        if match.finished:
            raise Difference(f"events[{i}]: the {_kind(record)} was already over")
        if isinstance(event, OutEntry):
            match = _leave(record, match, event, i, tally)
            tally.outs.append(f"{seat_name(record, event.seat)} {event.reason}")
            continue
        if isinstance(event, LastRoundEntry):
            match = _last_round(record, match, event, i)
            tally.last_round = event.round
            continue

        def resignations_first(m: Match, i: int = i) -> Match:
            for j in resignations_before_cover(events, i, m):
                entry = events[j]
                assert isinstance(entry, OutEntry)
                m = _leave(record, m, entry, j, tally)
                tally.outs.append(f"{seat_name(record, entry.seat)} {entry.reason}")
                handled.add(j)
            return m

        strength = strengths[event.seat]
        match = _throw(record, match, event, server_seed, strength, resignations_first)
        tally.throws += 1
        tally.dead += event.cover == ()
        tally.one_die += len(event.dice) == 1
        tally.bot_moves += strength is not None
    return match


def _kind(record: Record) -> str:
    return "entry" if record.daily is not None else "match"


def _spare(record: Record, match: Match, event: SpareEntry, i: int, tally: Tally) -> None:
    who = seat_name(record, event.seat)
    if match.out[event.seat] is not None:
        raise Difference(f"events[{i}]: {who} used a spare deadline after going out")
    used = tally.spares.get(event.seat, 0) + 1
    if used > record.spares:
        raise Difference(
            f"events[{i}]: {who} used a spare deadline for the {_nth(used)} time, "
            f"but the match gives each seat {record.spares}"
        )
    tally.spares[event.seat] = used


def _nth(k: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(k, f"{k}th")


def _leave(record: Record, match: Match, event: OutEntry, i: int, tally: Tally) -> Match:
    turn = match.turn
    # Only a move that is due has a deadline; anybody may resign at any moment.
    if event.reason == "timeout" and turn is not None and turn.seat != event.seat:
        raise Difference(
            f"events[{i}]: {seat_name(record, event.seat)} timed out, but no move of "
            f"theirs was due: it was {seat_name(record, turn.seat)}'s turn"
        )
    left = record.spares - tally.spares.get(event.seat, 0)
    if event.reason == "timeout" and left > 0:
        spares = f"{left} spare deadline{'s' if left > 1 else ''}"
        raise Difference(
            f"events[{i}]: {seat_name(record, event.seat)} went out by timeout with "
            f"{spares} left: a passed deadline uses a spare while the seat has one"
        )
    try:
        match, _ = match.leave(event.seat, event.reason)
    except IllegalMove as exc:
        raise Difference(f"events[{i}] (out): {exc}") from None
    return match


def _last_round(record: Record, match: Match, event: LastRoundEntry, i: int) -> Match:
    """The round's time ran out: only once, in the round being played, and never in
    Classic, whose one round is its last anyway."""
    if record.variant is Variant.CLASSIC:
        raise Difference(f"events[{i}]: Classic has one round, so none ends the match early")
    if match.last_round:
        raise Difference(f"events[{i}]: the match was already to end with round {match.round}")
    if event.round != match.round:
        raise Difference(
            f"events[{i}]: the match is to end with round {event.round}, "
            f"but round {match.round} was being played"
        )
    match, _ = match.end_after_round()
    return match


def _check_number(match: Match, n: int, where: str) -> None:
    if n == match.throws:
        return
    turn = match.turn
    if match.daily and turn is not None:
        t, k = match.round - 1, turn.throws
        ended = f" (turn {t} ended with its previous throw)" if k == 0 and t else ""
        raise Difference(
            f"{where}: numbered n={n}, but turn {t + 1}'s throw {k + 1} is "
            f"n = {THROW_STRIDE}×{t} + {k} = {match.throws}{ended}"
        )
    raise Difference(
        f"{where}: numbered n={n}, but the next throw of the match is throw "
        f"{match.throws + 1} (n={match.throws})"
    )


def _throw(
    record: Record,
    match: Match,
    event: ThrowEntry,
    server_seed: str | None,
    strength: Strength | None,
    before_shutting_cover: Callable[[Match], Match],
) -> Match:
    n = event.n
    # Problems count throws from 1, as the match page and the replay do; the record's
    # ``n`` (which the dice derive from) counts from 0.
    where = throw_name(match, n)
    _check_number(match, n, where)
    turn = match.turn
    assert turn is not None
    if match.out[event.seat] is not None:
        raise Difference(f"{where}: {seat_name(record, event.seat)} threw but is out of the match")
    if event.seat != turn.seat:
        raise Difference(
            f"{where}: {seat_name(record, event.seat)} threw, "
            f"but it is {seat_name(record, turn.seat)}'s turn"
        )
    if turn.dice is not None:
        raise Difference(
            f"{where}: {seat_name(record, turn.seat)} threw again "
            "before covering for the previous throw"
        )
    count = len(event.dice)
    if count == 1 and not match.may_throw_one_die:
        why = (
            "Jackpot is always played with two dice"
            if record.variant is Variant.JACKPOT
            else "one die is allowed only once 7, 8 and 9 are all covered"
        )
        raise Difference(f"{where}: one die thrown, but {why}")
    if strength is not None:
        wanted = choose_dice_count(record.variant, strength, turn.open)
        if wanted != count:
            raise Difference(
                f"{where}: {seat_name(record, event.seat)} is a {strength} bot and throws "
                f"{wanted} dice here, not {count}"
            )
    if server_seed is not None:
        source = ""
        if record.daily is not None and record.daily.by_position:
            t = match.round - 1
            seeded = position_dice(server_seed, record.client_seed, t, turn.open, count)
            label = position_label(record.client_seed, t, turn.open)
            source = f" for this turn and these open tiles (label {label!r})"
        else:
            seeded = throw_dice(server_seed, record.client_seed, n, count)
        if seeded != event.dice:
            raise Difference(
                f"{where}: dice {tiles_text(event.dice)} differ from the seed's "
                f"{tiles_text(seeded)}{source}"
            )
    try:
        match, _ = match.throw(event.seat, event.dice)
    except IllegalMove as exc:  # pragma: no cover - the checks above pre-empt every refusal
        raise Difference(f"{where}: {exc}") from None
    offered = options(record.variant, turn.open, event.dice)
    if event.cover == ():
        if offered:
            raise Difference(
                f"{where}: cover [] (a dead throw), "
                f"but the dice offered {describe_options(offered)}"
            )
        return match
    if not offered:
        raise Difference(
            f"{where}: cover {tiles_text(event.cover)}, but the dice offered nothing: "
            "a dead throw is written []"
        )
    if event.cover is None:
        return match  # the seat went out, or the match ended, before covering
    if event.cover not in offered:
        raise Difference(
            f"{where}: cover {tiles_text(event.cover)} is not on offer: "
            f"the dice {' and '.join(map(str, event.dice))} reach {describe_options(offered)}"
        )
    if strength is not None:
        wanted_cover = choose_cover(record.variant, strength, turn.open, event.dice)
        if wanted_cover != event.cover:
            raise Difference(
                f"{where}: {seat_name(record, event.seat)} is a {strength} bot and covers "
                f"{tiles_text(wanted_cover)} here, not {tiles_text(event.cover)}"
            )
    if set(event.cover) == turn.open:
        match = before_shutting_cover(match)
    try:
        match, _ = match.cover(event.seat, event.cover)
    except IllegalMove as exc:  # pragma: no cover - membership was checked above
        raise Difference(f"{where}: {exc}") from None
    return match
