"""The engine's refusals in every language, worded from their data at the edge: in
English exactly the engine's own message, elsewhere with the numbers in place."""

from __future__ import annotations

import random

import pytest

from jackpot.engine import Variant
from jackpot.engine.errors import IllegalMove
from jackpot.engine.match import Match
from jackpot.i18n import use_locale
from jackpot.i18n.engine_errors import explain


def refusals(seed: int) -> list[IllegalMove]:
    """Every kind of wrong move, tried at random moments of random matches."""
    rng = random.Random(seed)
    found: list[IllegalMove] = []
    for variant in Variant:
        match = Match.new(variant, 2)
        for _ in range(60):
            if match.finished:
                found.extend(_try(match, rng))
                break
            found.extend(_try(match, rng))
            turn = match.turn
            assert turn is not None
            if turn.dice is None:
                match, _events = match.throw(turn.seat, (rng.randint(1, 6), rng.randint(1, 6)))
            else:
                match, _events = match.cover(turn.seat, rng.choice(turn.options))
    return found


def _try(match: Match, rng: random.Random) -> list[IllegalMove]:
    tries = [
        lambda: match.throw(0, (7, 0)),
        lambda: match.throw(0, (3,)),
        lambda: match.throw(1, (2, 3)),
        lambda: match.throw(5, (2, 3)),
        lambda: match.cover(0, ()),
        lambda: match.cover(0, (rng.randint(1, 9),)),
        lambda: match.cover(1, (rng.randint(1, 9), rng.randint(1, 9))),
        lambda: match.cover(0, (1, 2, 3)),
    ]
    found = []
    for attempt in tries:
        try:
            attempt()
        except IllegalMove as exc:
            found.append(exc)
    return found


@pytest.mark.parametrize("seed", range(5))
def test_english_is_the_engines_own_message(seed: int) -> None:
    seen = set()
    with use_locale("en"):
        for exc in refusals(seed):
            assert explain(exc) == str(exc)
            seen.add(exc.reason)
    assert {"must_cover", "must_throw", "not_on_offer", "choose", "dice_range"} <= seen


def test_not_on_offer_in_portuguese_and_slovak() -> None:
    match = Match.new(Variant.JACKPOT, 1)
    match, _ = match.throw(0, (2, 5))
    with pytest.raises(IllegalMove) as caught:
        match.cover(0, (4,))
    exc = caught.value
    assert str(exc) == "tile 4 is not on offer: the dice 2 and 5 reach 2, 5 or 7"
    with use_locale("pt"):
        assert explain(exc) == "a peça 4 não está em jogo: os dados 2 e 5 chegam a 2, 5 ou 7"
    with use_locale("sk"):
        assert explain(exc) == "doštička 4 nie je v ponuke: kocky 2 a 5 dosiahnu 2, 5 alebo 7"


@pytest.mark.parametrize("lang", ["pt", "ms", "et", "sk"])
def test_no_english_words_are_left(lang: str) -> None:
    english = {"seat", "tile", "tiles", "dice", "reach", "offer", "throw", "cover", "match"}
    with use_locale(lang):
        for exc in refusals(1):
            words = set(explain(exc).replace(":", " ").split())
            assert not words & english, (str(exc), explain(exc))
