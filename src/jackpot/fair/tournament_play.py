"""Whole Swiss tournaments played by bots, written as exports: for tests, demos and verifiers.

What ``jackpot selfplay`` is for one match, this is for a tournament: every round paired
by the rules, every table seeded from its players' parts and played to its end by each
player's strength, with the round's time running out at chosen tables, players
withdrawing, and pairs kept apart where asked. The players stand for people (their
seats are people's in the records; a strength only chooses their moves), so the
records are checked as people's. Pure: the parts and client seeds come in, nothing is
drawn and no clock is read, so the same arguments give the same export.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from jackpot.engine import (
    RULES,
    Entrant,
    Match,
    Pairing,
    RoundPlayed,
    TablePlayed,
    match_points,
    pair_round,
    standings,
)
from jackpot.fair.dice import throw_dice
from jackpot.fair.entries import RecordEvent, SeatEntry
from jackpot.fair.origin import Origin
from jackpot.fair.parts import SeedPart, TournamentTable, seed_from_parts
from jackpot.fair.record import Record
from jackpot.fair.recorder import append_events
from jackpot.fair.seating import order_of_play
from jackpot.fair.seeds import combine_client_seeds, commitment
from jackpot.fair.tournament import (
    Apart,
    Entry,
    RoundEntry,
    Settings,
    StandingEntry,
    TableEntry,
    TournamentExport,
    joining_places,
)
from jackpot.strategy.autoplay import bot_step
from jackpot.strategy.strength import Strength


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    rating: float
    client_seed: str
    #: The secret part of every table's server seed this player sits at.
    part: str
    #: How the player's moves are chosen.
    strength: Strength = Strength.BEST


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """``player`` withdraws during round ``round``: once their match there has seen
    ``after_throws`` throws (they resign it), or after it ended when that is None."""

    player: int
    round: int
    after_throws: int | None = None


def play_tournament(
    settings: Settings,
    players: Sequence[Player],
    *,
    tournament_id: str = "t_selfplay",
    name: str = "Bots' Swiss",
    apart: Sequence[Apart] = (),
    withdrawals: Sequence[Withdrawal] = (),
    time_up: Mapping[tuple[int, int], int] | None = None,
    rounds: int | None = None,
) -> TournamentExport:
    """Play ``rounds`` rounds (all the settings' by default: the tournament ends and
    its parts are published) and write the export.

    ``time_up[(round, table)] = n``: that round's time runs out once the table's match
    has made n throws, and the match ends with the round it is playing then.
    """
    played_rounds = settings.rounds if rounds is None else rounds
    entrants = [Entrant(p.name, p.rating) for p in players]
    history: list[RoundPlayed] = []
    written: list[RoundEntry] = []
    gone: set[int] = set()
    for number in range(1, played_rounds + 1):
        kept = [a.players for a in apart if a.from_round <= number]
        pairing = pair_round(
            entrants, history, settings.table_size, withdrawn=gone, apart=kept
        )
        leaving = {w.player: w for w in withdrawals if w.round == number and w.player not in gone}
        tables = [
            _play_table(
                settings, players, tournament_id, number, t, seated, leaving,
                (time_up or {}).get((number, t)),
            )
            for t, seated in enumerate(pairing.tables, start=1)
        ]  # fmt: skip
        history.append(_round_played(pairing, tables))
        written.append(
            RoundEntry(
                round=number,
                tables=tuple(tables),
                byes=pairing.byes,
                withdrawn=tuple(sorted(leaving)),
            )
        )
        gone |= set(leaving)
    ended = played_rounds == settings.rounds
    if ended:
        written = [_publish_parts(r, players) for r in written]
    return TournamentExport(
        id=tournament_id,
        name=name,
        settings=settings,
        status="ended" if ended else "playing",
        entries=tuple(
            Entry(
                name=p.name,
                rating=p.rating,
                client_seed=p.client_seed,
                commitment=commitment(p.part),
                part=p.part if ended else None,
            )
            for p in players
        ),
        apart=tuple(apart),
        rounds=tuple(written),
        standings=standing_entries(entrants, history),
    )


def standing_entries(
    entrants: Sequence[Entrant], history: Sequence[RoundPlayed]
) -> tuple[StandingEntry, ...]:
    """The export's standings: everybody in order, with points and Buchholz."""
    return tuple(
        StandingEntry(player=s.player, points=s.points, buchholz=s.buchholz)
        for s in standings(entrants, history)
    )


def _publish_parts(played: RoundEntry, players: Sequence[Player]) -> RoundEntry:
    """The round as its records read once the tournament ended: every part shown."""
    tables = tuple(
        replace(
            t,
            record=replace(
                t.record,
                parts=tuple(SeedPart(commitment(players[p].part), players[p].part)
                            for p in t.players),
            ),
        )
        for t in played.tables
    )  # fmt: skip
    return replace(played, tables=tables)


def _round_played(pairing: Pairing, tables: Sequence[TableEntry]) -> RoundPlayed:
    return RoundPlayed(
        tables=tuple(TablePlayed(t.players, joining_places(t.record)) for t in tables),
        byes=pairing.byes,
    )


def _play_table(
    settings: Settings,
    players: Sequence[Player],
    tournament_id: str,
    number: int,
    table: int,
    seated: Sequence[int],
    leaving: Mapping[int, Withdrawal],
    time_up: int | None,
) -> TableEntry:
    place = TournamentTable(id=tournament_id, round=number, table=table)
    server_seed = seed_from_parts([players[p].part for p in seated], place)
    client_seed = combine_client_seeds([players[p].client_seed for p in seated])
    joined = order_of_play(server_seed, client_seed, len(seated), people=len(seated))
    by_seat = [seated[j] for j in joined]

    def roll(n: int, count: int) -> tuple[int, ...]:
        return throw_dice(server_seed, client_seed, n, count)

    match = Match.new(settings.variant, len(seated), spares=settings.spares)
    log: list[RecordEvent] = []
    while (turn := match.turn) is not None:
        quitting = [
            seat
            for seat, p in enumerate(by_seat)
            if match.out[seat] is None and _quits(leaving.get(p), match.throws)
        ]
        if time_up is not None and not match.last_round and match.throws >= time_up:
            match, events = match.end_after_round()
            time_up = None
        elif quitting:
            match, events = match.leave(quitting[0], "resigned")
        else:
            match, events = bot_step(match, players[by_seat[turn.seat]].strength, roll)
        append_events(log, events)
    assert match.result is not None
    record = Record(
        id=f"{tournament_id}-r{number}-t{table}",
        variant=settings.variant,
        deadline_seconds=settings.deadline_seconds,
        created=settings.starts,
        seats=tuple(SeatEntry(players[p].name) for p in by_seat),
        commitment=commitment(server_seed),
        server_seed=server_seed,
        client_seed=client_seed,
        events=tuple(log),
        result=match.result,
        joined=joined,
        rules=RULES,
        origin=Origin("tournament", tournament_id),
        parts=tuple(SeedPart(commitment(players[p].part)) for p in seated),
        tournament=place,
        spares=settings.spares,
    )
    places = joining_places(record)
    return TableEntry(
        table=table, players=tuple(seated), points=match_points(places), record=record
    )


def _quits(withdrawal: Withdrawal | None, throws: int) -> bool:
    """Whether the player withdraws now, ``throws`` throws into their match."""
    if withdrawal is None or withdrawal.after_throws is None:
        return False
    return withdrawal.after_throws <= throws
