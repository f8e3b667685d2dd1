"""warm_up() builds what any live position needs: every Jackpot round state is listed."""

from __future__ import annotations

import random

from jackpot.engine import Match, Variant
from jackpot.strategy.match_odds import jackpot_round, jackpot_rounds

#: Dice that offer tile t (one die showing it, or two adding up to it).
DICE_FOR = {t: (t, 1) if t <= 6 else (t - 4, 4) for t in range(1, 10)}


def test_every_jackpot_round_a_match_reaches_is_warmed() -> None:
    """Matches of two to four seats where each turn, by a coin, either shuts the box
    (the dice are picked to offer the highest open tile) or plays at random, and seats
    leave now and then: the round state of every seat that plays is one of
    jackpot_rounds(), and all 19 of them turn up."""
    listed = set(jackpot_rounds())
    assert len(listed) == len(jackpot_rounds()) == 19
    rng = random.Random(37)
    met = set()
    for game in range(300):
        m = Match.new(Variant.JACKPOT, 2 + game % 3)
        shutter = False
        for _ in range(3000):
            turn = m.turn
            if turn is None:
                break
            met.add(jackpot_round(m))
            if turn.dice is None and rng.random() < 0.02:
                m, _ = m.leave(turn.seat, "resigned")
            elif turn.dice is None:
                if len(turn.open) == 9:
                    shutter = rng.random() < 0.5
                dice = (
                    DICE_FOR[max(turn.open)]
                    if shutter
                    else (rng.randint(1, 6), rng.randint(1, 6))
                )
                m, _ = m.throw(turn.seat, dice)
            else:
                top = (max(turn.open),)
                m, _ = m.cover(turn.seat, top if top in turn.options else rng.choice(turn.options))
    assert met <= listed
    assert met == listed, listed - met
