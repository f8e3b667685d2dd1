"""The pairing of a Swiss round: who sits at which table, and who sits the round out.

A deterministic function of the standings, the meetings so far, the byes so far and
the pairs kept apart, with no randomness and no clock, so that anybody holding a
tournament's export pairs every round again and gets the same tables. The steps,
in the order they are taken (docs/tournaments.md states them for verifiers):

1. The players still in, in standings order, and the round's table sizes
   (``swiss.table_sizes``). When those end in a single seat, it is the bye: it goes to
   the lowest player in the order who has not had a bye yet (to the lowest player
   when everybody has had one).
2. Tables are filled from the top. Each takes the highest player left, then, seat by
   seat, the highest player left who has not sat with anyone already at the table,
   looking only among the players this table and the next ``LOOKAHEAD_TABLES``
   tables would take (the window). A player passed over drops to a later seat: a
   swap with the next tables' players. When everyone in the window has met someone
   at the table, the highest one of them sits anyway (a repeat).
3. Two players kept apart (one blocked the other) never sit together. A player kept
   apart from someone at the table is skipped like a repeat, and when the whole
   window is, the highest player left below the window who may sit there takes the
   seat. When nobody left may, a player left swaps with the bye or with a player of
   a table already made (the nearest first: the bye, then the tables from the
   lowest up, each from its lowest seat; the players left tried from the highest), as
   long as neither ends up beside someone they are kept apart from. When no swap
   works, the table closes with the players it has and the tables below are
   planned again for the players left, by the same sizes rule. A table that ends
   with a single player seats nobody: that player sits the round out with a bye's
   points, listed in ``sitting_out`` so the site can tell them why.
4. Each table's players are listed in standings order: that is the table's joining
   order, which orders its seed's parts and its client seeds. The tables are
   numbered in the order of their highest players (a swap may have moved one).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from jackpot.engine.swiss import (
    Entrant,
    RoundPlayed,
    apart_map,
    bye_holders,
    check_table_size,
    meetings,
    standings,
    table_sizes,
)

#: How many tables below the one being filled its empty seats may draw from.
LOOKAHEAD_TABLES = 2

_NOBODY: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Pairing:
    #: Each table's players (entry numbers) in joining order; table 1 first.
    tables: tuple[tuple[int, ...], ...]
    #: The one player left over when the tables' sizes end in a single seat.
    bye: int | None
    #: Players no table could take without seating them beside someone they are kept
    #: apart from. They sit the round out with a bye's points, as the left-over does.
    sitting_out: tuple[int, ...]
    #: Pairs seated together again because no swap within the window avoided it.
    repeats: tuple[tuple[int, int], ...]

    @property
    def byes(self) -> tuple[int, ...]:
        """Everyone who sits this round out (each scores a bye's points)."""
        return (*(() if self.bye is None else (self.bye,)), *self.sitting_out)


def pair_round(
    entrants: Sequence[Entrant],
    rounds: Sequence[RoundPlayed],
    table_size: int,
    *,
    withdrawn: Collection[int] = (),
    apart: Iterable[Collection[int]] = (),
) -> Pairing:
    """The next round's pairing after ``rounds``, for the players not ``withdrawn``.

    The standings, who met whom and who had a bye all come from the rounds played, so
    the site pairing a round and a verifier checking it pass the same history and get
    the same tables. ``apart``: the pairs that must not sit together this round.
    """
    gone = set(withdrawn)
    order = [s.player for s in standings(entrants, rounds) if s.player not in gone]
    return pair(
        order, table_size, met=meetings(rounds), apart=apart, had_bye=bye_holders(rounds)
    )


def pair(
    order: Sequence[int],
    table_size: int,
    *,
    met: Mapping[int, Collection[int]] | None = None,
    apart: Iterable[Collection[int]] = (),
    had_bye: Collection[int] = (),
) -> Pairing:
    """Pair the players of ``order`` (standings order, top first) at tables of
    ``table_size``, by the steps of this module's docstring.

    ``met``: each player's set of those they have sat with, both ways round (as
    ``swiss.meetings`` gives it); ``apart``: the pairs that must not sit together;
    ``had_bye``: the players who have sat a round out before.
    """
    check_table_size(table_size)
    if len(set(order)) != len(order):
        raise ValueError("a player is listed twice in the order to pair")
    seen = met or {}
    kept = apart_map(apart)
    pool = list(order)
    bye: int | None = None
    if table_sizes(len(pool), table_size)[-1:] == (1,):
        bye = next((p for p in reversed(pool) if p not in had_bye), pool[-1])
        pool.remove(bye)
    builder = _Builder(pool, seen, kept, bye)
    while builder.pool:
        # Planned again before each table: the same plan as at the start, unless a
        # table closed short of its size because of the players kept apart.
        plan = table_sizes(len(builder.pool), table_size)
        builder.fill(plan[0], window=sum(plan[: 1 + LOOKAHEAD_TABLES]))
    position = {p: i for i, p in enumerate(order)}
    tables = tuple(
        sorted((tuple(sorted(t, key=position.__getitem__)) for t in builder.tables),
               key=lambda t: position[t[0]])
    )
    repeats = tuple(
        (a, b)
        for t in tables
        for i, a in enumerate(t)
        for b in t[i + 1 :]
        if b in seen.get(a, _NOBODY)
    )
    return Pairing(
        tables=tables, bye=builder.bye, sitting_out=tuple(builder.out), repeats=repeats
    )


class _Builder:
    """The tables made so far and the players left, while one pairing is made."""

    def __init__(
        self,
        pool: list[int],
        met: Mapping[int, Collection[int]],
        apart: Mapping[int, frozenset[int]],
        bye: int | None,
    ) -> None:
        self.pool = pool
        self.met = met
        self.apart = apart
        self.bye = bye
        self.tables: list[list[int]] = []
        self.out: list[int] = []
        #: How many of the first players left the table being made may draw from.
        self.window = 0

    def fill(self, size: int, window: int) -> None:
        """Make the next table, of ``size`` seats, from the first ``window`` players left."""
        self.window = window
        table: list[int] = []
        while len(table) < size and self.pool:
            i = self._choose(table)
            if i is not None:
                table.append(self._take(i))
            elif not self._swap_in(table):
                break
        if len(table) == 1:
            self.out.append(table[0])
        elif table:
            self.tables.append(table)

    def _take(self, i: int) -> int:
        if i < self.window:
            self.window -= 1
        return self.pool.pop(i)

    def _may_sit(self, player: int, table: Sequence[int]) -> bool:
        kept = self.apart.get(player, _NOBODY)
        return not any(q in kept for q in table)

    def _choose(self, table: list[int]) -> int | None:
        """The pool index of the player who takes the next seat (steps 2 and 3)."""
        fallback: int | None = None
        pool, window = self.pool, self.window
        for i in range(min(window, len(pool))):
            player = pool[i]
            if not self._may_sit(player, table):
                continue
            met = self.met.get(player, _NOBODY)
            if not any(q in met for q in table):
                return i
            if fallback is None:
                fallback = i
        if fallback is not None:
            return fallback
        for i in range(window, len(pool)):
            if self._may_sit(pool[i], table):
                return i
        return None

    def _swap_in(self, table: list[int]) -> bool:
        """Step 3's swap: a player left takes a seated player's place (or the bye), and
        the seated player joins ``table``; False when no such swap is allowed."""
        for i, player in enumerate(self.pool):
            if self.bye is not None and self._may_sit(self.bye, table):
                table.append(self.bye)
                self.bye = self._take(i)
                return True
            for made in reversed(self.tables):
                for seat in reversed(range(len(made))):
                    other = made[seat]
                    rest = made[:seat] + made[seat + 1 :]
                    if self._may_sit(other, table) and self._may_sit(player, rest):
                        made[seat] = player
                        table.append(other)
                        self._take(i)
                        return True
        return False
