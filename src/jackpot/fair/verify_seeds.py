"""The verifier's checks of where the dice come from: the seed's parts, the client seed,
the order of play and the bots' strengths; and the notes of what a record says unchecked.

``verify.py`` runs them before it replays the moves; each adds its sentence to the
checks, or raises the ``Difference`` that stops the check. The notes (where the match
came from, whose client seed the server made) change nothing that is checked.
"""

from __future__ import annotations

import hashlib

from jackpot.fair.dice import bot_strength
from jackpot.fair.parts import seed_from_parts
from jackpot.fair.record import Record
from jackpot.fair.replay import Difference, seat_name
from jackpot.fair.seating import order_of_play, seats_label
from jackpot.fair.seeds import check_client_seed, split_client_seed

#: What each origin is, in words.
ORIGIN_WORDS = {
    "bot": "a match against the bot",
    "solo": "solo practice",
    "people": "a match between people, made in the lobby",
    "play_now": "play now (people paired at once)",
    "challenge": "a challenge",
    "rematch": "a rematch",
    "daily": "an entry in the daily deal",
    "tournament": "a tournament table",
}


def record_notes(record: Record) -> list[str]:
    """What the record says that no check depends on: where the match came from, and the
    people whose part of the client seed the server made (none was sent with their seat)."""
    notes = []
    origin = record.origin
    if origin is not None:
        ident = f" ({origin.id})" if origin.id is not None else ""
        notes.append(f"origin: {ORIGIN_WORDS[origin.kind]}{ident}")
    for s, seat in enumerate(record.seats):
        if seat.seed_by_server:
            notes.append(
                f"client seed: the server made the part of {seat_name(record, s)}, as none "
                "was sent with the seat"
            )
    return notes


def check_parts(record: Record, checks: list[str]) -> bool:
    """A seed made of parts: each part gives its commitment, and the parts give the seed.

    True when the parts are not shown yet while the seed is: the rest of the record can
    be checked, and whether the seed is made of them waits for them.
    """
    parts = record.parts
    if parts is None:
        return False
    people = people_in_joining_order(record)
    if len(parts) != len(people):
        raise Difference(
            f"parts: {len(parts)} part(s) of the server seed, but the match has "
            f"{len(people)} person(s), one part each"
        )
    table = record.tournament
    where = (
        f" as round {table.round}, table {table.table} of tournament {table.id}"
        if table is not None
        else ""
    )
    if parts[0].part is None:
        checks.append(
            f"parts: {len(parts)} commitment(s), one for each person in joining order, "
            "each shown to its person before they chose their client seed"
        )
        return record.server_seed is not None
    shown = [p.part for p in parts if p.part is not None]
    for k, (entry, part) in enumerate(zip(parts, shown, strict=True)):
        digest = hashlib.sha256(part.encode("ascii")).hexdigest()
        if digest != entry.commitment:
            raise Difference(
                f"parts[{k}]: the SHA-256 of the part of {seat_name(record, people[k])} is "
                f"{digest}, not its commitment {entry.commitment} shown before the match"
            )
    made = seed_from_parts(shown, table)
    if made != record.server_seed:
        suffix = f" followed by {table.suffix!r}" if table is not None else ""
        raise Difference(
            f"server seed: the parts joined by '.'{suffix} hash to {made}, "
            f"not the record's server seed {record.server_seed}"
        )
    checks.append(
        f"parts: each of the {len(parts)} part(s) gives the commitment its person was "
        f"shown, and the server seed is the SHA-256 of the parts in joining order{where}"
    )
    return False


def people_in_joining_order(record: Record) -> list[int]:
    """The human seats (numbered in the order of play) in the order they joined."""
    joined = record.joined or tuple(range(len(record.seats)))
    people = (i for i, s in enumerate(record.seats) if not s.is_bot)
    return sorted(people, key=joined.__getitem__)


def check_people_parts(record: Record, checks: list[str]) -> None:
    humans = people_in_joining_order(record)
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
        by_server = [seat_name(record, s) for s in humans if record.seats[s].seed_by_server]
        hand = (
            ", so every player had a hand in the dice"
            if not by_server
            else f"; the server made the part of {and_list(by_server)}, as none was sent with "
            f"{'the seat' if len(by_server) == 1 else 'their seats'}"
        )
        checks.append(
            f"client seed: {len(parts)} well-formed part(s), one for each human seat in "
            f"{order} order{hand}"
        )
    else:
        # Nobody has a stake in a bots-only match (selfplay): whoever ran it chose
        # the client seed, and any well-formed one will do.
        checks.append("client seed: well-formed (no seat is human, so anyone could choose it)")


def and_list(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def check_order_of_play(record: Record, server_seed: str | None, checks: list[str]) -> None:
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


def check_bot_strengths(record: Record, server_seed: str, checks: list[str]) -> None:
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
