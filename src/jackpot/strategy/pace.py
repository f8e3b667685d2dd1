"""How many moves a turn asks of a person, and how many of them are decisions.

This is the figure behind autoplay: with a deadline per move, a player who looks in
once a day spends a day per move, so every move that is not a decision costs a
day for nothing. Two ways to the same numbers, as for the shut rate: the engine
playing turns move by move (what a person would have pressed), and exact expected
values over the open sets (Fractions), so a reader can trust the digits.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from fractions import Fraction
from functools import cache
from typing import Generic, TypeVar

from jackpot.engine import Match, TurnEnded, Variant
from jackpot.engine.tiles import from_mask, may_throw_one_die, to_mask
from jackpot.strategy.autoplay import ON, AutoCover, AutoThrow, Roll, bot_step, forced_move
from jackpot.strategy.bots import choose_cover_mask, choose_dice_count_mask
from jackpot.strategy.solver import MASKS, mask_options, throw_classes
from jackpot.strategy.strength import Strength

N = TypeVar("N", int, Fraction)


@dataclass(frozen=True)
class Moves(Generic[N]):
    """Moves of one turn (or their sum, or their expectation) by kind."""

    #: Throws with no choice in them (two dice, the one-die choice closed).
    forced_throws: N
    #: Throws where one die or two was the player's choice (Classic, 7-8-9 down).
    chosen_throws: N
    #: Covers with exactly one option.
    single_covers: N
    #: Covers with two options or more.
    chosen_covers: N

    @property
    def without_autoplay(self) -> N:
        """Every throw and every cover is pressed."""
        return self.forced_throws + self.chosen_throws + self.single_covers + self.chosen_covers

    @property
    def autoplay_throws(self) -> N:
        return self.chosen_throws + self.single_covers + self.chosen_covers

    @property
    def autoplay_covers(self) -> N:
        return self.forced_throws + self.chosen_throws + self.chosen_covers

    @property
    def autoplay_both(self) -> N:
        """What is left with autoplay on: only real choices."""
        return self.chosen_throws + self.chosen_covers


def count_turns(variant: Variant, strength: Strength, turns: int, roll: Roll) -> list[Moves[int]]:
    """Play ``turns`` turns from a full board on the engine, the bot choosing, and count.

    Solo matches, one after another (a turn's moves do not depend on other seats);
    ``roll(n, count)`` supplies the dice for the n-th throw of the current match.
    """
    counted: list[Moves[int]] = []
    match = Match.new(variant, 1)
    tally = dict.fromkeys(("forced_throws", "chosen_throws", "single_covers", "chosen_covers"), 0)
    while len(counted) < turns:
        if match.turn is None:
            match = Match.new(variant, 1)
        turn = match.turn
        assert turn is not None
        forced = forced_move(match, 0, ON)
        if turn.dice is None:
            tally["forced_throws" if isinstance(forced, AutoThrow) else "chosen_throws"] += 1
        else:
            tally["single_covers" if isinstance(forced, AutoCover) else "chosen_covers"] += 1
        match, events = bot_step(match, strength, roll)
        if any(isinstance(e, TurnEnded) for e in events):
            counted.append(Moves(**tally))
            tally = dict.fromkeys(tally, 0)
    return counted


@cache
def expected_moves(variant: Variant, strength: Strength) -> Moves[Fraction]:
    """Exact expected moves of a turn from a full board when the bot plays it."""
    zero = Moves(Fraction(0), Fraction(0), Fraction(0), Fraction(0))
    table: list[Moves[Fraction]] = [zero] * MASKS
    for mask in range(1, MASKS):
        count = choose_dice_count_mask(variant, strength, mask)
        chosen = may_throw_one_die(variant, from_mask(mask))
        sums = [Fraction(0)] * 4
        for dice, weight in throw_classes(variant, count):
            opts = mask_options(variant, mask, dice)
            if not opts:
                continue
            rest = table[mask & ~to_mask(choose_cover_mask(variant, strength, mask, dice))]
            cover = (0, 0, 1, 0) if len(opts) == 1 else (0, 0, 0, 1)
            for k, f in enumerate(fields(rest)):
                sums[k] += weight * (cover[k] + getattr(rest, f.name))
        throw = (0, 1) if chosen else (1, 0)
        scale = Fraction(1, 6**count)
        table[mask] = Moves(
            forced_throws=throw[0] + sums[0] * scale,
            chosen_throws=throw[1] + sums[1] * scale,
            single_covers=sums[2] * scale,
            chosen_covers=sums[3] * scale,
        )
    return table[MASKS - 1]
