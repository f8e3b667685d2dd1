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

A match is read as a ``Stake`` (what the seat plays for: a Classic ``Facing``, a
``JackpotRound``, or None alone) and a turn (open tiles, dice), and
``position_odds`` values any such position: the analysis board states one directly,
and a match's odds are the same call, so both give the same numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache

from jackpot.engine import Match, Option, Variant
from jackpot.engine.tiles import TILES, from_mask, may_throw_one_die, score, to_mask
from jackpot.strategy.bots import choose_dice_count_mask
from jackpot.strategy.chances import LOST, ZERO, Chances
from jackpot.strategy.classic_match import (
    MAX_SEATS,
    Facing,
    classic_table,
    denominator,
    warm,
    worths,
)
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
    covers; "dice": one die or two; None: a throw of two dice is simply due, or the
    throw reached nothing and ends the turn, ``ends_turn``).
    ``p_shut`` and ``expected_score``: the best chance of shutting the box this turn
    from ``open_tiles``, before the throw, as the odds have always shown it, and the
    lowest expected score. ``chances``: the seat's chances in the match now, playing
    on at its best (after a throw: with the best cover of that throw; after a throw
    that reached nothing: with the turn ended on the tiles still open).
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
    expected_score: Fraction = ZERO
    stake: Stake = None

    @property
    def ends_turn(self) -> bool:
        """The dice are thrown and reach nothing: the turn is over."""
        return self.dice is not None and not self.options

    def ranked(self) -> tuple[OptionOdds, ...]:
        """The options best first: ``best``, then by equity, chance of winning alone,
        chance of shutting the box and expected score; the rest as listed."""
        def key(o: OptionOdds) -> tuple[object, ...]:
            return (o is not self.best, -o.equity, -o.p_win, -o.p_shut, o.expected_score)

        return tuple(sorted(self.options, key=key))

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


#: What the seat now playing plays for: in Classic the score to beat and the seats
#: after it (``Facing``), in Jackpot where the round stands (``JackpotRound``), or
#: nothing beyond the turn itself (None: a seat alone).
Stake = Facing | JackpotRound | None


def match_stake(match: Match) -> Stake:
    """What the seat now playing in ``match`` plays for; ValueError if it is over."""
    _seat(match)
    if match.seats == 1:
        return None
    if match.variant is Variant.CLASSIC:
        return classic_facing(match)
    return jackpot_round(match)


def check_stake(variant: Variant, stake: Stake) -> None:
    """ValueError unless ``stake`` is one a seat of ``variant`` can play for."""
    if stake is None:
        return
    if variant is Variant.CLASSIC:
        if not isinstance(stake, Facing):
            raise ValueError("a Classic seat plays against a score to beat (Facing)")
        return
    if not isinstance(stake, JackpotRound):
        raise ValueError("a Jackpot seat plays a round (JackpotRound)")
    if stake not in _JACKPOT_ROUNDS:
        raise ValueError(f"{stake} is no state of a Jackpot round of 2 to {MAX_SEATS} seats")


#: The chances of the seat after leaving an open set (by mask), and after choosing a
#: dice count from one (mask, count).
Valuers = tuple[Callable[[int], Chances], Callable[[int, int], Chances]]


def _valuers(variant: Variant, stake: Stake) -> Valuers:
    table = optimal_table(variant)
    if stake is None:
        # Solo: the chance of shutting the box this turn, played for that alone.
        def solo(mask: int) -> Chances:
            return Chances(table.p_max[mask], ZERO, table.p_max[mask])

        def solo_count(mask: int, count: int) -> Chances:
            p = throw_values(variant, from_mask(mask), count)[0]
            return Chances(p, ZERO, p)

        return solo, solo_count
    if isinstance(stake, Facing):
        seat_table = classic_table(stake)
        return seat_table.chances, seat_table.count_chances
    state = stake

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
    return position_odds(match.variant, turn.open, turn.dice, match_stake(match), turn.seat)


def position_odds(
    variant: Variant,
    open_tiles: frozenset[int],
    dice: tuple[int, ...] | None,
    stake: Stake,
    seat: int = 0,
) -> PositionOdds:
    """The odds of a seat of ``variant`` playing for ``stake`` with ``open_tiles`` open,
    before its throw (``dice`` None) or after it; ValueError for a position no turn
    can reach (no tile open, dice that are not one or two of 1 to 6, one die where
    two are due, a stake of the other variant or out of range)."""
    _check_turn(variant, open_tiles, dice)
    check_stake(variant, stake)
    mask = to_mask(open_tiles)
    table = optimal_table(variant)
    after_cover, after_count = _valuers(variant, stake)
    decision: DecisionKind | None = None
    ranked: list[OptionOdds] = []
    if dice is not None:
        for option in _ranked_covers(variant, mask, tuple(sorted(dice))):
            rest = mask & ~to_mask(option)
            ranked.append(
                OptionOdds(option, table.p_max[rest], table.e_min[rest], after_cover(rest))
            )
        decision = "cover" if ranked else None
    elif may_throw_one_die(variant, open_tiles):
        decision = "dice"
        favourite = choose_dice_count_mask(variant, Strength.BEST, mask)
        for count in sorted((1, 2), key=lambda c: c != favourite):
            p, e = throw_values(variant, open_tiles, count)
            ranked.append(OptionOdds(count, p, e, after_count(mask, count)))
    best = _pick(ranked) if ranked else None
    if best is not None:
        chances = best.chances
    elif dice is not None:
        chances = _turn_over(stake, mask)
    else:
        chances = after_cover(mask)
    return PositionOdds(
        variant=variant,
        seat=seat,
        open_tiles=frozenset(open_tiles),
        dice=None if dice is None else tuple(dice),
        decision=decision,
        p_shut=table.p_max[mask],
        chances=chances,
        options=tuple(sorted(ranked, key=lambda o: _order(o.choice))),
        best=best,
        expected_score=table.e_min[mask],
        stake=stake,
    )


def _check_turn(
    variant: Variant, open_tiles: frozenset[int], dice: tuple[int, ...] | None
) -> None:
    if not open_tiles or not open_tiles <= frozenset(TILES):
        raise ValueError(f"a turn has one to nine of the tiles 1 to 9 open: {sorted(open_tiles)}")
    if dice is None:
        return
    if len(dice) not in (1, 2) or any(not 1 <= d <= 6 for d in dice):
        raise ValueError(f"a throw is one or two dice of 1 to 6, not {list(dice)}")
    if len(dice) == 1 and not may_throw_one_die(variant, open_tiles):
        raise ValueError("one die may be thrown only in Classic, once 7, 8 and 9 are covered")


def _turn_over(stake: Stake, mask: int) -> Chances:
    """The seat's chances once its turn has ended with ``mask`` still open (not shut)."""
    if stake is None:
        return LOST  # alone, only a shut box counts
    if isinstance(stake, Facing):
        e, w, d = worths(stake)[score(from_mask(mask))]
        whole = denominator(stake.after)
        return Chances(Fraction(w, whole), Fraction(d, whole), Fraction(e, whole))
    return jackpot_chances(
        ZERO, seats_in=stake.seats_in, shut_before=stake.shut_before, after=stake.after
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


#: The states a Jackpot seat can play for in a match of two seats or more.
_JACKPOT_ROUNDS = frozenset(jackpot_rounds())


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
