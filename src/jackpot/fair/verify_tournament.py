"""Check a Swiss tournament's export from first principles, round by round.

Every round's pairing is made again from the standings the rounds before it give;
every table's seeds from its players' client seeds and (once published) parts; every
table's match record is checked by ``verify``; every player's points from the places
of their matches; the standings, Buchholz included, from all of it. The first
difference stops the check and is said in words: which round, which table, whose
points, what the export says and what the rules give.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jackpot.engine import Entrant, RoundPlayed, TablePlayed, match_points, pair_round, standings
from jackpot.fair.entries import LastRoundEntry
from jackpot.fair.fields import RecordFormatError
from jackpot.fair.replay import Difference
from jackpot.fair.seeds import combine_client_seeds
from jackpot.fair.tournament import (
    RoundEntry,
    TableEntry,
    TournamentExport,
    joining_places,
    parse_tournament,
)
from jackpot.fair.verify import verify


@dataclass(frozen=True, slots=True)
class TournamentVerification:
    ok: bool
    #: What was checked and found right, one sentence each, in order.
    checks: list[str] = field(default_factory=list)
    #: The first thing found wrong (None when ok); when ``awaiting_parts``, what waits.
    problem: str | None = None
    summary: str = ""
    #: Nothing was found wrong, but the tournament is being played: its parts, and so
    #: the link from them to every table's seed, are published when it ends.
    awaiting_parts: bool = False


class _Waiting(Exception):
    """Everything that can be checked before the tournament's end holds."""


def verify_tournament(
    source: TournamentExport | str | bytes | Mapping[str, Any],
) -> TournamentVerification:
    """Verify an export (or its JSON text, or its decoded object)."""
    checks: list[str] = []
    try:
        try:
            export = parse_tournament(
                source.to_dict() if isinstance(source, TournamentExport) else source
            )
        except RecordFormatError as exc:
            raise Difference(f"format: {exc}") from None
        checks.append(
            f"format: a well-formed jackpot-tournament/1, {len(export.entries)} entries, "
            f"{len(export.rounds)} round(s) of {export.settings.rounds}"
        )
        summary = _Check(export, checks).run()
    except _Waiting as waiting:
        return TournamentVerification(
            ok=False,
            checks=checks,
            problem=str(waiting),
            summary=f"not verifiable yet: {waiting}",
            awaiting_parts=True,
        )
    except Difference as problem:
        return TournamentVerification(
            ok=False, checks=checks, problem=str(problem), summary=f"invalid: {problem}"
        )
    return TournamentVerification(ok=True, checks=checks, summary=summary)


class _Check:
    """One export's check: the rounds replayed in order, with the standings between."""

    def __init__(self, export: TournamentExport, checks: list[str]) -> None:
        self.export = export
        self.checks = checks
        self.entrants = [Entrant(e.name, e.rating) for e in export.entries]
        self.history: list[RoundPlayed] = []
        self.gone: set[int] = set()
        names = [e.name for e in export.entries]
        self.unique = {n for n in names if names.count(n) == 1}
        self.published = all(e.part is not None for e in export.entries)

    def run(self) -> str:
        export = self.export
        self._check_entries()
        for i, played in enumerate(export.rounds):
            finished = self._check_round(played)
            if not finished and i + 1 < len(export.rounds):
                raise Difference(
                    f"round {played.round + 1}: paired while round {played.round} "
                    "was still being played"
                )
        self._check_standings()
        over = len(self.history) == export.settings.rounds
        if export.status == "playing":
            if over:
                raise Difference(
                    f"status: all {export.settings.rounds} rounds are over, so the "
                    'tournament has ended, not "playing"'
                )
            raise _Waiting(
                "the tournament is being played: the players' parts, and so the link "
                "from them to every table's server seed, are published when it ends"
            )
        if not over:
            raise Difference(
                f"status: the tournament is said to have ended, but {len(self.history)} of "
                f"its {export.settings.rounds} rounds are over"
            )
        self.checks.append(
            "parts: every table's server seed is made of its players' parts in joining "
            'order and its place (":r" + round + ":t" + table)'
        )
        top = standings(self.entrants, self.history)[0]
        return (
            f"valid: {export.name}, {len(export.entries)} players, {len(self.history)} "
            f"rounds, {sum(len(r.tables) for r in export.rounds)} matches; first "
            f"{self.who(top.player)} with {top.points} points"
        )

    def who(self, player: int) -> str:
        name = self.export.entries[player].name
        return name if name in self.unique else f"{name} (entries[{player}])"

    def names(self, players: Sequence[int]) -> str:
        words = [self.who(p) for p in players]
        if not words:
            return "nobody"
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]

    # -- entries -------------------------------------------------------------

    def _check_entries(self) -> None:
        export = self.export
        if len(export.entries) > export.settings.max_players:
            raise Difference(
                f"entries: {len(export.entries)} entries, but at most "
                f"{export.settings.max_players} players may enter"
            )
        shown = 0
        for i, entry in enumerate(export.entries):
            if entry.part is None:
                continue
            if export.status == "playing":
                raise Difference(
                    f"entries[{i}] ({entry.name}): a part is published while the tournament "
                    "is being played: it would tell every later table's dice in advance"
                )
            digest = hashlib.sha256(entry.part.encode("ascii")).hexdigest()
            if digest != entry.commitment:
                raise Difference(
                    f"entries[{i}] ({entry.name}): the part's SHA-256 is {digest}, not the "
                    f"commitment {entry.commitment} shown at entry"
                )
            shown += 1
        if export.status == "ended" and not self.published:
            missing = next(i for i, e in enumerate(export.entries) if e.part is None)
            raise Difference(
                f"entries[{missing}] ({export.entries[missing].name}): the tournament ended, "
                "but this part is not published"
            )
        said = (
            f"{shown} part(s) published, each the one committed to at entry"
            if shown
            else "parts not published yet"
        )
        self.checks.append(f"entries: {len(export.entries)} well-formed entries; {said}")

    # -- a round -------------------------------------------------------------

    def _check_round(self, played: RoundEntry) -> bool:
        """Check one round; True when all its matches are over (it joins the history)."""
        number = played.round
        kept = [a.players for a in self.export.apart if a.from_round <= number]
        pairing = pair_round(
            self.entrants,
            self.history,
            self.export.settings.table_size,
            withdrawn=self.gone,
            apart=kept,
        )
        basis = "the ratings" if number == 1 else f"the standings after round {number - 1}"
        for mine, theirs in zip(pairing.tables, played.tables, strict=False):
            where = f"round {number}, table {theirs.table}"
            if set(mine) != set(theirs.players):
                raise Difference(
                    f"{where}: the export seats {self.names(theirs.players)}, but "
                    f"{basis} seat {self.names(mine)} there"
                )
            if mine != theirs.players:
                raise Difference(
                    f"{where}: the players are listed {self.names(theirs.players)}, but "
                    f"their joining order (the standings order) is {self.names(mine)}"
                )
        if len(pairing.tables) != len(played.tables):
            raise Difference(
                f"round {number}: the export has {len(played.tables)} table(s), but "
                f"{basis} give {len(pairing.tables)}"
            )
        if pairing.byes != played.byes:
            raise Difference(
                f"round {number}: the export gives a bye to {self.names(played.byes)}, but "
                f"{basis} give one to {self.names(pairing.byes)}"
            )
        for player in played.withdrawn:
            if player in self.gone:
                raise Difference(
                    f"round {number}: {self.who(player)} withdraws, but had withdrawn already"
                )
        byes = f", bye: {self.names(pairing.byes)}" if pairing.byes else ""
        self.checks.append(
            f"round {number}: {len(pairing.tables)} table(s) as {basis} pair them{byes}"
            + (f"; {len(pairing.repeats)} pair(s) meeting again" if pairing.repeats else "")
        )
        tables = [self._check_table(number, t) for t in played.tables]
        self.gone |= set(played.withdrawn)
        if not all(t is not None for t in tables):
            return False
        done = tuple(t for t in tables if t is not None)
        self.history.append(RoundPlayed(tables=done, byes=played.byes))
        cut = sum(1 for t in played.tables if _ended_early(t))
        early = f"; {cut} ended with their round when its time ran out" if cut else ""
        self.checks.append(
            f"round {number}: every match record verifies, is seeded from its players, "
            f"and gives the points listed{early}"
        )
        return True

    def _check_table(self, number: int, table: TableEntry) -> TablePlayed | None:
        """One table; its places when its match is over, None while it is played."""
        settings, record = self.export.settings, table.record
        where = f"round {number}, table {table.table} ({self.names(table.players)})"
        if record.variant is not settings.variant:
            raise Difference(
                f"{where}: the match is {record.variant}, the tournament {settings.variant}"
            )
        if record.deadline_seconds != settings.deadline_seconds:
            raise Difference(
                f"{where}: the match gives {record.deadline_seconds} s a throw, the "
                f"tournament {settings.deadline_seconds} s"
            )
        if record.joined is None or len(record.joined) != len(table.players):
            raise Difference(
                f"{where}: the record must seat the table's {len(table.players)} players "
                "with their order of play (joined)"
            )
        for seat, joining in enumerate(record.joined):
            expected = self.export.entries[table.players[joining]].name
            if record.seats[seat].is_bot or record.seats[seat].name != expected:
                raise Difference(
                    f"{where}: the record's seat {seat} is {record.seats[seat].name!r}, but "
                    f"joining index {joining} at this table is {expected!r}"
                )
        entries = [self.export.entries[p] for p in table.players]
        client_seed = combine_client_seeds([e.client_seed for e in entries])
        if record.client_seed != client_seed:
            raise Difference(
                f"{where}: the record's client seed is {record.client_seed!r}, but the "
                f"players' seeds given at entry make {client_seed!r} in joining order"
            )
        at = record.tournament
        if at is None or (at.id, at.round, at.table) != (self.export.id, number, table.table):
            said = "no table" if at is None else f"round {at.round}, table {at.table}"
            of = "" if at is None else f" of {at.id!r}"
            raise Difference(
                f"{where}: the record says it is {said}{of}, not round {number}, table "
                f"{table.table} of {self.export.id!r}"
            )
        if record.spares != settings.spares:
            raise Difference(
                f"{where}: the match gives {record.spares} spare deadline(s) a seat, the "
                f"tournament {settings.spares}"
            )
        self._check_parts(where, table)
        report = verify(record)
        if not report.ok and not report.waiting:
            raise Difference(f"{where}: the match record is invalid: {report.problem}")
        if record.result is None:
            if table.points is not None:
                raise Difference(f"{where}: points are given for a match still being played")
            if self.export.status == "ended":
                raise Difference(f"{where}: the tournament ended, but this match is not over")
            return None
        if report.awaiting_seed:
            raise Difference(f"{where}: the match is over, but its server seed is not published")
        places = joining_places(record)
        points = match_points(places)
        if table.points is None:
            raise Difference(f"{where}: the match is over, but the export gives no points")
        for player, place, theirs, mine in zip(
            table.players, places, table.points, points, strict=True
        ):
            if theirs != mine:
                raise Difference(
                    f"{where}: {self.who(player)}'s points are {theirs} in the export, but "
                    f"place {place} of {len(places)} gives {mine}"
                )
        return TablePlayed(players=table.players, places=places)

    def _check_parts(self, where: str, table: TableEntry) -> None:
        """The record's parts are its players' entries' (``verify`` checks that they make
        its server seed): committed to at entry, shown once the tournament ended."""
        parts = table.record.parts
        if parts is None or len(parts) != len(table.players):
            raise Difference(
                f"{where}: the record must list the parts of its {len(table.players)} players, "
                "one each in joining order"
            )
        for k, (player, part) in enumerate(zip(table.players, parts, strict=True)):
            entry = self.export.entries[player]
            if part.commitment != entry.commitment:
                raise Difference(
                    f"{where}: the record's parts[{k}] is committed to {part.commitment}, but "
                    f"{self.who(player)} entered with the commitment {entry.commitment}"
                )
            if part.part != entry.part:
                raise Difference(
                    f"{where}: the record shows {part.part or 'no part'} as "
                    f"{self.who(player)}'s part, the entry {entry.part or 'none yet'}"
                )

    # -- standings -----------------------------------------------------------

    def _check_standings(self) -> None:
        export = self.export
        mine = standings(self.entrants, self.history)
        listed = [s.player for s in export.standings]
        for s in mine:
            if s.player not in listed:
                raise Difference(f"standings: {self.who(s.player)} is missing")
        if len(listed) != len(mine):
            twice = next(p for p in listed if listed.count(p) > 1)
            raise Difference(f"standings: {self.who(twice)} is listed twice")
        after = f"after round {len(self.history)}" if self.history else "before round 1"
        theirs = {s.player: s for s in export.standings}
        for s in mine:
            said = theirs[s.player]
            if said.points != s.points:
                raise Difference(
                    f"standings: {self.who(s.player)} has {said.points} points in the "
                    f"export, but the rounds give {s.points}"
                )
            if said.buchholz != s.buchholz:
                raise Difference(
                    f"standings: {self.who(s.player)}'s Buchholz is {said.buchholz} in the "
                    f"export, but the points of those they sat with add up to {s.buchholz}"
                )
        for place, (s, said_player) in enumerate(zip(mine, listed, strict=True), start=1):
            if s.player != said_player:
                raise Difference(
                    f"standings: place {place} is {self.who(said_player)} in the export, but "
                    f"points, Buchholz, rating and name put {self.who(s.player)} there"
                )
        self.checks.append(
            f"standings {after}: every player's points and Buchholz, in order"
        )


def _ended_early(table: TableEntry) -> bool:
    return any(isinstance(e, LastRoundEntry) for e in table.record.events)
