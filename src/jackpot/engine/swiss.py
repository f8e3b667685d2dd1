"""The rules of a Swiss tournament: a match's points, the standings, and the tables' sizes.

Everything is exact (``fractions.Fraction``) and a plain function of what was played,
so that anybody holding a tournament's export recomputes the same standings, and from
them the same pairings (``engine/pairing.py``). A player is named by their entry
number: their place in the tournament's list of entries, 0-based.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

#: What a bye is worth: the average a seat takes from a table of any size, so that
#: sitting out neither helps nor harms a player on average.
BYE_POINTS = Fraction(1, 2)
#: A table seats 2 to 4 players, as a match does between people.
MIN_TABLE = 2
MAX_TABLE = 4
#: Every point a table of 2 to 4 gives, and a bye, is a whole number of twelfths
#: (n - 1 divides 6), so the standings add whole numbers: exact, and far quicker
#: than adding fractions, which a round of a thousand players would feel.
TWELFTHS = 12


@dataclass(frozen=True, slots=True)
class Entrant:
    """What the standings need of a player beyond their results.

    ``rating`` is the one they had when the tournament started, fixed for its whole
    length: a rating moves with every rated match, so the one the pairing used would
    otherwise be lost, and nobody could recompute the pairing.
    """

    name: str
    rating: float


@dataclass(frozen=True, slots=True)
class TablePlayed:
    """A finished table: its players (entry numbers, in joining order) and their places."""

    players: tuple[int, ...]
    #: ``places[i]`` is the match's place of ``players[i]`` (1 = best, 1, 1, 3 on a tie).
    places: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundPlayed:
    """A finished round: its tables and everybody who sat it out with a bye."""

    tables: tuple[TablePlayed, ...]
    byes: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Standing:
    player: int
    points: Fraction
    #: The sum of the points of everyone the player has sat with, counted once per
    #: table shared (two meetings count twice): the strength of the field they faced.
    buchholz: Fraction
    #: 1-based position in the order; unique, since rating and name break every tie.
    rank: int


def match_points(places: Sequence[int]) -> tuple[Fraction, ...]:
    """Each seat's points from a table of n: (seats placed below + half of those sharing
    its place) / (n - 1).

    A win is 1 and a last place 0 at any size, a two-seat draw ½ each, and a table
    always hands out n / 2 in all, so a point means the same at a table of 2, 3 or 4.
    """
    return tuple(Fraction(t, TWELFTHS) for t in _twelfths(places))


def _twelfths(places: Sequence[int]) -> tuple[int, ...]:
    n = len(places)
    if not MIN_TABLE <= n <= MAX_TABLE:
        raise ValueError(f"a table has {MIN_TABLE} to {MAX_TABLE} players, not {n}")
    # (below + sharing / 2) / (n - 1), in twelfths: 6 * (2 below + sharing) / (n - 1).
    return tuple(
        6 * (2 * sum(1 for q in places if q > p) + sum(1 for q in places if q == p) - 1)
        // (n - 1)
        for p in places
    )


def table_sizes(players: int, table_size: int) -> tuple[int, ...]:
    """The sizes of a round's tables, top table first; a final 1 is the bye.

    ⌈players / table_size⌉ tables, as even as they can be, the larger ones first: when
    the count is not a multiple of the size the last tables have one seat fewer. With
    tables of 4 the one count where one seat fewer is not enough, 5, gives 3 and 2
    (4 and 1 would leave a table of one). A single seat left over (an odd count at
    tables of 2, or one player in all) is not a table: that player gets the bye.
    """
    check_table_size(table_size)
    if players < 0:
        raise ValueError(f"a round has 0 or more players, not {players}")
    if players == 0:
        return ()
    tables = -(-players // table_size)
    base, larger = divmod(players, tables)
    return (base + 1,) * larger + (base,) * (tables - larger)


def check_table_size(table_size: int) -> None:
    if isinstance(table_size, bool) or not MIN_TABLE <= table_size <= MAX_TABLE:
        raise ValueError(f"tables seat {MIN_TABLE} to {MAX_TABLE} players, not {table_size!r}")


def _points_in_twelfths(entrants: int, rounds: Iterable[RoundPlayed]) -> list[int]:
    points = [0] * entrants
    bye = int(BYE_POINTS * TWELFTHS)
    for played in rounds:
        for table in played.tables:
            for player, got in zip(table.players, _twelfths(table.places), strict=True):
                points[player] += got
        for player in played.byes:
            points[player] += bye
    return points


def standings(entrants: Sequence[Entrant], rounds: Sequence[RoundPlayed]) -> tuple[Standing, ...]:
    """Every entrant in order: points, then Buchholz, then rating (higher first), then name.

    Names compare by Unicode code point, and the entry number breaks the last tie (two
    entrants of one name and rating), so the order is total and the same everywhere.
    Players who withdrew stay in the standings: their points still count in their
    opponents' Buchholz; the pairing leaves them out.
    """
    points = _points_in_twelfths(len(entrants), rounds)
    buchholz = [0] * len(entrants)
    for played in rounds:
        for table in played.tables:
            at_table = sum(points[p] for p in table.players)
            for p in table.players:
                buchholz[p] += at_table - points[p]

    def key(p: int) -> tuple[int, int, float, str, int]:
        return (-points[p], -buchholz[p], -entrants[p].rating, entrants[p].name, p)

    order = sorted(range(len(entrants)), key=key)
    return tuple(
        Standing(
            player=p,
            points=Fraction(points[p], TWELFTHS),
            buchholz=Fraction(buchholz[p], TWELFTHS),
            rank=rank,
        )
        for rank, p in enumerate(order, start=1)
    )


def meetings(rounds: Iterable[RoundPlayed]) -> dict[int, set[int]]:
    """Who has sat with whom, for the pairing's rule against meeting again."""
    met: dict[int, set[int]] = {}
    for played in rounds:
        for table in played.tables:
            for p in table.players:
                met.setdefault(p, set()).update(q for q in table.players if q != p)
    return met


def bye_holders(rounds: Iterable[RoundPlayed]) -> set[int]:
    """Everyone who has sat a round out, so the next bye goes to somebody else."""
    return {p for played in rounds for p in played.byes}


def apart_map(pairs: Iterable[Collection[int]]) -> Mapping[int, frozenset[int]]:
    """Each player's set of those they must never sit with (a block, either way)."""
    apart: dict[int, set[int]] = {}
    for pair in pairs:
        a, b = pair
        if a == b:
            raise ValueError(f"a player cannot be kept apart from themselves ({a})")
        apart.setdefault(a, set()).add(b)
        apart.setdefault(b, set()).add(a)
    return {p: frozenset(q) for p, q in apart.items()}
