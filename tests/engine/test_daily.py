"""The daily entry on the engine, and the places rule of jackpot-record/3, with chosen dice."""

from __future__ import annotations

import pytest
from test_match import JACKPOT_RUN, classic_turn, dead_turn, shut_the_box

from jackpot.engine import (
    RULES,
    RULES_BEFORE_SHARED_PLACE,
    DailyResult,
    Match,
    MatchEnded,
    MatchOver,
    SeatOut,
    Thrown,
    TurnEnded,
    TurnStarted,
    Variant,
    daily_places,
    daily_result,
    throw_number,
    versus_par,
)

J, C = Variant.JACKPOT, Variant.CLASSIC

# Classic: a shut box in five throws (9, 8, 7, {6, 5}, {4, 3, 2, 1}).
CLASSIC_SHUT = [
    ((3, 6), [9]),
    ((2, 6), [8]),
    ((3, 4), [7]),
    ((6, 5), [5, 6]),
    ((5, 5), [1, 2, 3, 4]),
]


def classic_shut(m: Match, seat: int) -> Match:
    for dice, tiles in CLASSIC_SHUT:
        m, _ = m.throw(seat, dice)
        m, _ = m.cover(seat, tiles)
    return m


# -- the places rule of jackpot-record/3 ---------------------------------------------


@pytest.mark.parametrize(
    ("rules", "places"),
    [(RULES, (2, 4, 1, 2)), (RULES_BEFORE_SHARED_PLACE, (3, 4, 1, 2))],
)
def test_classic_shut_shares_the_place_after_the_winner_and_leavers_follow(
    rules: int, places: tuple[int, ...]
) -> None:
    m = Match.new(C, 4, rules=rules)
    m = classic_turn(m, 0)  # scores 9
    m, _ = m.leave(1, "resigned")
    m = classic_shut(m, 2)
    assert m.result is not None and m.result.winners == (2,)
    assert m.result.totals == (9, 0, 0, 0)
    assert m.result.places == places


def test_classic_without_a_shut_box_is_placed_by_totals_under_both_rules() -> None:
    for rules in (RULES, RULES_BEFORE_SHARED_PLACE):
        m = Match.new(C, 2, rules=rules)
        m = classic_turn(m, 0)
        m, _ = m.throw(1, (6, 6))
        m, _ = m.cover(1, [3, 9])
        m, _ = m.throw(1, (6, 6))  # 12 from {1, 2, 4, 5, 6, 7, 8}: {4, 8}
        m, _ = m.cover(1, [4, 8])
        m, _ = m.throw(1, (6, 6))  # {5, 7}
        m, _ = m.cover(1, [5, 7])
        m, _ = m.throw(1, (6, 6))  # 12 from {1, 2, 6}: nothing, score 9
        assert m.result is not None
        assert m.result.totals == (9, 9) and m.result.places == (1, 1), rules


def test_jackpot_places_do_not_change_with_the_rules() -> None:
    for rules in (RULES, RULES_BEFORE_SHARED_PLACE):
        m = Match.new(J, 3, rules=rules)
        m = shut_the_box(m, 0)
        m = dead_turn(m, 1)
        m, _ = m.throw(2, (1, 2))
        m, _ = m.cover(2, [3])
        m, _ = m.throw(2, (3, 3))
        m, _ = m.cover(2, [6])
        m, _ = m.throw(2, (3, 3))  # 3 and 6 are down: dead, 45 - 9 = 36
        assert m.result is not None
        assert m.result.totals == (0, 39, 36) and m.result.places == (1, 3, 2), rules


def test_the_rules_travel_with_the_snapshot_and_an_old_snapshot_keeps_the_old_rule() -> None:
    m = Match.new(C, 3)
    m = classic_turn(m, 0)
    snapshot = m.to_dict()
    assert snapshot["rules"] == RULES and "daily_turns" not in snapshot
    assert Match.from_dict(snapshot) == m
    # A match in progress when the rules changed: its snapshot says nothing of them.
    del snapshot["rules"]
    old = Match.from_dict(snapshot)
    assert old.rules == RULES_BEFORE_SHARED_PLACE
    new_end, old_end = classic_shut(m, 1), classic_shut(old, 1)
    assert new_end.result is not None and old_end.result is not None
    assert new_end.result.places == (2, 1, 2) and old_end.result.places == (3, 1, 2)
    assert Match.from_dict(old_end.to_dict()) == old_end


def test_unknown_rules_are_refused() -> None:
    with pytest.raises(ValueError, match="rules"):
        Match.new(C, 2, rules=4)


# -- the daily entry -----------------------------------------------------------------


def test_a_daily_entry_numbers_its_throws_turn_by_turn() -> None:
    m = Match.new_daily(J)
    assert (m.seats, m.round, m.throws, m.daily, m.daily_turns) == (1, 1, 0, True, 10)
    m, _ = m.throw(0, (6, 6))
    m, _ = m.cover(0, [6])
    m, events = m.throw(0, (6, 6))  # dead: turn 0 scores 39 after 2 throws
    assert events == [
        Thrown(n=1, seat=0, dice=(6, 6), options=()),
        TurnEnded(seat=0, score=39, throws=2, shut=False, total=39),
        TurnStarted(seat=0, round=2),
    ]
    assert (m.round, m.throws, m.turn_scores) == (2, 16, (39,))
    m, events = m.throw(0, (2, 3))
    assert events[0] == Thrown(n=16, seat=0, dice=(2, 3), options=((2,), (3,), (5,)))
    assert Match.from_dict(m.to_dict()) == m


def test_a_jackpot_ends_only_its_turn_and_ten_turns_end_the_entry() -> None:
    m = Match.new_daily(J)
    m = shut_the_box(m, 0)
    assert not m.finished and m.turn_scores == (0,) and m.throws == throw_number(1, 0)
    for turn in range(1, 9):
        m = dead_turn(m, 0)
        assert m.throws == throw_number(turn + 1, 0)
    m, _ = m.throw(0, JACKPOT_RUN[0][0])
    m, _ = m.cover(0, [JACKPOT_RUN[0][1]])
    ns = []
    for dice, tile in JACKPOT_RUN[1:]:
        m, events = m.throw(0, dice)
        ns.append(events[0].n)  # type: ignore[union-attr]
        m, events = m.cover(0, [tile])
    assert ns == list(range(145, 153))
    assert isinstance(events[-1], MatchEnded)
    expected = DailyResult(turn_scores=(0, *(39,) * 8, 0), jackpots=2, total=312)
    assert m.finished and m.result == expected and events[-1].result == expected
    assert m.result.to_dict() == {"turn_scores": [0, *[39] * 8, 0], "jackpots": 2, "total": 312}
    assert Match.from_dict(m.to_dict()) == m
    with pytest.raises(MatchOver):
        m.throw(0, (1, 1))


def test_classic_daily_goes_on_after_a_shut_box_and_offers_one_die() -> None:
    m = Match.new_daily(C)
    for dice, tiles in CLASSIC_SHUT[:3]:
        m, _ = m.throw(0, dice)
        m, _ = m.cover(0, tiles)
    assert m.may_throw_one_die
    m, _ = m.throw(0, (6,))
    m, _ = m.cover(0, [6])
    m, _ = m.throw(0, (5,))
    m, _ = m.cover(0, [5])
    m, _ = m.throw(0, (4, 6))  # 10 from {1, 2, 3, 4}: {1, 2, 3, 4}
    m, events = m.cover(0, [1, 2, 3, 4])
    assert events[-1] == TurnStarted(seat=0, round=2)
    assert not m.finished and m.turn_scores == (0,) and m.throws == 16


@pytest.mark.parametrize("reason", ["resigned", "timeout"])
def test_leaving_scores_the_unfinished_turn_and_every_later_one_45(reason: str) -> None:
    m = Match.new_daily(J)
    m = shut_the_box(m, 0)
    m = dead_turn(m, 0)
    m, _ = m.throw(0, (1, 2))  # a cover is due when the entry ends
    m, events = m.leave(0, reason)
    expected = DailyResult(turn_scores=(0, 39, *(45,) * 8), jackpots=1, total=399)
    assert events == [SeatOut(seat=0, reason=reason), MatchEnded(result=expected)]
    assert m.result == expected and m.out == (reason,)
    assert Match.from_dict(m.to_dict()) == m


def test_an_entry_never_begun_scores_45_a_turn() -> None:
    m, _ = Match.new_daily(C).leave(0, "timeout")
    assert m.result == DailyResult(turn_scores=(45,) * 10, jackpots=0, total=450)


def test_daily_result_and_throw_numbers() -> None:
    assert daily_result([0, 12, 0]) == DailyResult((0, 12, 0, *(45,) * 7), 2, 327)
    assert daily_result([], turns=2) == DailyResult((45, 45), 0, 90)
    with pytest.raises(ValueError):
        daily_result([1] * 11)
    assert throw_number(0, 0) == 0 and throw_number(3, 2) == 50 and throw_number(9, 15) == 159
    with pytest.raises(ValueError):
        throw_number(1, 16)


def test_entries_are_ranked_by_jackpots_then_total_and_equal_share() -> None:
    def r(jackpots: int, total: int) -> DailyResult:
        return DailyResult(turn_scores=(0,) * 10, jackpots=jackpots, total=total)

    results = [r(2, 150), r(2, 150), r(3, 200), r(0, 100), r(2, 149)]
    assert daily_places(results) == [3, 3, 1, 5, 2]
    assert daily_places([]) == []
    assert daily_places([r(0, 450)] * 3) == [1, 1, 1]


def test_an_entry_against_par() -> None:
    par = DailyResult(turn_scores=(0,) * 10, jackpots=1, total=150)
    better = versus_par(DailyResult((0,) * 10, 2, 160), par)
    assert (better.jackpots, better.total, better.standing) == (1, 10, "better")
    assert versus_par(DailyResult((0,) * 10, 1, 150), par).standing == "level"
    worse = versus_par(DailyResult((0,) * 10, 1, 151), par)
    assert (worse.jackpots, worse.total, worse.standing) == (0, 1, "worse")
