"""The odds of a live position: each option's chance to shut the box, to win the match, to draw.

This is what the site calls; it needs only the engine's ``Match``. The seat whose
turn it is gets its chances in the match (``Chances``: win alone, share first place,
equity) for the position and for each option open to it now: the covers of a throw
waiting for one, or the choice of one die or two when it is due. Beside them stays
the turn's own figure, the best chance of shutting the box (the solver's).

Who is playing for what:
- Classic, two to four seats: classic_match.py (the score to beat, the seats after);
- Jackpot, two to four seats: jackpot_match.py (who has shut the box this round, the
  seats still to throw, later rounds);
- a solo match (one seat) has no one to beat, so its equity is the chance of shutting
  the box this turn, played for that: the same valuation as the turn's odds.

The best option is the one with the most equity, then the most chance of winning
alone, then the one the ``best`` bot would choose; "given away" is the equity of the
best option minus that of the one chosen, exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache

from jackpot.engine import Match, Option, Variant
from jackpot.engine.tiles import from_mask, may_throw_one_die, to_mask
from jackpot.strategy.bots import choose_dice_count_mask
from jackpot.strategy.chances import ZERO, Chances
from jackpot.strategy.classic_match import MAX_SEATS, Facing, classic_table, warm
from jackpot.strategy.classic_turn import ranked_covers
from jackpot.strategy.jackpot_match import jackpot_chances, others_chance
from jackpot.strategy.skill import Decision, DecisionKind
from jackpot.strategy.solver import mask_options, optimal_table, throw_values
from jackpot.strategy.strength import Strength

#: A choice open to a seat: the tiles of a cover, or a dice count (1 or 2).
Choice = Option | int


class ReadsChances:
    """An option's or a position's ``chances``, read through as its own figures."""

    __slots__ = ()
    chances: Chances

    @property
    def p_win(self) -> Fraction:
        return self.chances.p_win

    @property
    def p_draw(self) -> Fraction:
        return self.chances.p_draw

    @property
    def equity(self) -> Fraction:
        return self.chances.equity


@dataclass(frozen=True, slots=True)
class OptionOdds(ReadsChances):
    """One option, valued: for the turn (``p_shut``, ``expected_score``: the solver's
    best from what it leaves) and for the match (``chances``)."""

    choice: Choice
    p_shut: Fraction
    expected_score: Fraction
    chances: Chances

    @property
    def tiles(self) -> Option | None:
        return None if isinstance(self.choice, int) else self.choice

    @property
    def dice_count(self) -> int | None:
        return self.choice if isinstance(self.choice, int) else None


@dataclass(frozen=True, slots=True)
class PositionOdds(ReadsChances):
    """The position of the seat now playing, valued.

    ``decision``: what the seat must choose now ("cover": ``options`` are the throw's
    covers; "dice": one die or two; None: a throw of two dice is simply due).
    ``p_shut``: the best chance of shutting the box this turn from ``open_tiles``,
    before the throw, as the odds have always shown it. ``chances``: the seat's
    chances in the match now, playing on at its best (after a throw: with the best
    cover of that throw).
    """

    variant: Variant
    seat: int
    open_tiles: frozenset[int]
    dice: tuple[int, ...] | None
    decision: DecisionKind | None
    p_shut: Fraction
    chances: Chances
    options: tuple[OptionOdds, ...]
    best: OptionOdds | None

    def option(self, choice: Choice) -> OptionOdds:
        key: Choice = choice if isinstance(choice, int) else tuple(sorted(choice))
        for odds in self.options:
            if odds.choice == key:
                return odds
        raise ValueError(f"{key!r} was not an option of this position")

    def given_away(self, choice: Choice) -> Fraction:
        """Match equity lost by ``choice`` against the best option (0 for the best)."""
        if self.best is None:
            raise ValueError("nothing was to be chosen in this position")
        return self.best.equity - self.option(choice).equity

    def decision_for(self, choice: Choice) -> Decision:
        """The seat's ``choice`` here as one decision, for ``skill.skill``."""
        if self.decision is None:
            raise ValueError("nothing was to be chosen in this position")
        return Decision(self.decision, len(self.options), self.given_away(choice))


@dataclass(frozen=True, slots=True)
class JackpotRound:
    """Where a Jackpot round stands for the seat now playing (all counts of seats still in)."""

    seats_in: int
    shut_before: int
    after: int


def classic_facing(match: Match) -> Facing:
    """What the Classic seat now playing plays against; ValueError if the match is over."""
    seat = _seat(match)
    earlier = [match.totals[s] for s in range(seat) if match.out[s] is None]
    after = sum(1 for s in range(seat + 1, match.seats) if match.out[s] is None)
    if not earlier:
        return Facing(None, 0, after)
    low = min(earlier)
    return Facing(low, earlier.count(low), after)


def jackpot_round(match: Match) -> JackpotRound:
    """Where the Jackpot round stands for the seat now playing; ValueError if the match is over."""
    seat = _seat(match)
    still_in = [s for s in range(match.seats) if match.out[s] is None]
    return JackpotRound(
        seats_in=len(still_in),
        shut_before=sum(1 for s in still_in if s != seat and match.shut[s] is not None),
        after=sum(1 for s in still_in if s > seat),
    )


def _seat(match: Match) -> int:
    if match.turn is None:
        raise ValueError("the match is over: nobody is to play")
    return match.turn.seat


#: The chances of the seat after leaving an open set (by mask), and after choosing a
#: dice count from one (mask, count).
Valuers = tuple[Callable[[int], Chances], Callable[[int, int], Chances]]


def _valuers(match: Match) -> Valuers:
    variant = match.variant
    table = optimal_table(variant)
    if match.seats == 1:
        # Solo: the chance of shutting the box this turn, played for that alone.
        def solo(mask: int) -> Chances:
            return Chances(table.p_max[mask], ZERO, table.p_max[mask])

        def solo_count(mask: int, count: int) -> Chances:
            p = throw_values(variant, from_mask(mask), count)[0]
            return Chances(p, ZERO, p)

        return solo, solo_count
    if variant is Variant.CLASSIC:
        seat_table = classic_table(classic_facing(match))
        return seat_table.chances, seat_table.count_chances
    state = jackpot_round(match)

    def in_round(mask: int) -> Chances:
        return _jackpot_after(mask, state)

    def in_round_count(mask: int, count: int) -> Chances:
        raise ValueError("Jackpot is always played with two dice")

    return in_round, in_round_count


@lru_cache(maxsize=16384)
def _jackpot_after(mask: int, state: JackpotRound) -> Chances:
    """Memoised: a review asks for the same few hundred open sets again and again, and
    the exact sums are long (four seats: denominators of several hundred bits)."""
    return jackpot_chances(
        optimal_table(Variant.JACKPOT).p_max[mask],
        seats_in=state.seats_in,
        shut_before=state.shut_before,
        after=state.after,
    )


@cache
def _ranked_covers(variant: Variant, mask: int, dice: tuple[int, ...]) -> tuple[Option, ...]:
    """The throw's covers, the best bot's favourite first: ties of equity go its way."""
    if variant is Variant.CLASSIC:
        return tuple(o for o, _ in ranked_covers(mask, dice))
    table = optimal_table(variant)

    def key(o: Option) -> tuple[object, ...]:
        rest = mask & ~to_mask(o)
        return (table.p_max[rest], -table.e_min[rest], o[0])

    return tuple(sorted(mask_options(variant, mask, dice), key=key, reverse=True))


def _pick(ranked: list[OptionOdds]) -> OptionOdds:
    best = ranked[0]
    for odds in ranked[1:]:
        if odds.chances.ranks_above(best.chances):
            best = odds
    return best


def match_odds(match: Match) -> PositionOdds | None:
    """The odds of the position of the seat now playing; None once the match is over."""
    turn = match.turn
    if turn is None:
        return None
    variant = match.variant
    mask = to_mask(turn.open)
    table = optimal_table(variant)
    after_cover, after_count = _valuers(match)
    decision: DecisionKind | None = None
    ranked: list[OptionOdds] = []
    if turn.dice is not None:
        decision = "cover"
        for option in _ranked_covers(variant, mask, turn.dice):
            rest = mask & ~to_mask(option)
            ranked.append(
                OptionOdds(option, table.p_max[rest], table.e_min[rest], after_cover(rest))
            )
    elif may_throw_one_die(variant, turn.open):
        decision = "dice"
        favourite = choose_dice_count_mask(variant, Strength.BEST, mask)
        for count in sorted((1, 2), key=lambda c: c != favourite):
            p, e = throw_values(variant, turn.open, count)
            ranked.append(OptionOdds(count, p, e, after_count(mask, count)))
    best = _pick(ranked) if ranked else None
    return PositionOdds(
        variant=variant,
        seat=turn.seat,
        open_tiles=turn.open,
        dice=turn.dice,
        decision=decision,
        p_shut=table.p_max[mask],
        chances=after_cover(mask) if best is None else best.chances,
        options=tuple(sorted(ranked, key=lambda o: _order(o.choice))),
        best=best,
    )


def _order(choice: Choice) -> tuple[int, ...]:
    return (choice,) if isinstance(choice, int) else choice


def jackpot_rounds() -> list[JackpotRound]:
    """Every state a Jackpot round can be in for the seat playing (19 of them): two to
    four seats still in, any number still to throw after it, any of those before it
    with a shut box."""
    return [
        JackpotRound(seats_in, shut_before, after)
        for seats_in in range(2, MAX_SEATS + 1)
        for after in range(seats_in)
        for shut_before in range(seats_in - after)
    ]


def warm_up() -> int:
    """Build every table the odds of any match can need (a few seconds, once per
    process), so that no player waits for them: the solver's, every Classic seat's
    state, and each Jackpot round's values of every open set (their exact sums take
    up to a few milliseconds each the first time); returns how many Classic states."""
    for variant in Variant:
        optimal_table(variant)
    others_chance()
    for state in jackpot_rounds():
        for mask in range(1 << 9):
            _jackpot_after(mask, state)
    return warm()
