"""The match rules (the rules page, templates/rules.html), driven with chosen dice."""

from __future__ import annotations

import pytest

from jackpot.engine import (
    FULL,
    RULES,
    RULES_BEFORE_SHARED_PLACE,
    BadDice,
    Covered,
    Match,
    MatchOver,
    NotOnOffer,
    NotYourTurn,
    SeatIsOut,
    SeatOut,
    Thrown,
    TurnEnded,
    TurnStarted,
    UnknownSeat,
    Variant,
    WrongPhase,
)

J, C = Variant.JACKPOT, Variant.CLASSIC

# Nine throws that shut the box in Jackpot, one tile each (die, die -> tile covered).
JACKPOT_RUN = [
    ((3, 6), 9),
    ((2, 6), 8),
    ((3, 4), 7),
    ((6, 1), 6),
    ((5, 1), 5),
    ((4, 1), 4),
    ((3, 1), 3),
    ((2, 1), 2),
    ((1, 2), 1),
]


def shut_the_box(m: Match, seat: int) -> Match:
    for dice, tile in JACKPOT_RUN:
        m, _ = m.throw(seat, dice)
        m, _ = m.cover(seat, [tile])
    return m


def dead_turn(m: Match, seat: int) -> Match:
    """Jackpot: cover the 6 with a double six, then another double six ends the turn (39)."""
    m, _ = m.throw(seat, (6, 6))
    m, _ = m.cover(seat, [6])
    m, events = m.throw(seat, (6, 6))
    assert isinstance(events[1], TurnEnded) and events[1].score == 39
    return m


def classic_turn(m: Match, seat: int) -> Match:
    """Classic: 9, 8, 7, then {1, 5, 6}; a last 12 from {2, 3, 4} ends the turn (score 9)."""
    for dice, tiles in [((3, 6), [9]), ((2, 6), [8]), ((3, 4), [7]), ((6, 6), [1, 5, 6])]:
        m, _ = m.throw(seat, dice)
        m, _ = m.cover(seat, tiles)
    m, events = m.throw(seat, (6, 6))
    assert isinstance(events[1], TurnEnded) and events[1].score == 9
    return m


def test_a_throw_and_a_cover_report_what_happened() -> None:
    m = Match.new(J, 2)
    m, events = m.throw(0, (2, 3))
    assert events == [Thrown(n=0, seat=0, dice=(2, 3), options=((2,), (3,), (5,)))]
    assert m.turn is not None and m.turn.dice == (2, 3) and m.throws == 1
    m, events = m.cover(0, [5])
    assert events == [Covered(n=0, seat=0, tiles=(5,), open=FULL - {5})]
    assert m.turn is not None and m.turn.dice is None and m.turn.open == FULL - {5}


def test_a_dead_throw_ends_the_turn_and_scores_the_open_tiles() -> None:
    m = Match.new(J, 2)
    m, _ = m.throw(0, (6, 6))
    m, _ = m.cover(0, [6])
    m, events = m.throw(0, (6, 6))
    assert events == [
        Thrown(n=1, seat=0, dice=(6, 6), options=()),
        TurnEnded(seat=0, score=39, throws=2, shut=False, total=39),
        TurnStarted(seat=1, round=1),
    ]
    assert m.totals == (39, 0)


def test_precise_errors() -> None:
    m = Match.new(J, 2)
    with pytest.raises(NotYourTurn, match="it is not seat 1's turn"):
        m.throw(1, (2, 5))
    with pytest.raises(WrongPhase, match="must throw before covering"):
        m.cover(0, [4])
    m, _ = m.throw(0, (2, 5))
    with pytest.raises(
        NotOnOffer, match=r"^tile 4 is not on offer: the dice 2 and 5 reach 2, 5 or 7$"
    ):
        m.cover(0, [4])
    with pytest.raises(NotOnOffer):
        m.cover(0, [2, 5])
    with pytest.raises(WrongPhase, match="must cover before throwing again"):
        m.throw(0, (1, 1))
    with pytest.raises(UnknownSeat):
        m.throw(7, (1, 1))
    with pytest.raises(BadDice, match="always played with two dice"):
        Match.new(J, 1).throw(0, (3,))
    with pytest.raises(BadDice, match="one or two dice from 1 to 6"):
        Match.new(J, 1).throw(0, (0, 7))


def test_classic_cover_any_set_summing_to_the_total() -> None:
    m = Match.new(C, 2)
    m, events = m.throw(0, (2, 6))
    assert isinstance(events[0], Thrown) and len(events[0].options) == 6
    with pytest.raises(
        NotOnOffer, match=r"tiles 2 and 5 are not on offer: the dice 2 and 6 \(total 8\)"
    ):
        m.cover(0, [5, 2])
    m, _ = m.cover(0, [5, 2, 1])
    assert m.turn is not None and m.turn.open == FULL - {1, 2, 5}


def test_classic_one_die_allowed_only_once_seven_eight_nine_are_down() -> None:
    m = Match.new(C, 1)
    with pytest.raises(BadDice, match="once 7, 8 and 9"):
        m.throw(0, (4,))
    for dice, tiles in [((3, 6), [9]), ((2, 6), [8]), ((3, 4), [7])]:
        m, _ = m.throw(0, dice)
        m, _ = m.cover(0, tiles)
    assert m.may_throw_one_die
    m, events = m.throw(0, (4,))
    assert events[0] == Thrown(n=3, seat=0, dice=(4,), options=((1, 3), (4,)))


def test_classic_one_five_nine_open_and_a_four_scores_fifteen() -> None:
    m = Match.new(C, 1)
    for dice, tiles in [
        ((3, 5), [8]),
        ((3, 4), [7]),
        ((2, 6), [6, 2]),
        ((1, 3), [4]),
        ((1, 2), [3]),
    ]:
        m, _ = m.throw(0, dice)
        m, _ = m.cover(0, tiles)
    assert m.turn is not None and m.turn.open == frozenset({1, 5, 9})
    m, events = m.throw(0, (1, 3))
    assert events[1] == TurnEnded(seat=0, score=15, throws=6, shut=False, total=15)
    assert m.result is not None and m.result.winners == (0,) and m.result.totals == (15,)


def test_jackpot_in_round_three_lets_the_later_seats_take_their_third_turn() -> None:
    m = Match.new(J, 4)
    for _ in range(2):
        for seat in range(4):
            m = dead_turn(m, seat)
    assert m.round == 3
    m = shut_the_box(m, 0)
    assert not m.finished and m.turn is not None and m.turn.seat == 1
    for seat in (1, 2, 3):
        m = dead_turn(m, seat)
    assert m.result is not None
    assert m.result.winners == (0,)
    assert m.result.rounds == 3
    assert m.result.shut == (9, None, None, None)
    assert m.result.totals == (78, 117, 117, 117)
    assert m.result.places == (1, 2, 2, 2)


def test_two_jackpots_in_one_round_draw() -> None:
    m = Match.new(J, 3)
    m = shut_the_box(m, 0)
    m = dead_turn(m, 1)
    m = shut_the_box(m, 2)
    assert m.result is not None
    assert m.result.winners == (0, 2)
    assert m.result.places == (1, 3, 1)
    assert m.result.shut == (9, None, 9)


def test_resignation_at_two_seats_ends_the_match() -> None:
    m = Match.new(J, 2)
    m, events = m.leave(1, "resigned")
    assert events[0] == SeatOut(seat=1, reason="resigned")
    assert m.result is not None and m.result.winners == (0,) and m.result.places == (1, 2)
    with pytest.raises(MatchOver, match="the match is over"):
        m.throw(0, (1, 2))


def test_resignation_at_three_seats_goes_on_and_the_leaver_is_last() -> None:
    m = Match.new(J, 3)
    m = dead_turn(m, 0)
    m, _ = m.leave(0, "resigned")
    assert not m.finished and m.turn is not None and m.turn.seat == 1
    with pytest.raises(SeatIsOut):
        m.leave(0, "resigned")
    m = dead_turn(m, 1)
    m = dead_turn(m, 2)
    assert m.round == 2 and m.turn is not None and m.turn.seat == 1
    m = shut_the_box(m, 1)
    m = dead_turn(m, 2)
    assert m.result is not None
    assert m.result.winners == (1,)
    assert m.result.places == (3, 1, 2)


def test_a_timeout_mid_turn_scores_nothing_and_passes_the_dice() -> None:
    m = Match.new(J, 3)
    m, _ = m.throw(0, (2, 3))
    m, _ = m.cover(0, [5])
    m, _ = m.throw(0, (1, 1))
    m, events = m.leave(0, "timeout")
    assert events == [SeatOut(seat=0, reason="timeout"), TurnStarted(seat=1, round=1)]
    assert m.totals == (0, 0, 0) and m.out == ("timeout", None, None)


def test_the_last_seat_of_a_round_leaving_starts_the_next_round() -> None:
    m = Match.new(J, 3)
    m = dead_turn(m, 0)
    m = dead_turn(m, 1)
    m, events = m.leave(2, "timeout")
    assert events[-1] == TurnStarted(seat=0, round=2)


def test_a_shut_box_counts_only_while_its_seat_is_still_in() -> None:
    m = Match.new(J, 3)
    m = shut_the_box(m, 0)
    m, _ = m.leave(0, "resigned")
    m = dead_turn(m, 1)
    m = dead_turn(m, 2)
    assert not m.finished and m.round == 2 and m.turn is not None and m.turn.seat == 1


def test_places_share_ties_and_rank_later_leavers_higher() -> None:
    m = Match.new(C, 4)
    m, _ = m.leave(3, "resigned")
    m, _ = m.throw(0, (6, 6))  # 12 reaches {3, 9}, ...: cover 9 and 3
    m, _ = m.cover(0, [3, 9])
    m, _ = m.throw(0, (6, 6))  # 12 again: {4, 8} etc.
    m, _ = m.cover(0, [4, 8])
    m, _ = m.throw(0, (6, 6))  # {5, 7}
    m, _ = m.cover(0, [5, 7])
    m, _ = m.throw(0, (6, 6))  # 12 from {1, 2, 6}: nothing -> score 9
    assert m.totals[0] == 9
    m, _ = m.leave(1, "timeout")
    m, _ = m.throw(2, (6, 6))
    m, _ = m.cover(2, [3, 9])
    m, _ = m.throw(2, (6, 6))
    m, _ = m.cover(2, [4, 8])
    m, _ = m.throw(2, (6, 6))
    m, _ = m.cover(2, [5, 7])
    m, _ = m.throw(2, (6, 6))
    assert m.result is not None
    assert m.result.winners == (0, 2)
    assert m.result.places == (1, 3, 1, 4)
    assert m.result.rounds == 1


@pytest.mark.parametrize(
    ("rules", "places"),
    [
        # From jackpot-record/3 on, seat 0 (who played, 9) and seat 2 (who never threw)
        # share the place after the winner; before, seat 2's total of 0 ranked it above.
        (RULES, (2, 1, 2)),
        (RULES_BEFORE_SHARED_PLACE, (3, 1, 2)),
    ],
)
def test_classic_shut_box_wins_at_once_and_nobody_throws_after(
    rules: int, places: tuple[int, ...]
) -> None:
    m = Match.new(C, 3, rules=rules)
    m = classic_turn(m, 0)
    for dice, tiles in [
        ((3, 6), [9]),
        ((2, 6), [8]),
        ((3, 4), [7]),
        ((6, 5), [6, 5]),
        ((5, 5), [4, 3, 2, 1]),
    ]:
        m, _ = m.throw(1, dice)
        m, _ = m.cover(1, tiles)
    assert m.result is not None
    assert m.result.winners == (1,) and m.result.shut == (None, 5, None)
    assert m.result.places == places


def test_solo_jackpot_ends_with_the_shut_box_and_solo_resign_has_no_winner() -> None:
    m = Match.new(J, 1)
    m = dead_turn(m, 0)
    assert not m.finished and m.round == 2
    m = shut_the_box(m, 0)
    assert m.result is not None and m.result.winners == (0,) and m.result.rounds == 2
    quit_, _ = Match.new(J, 1).leave(0, "resigned")
    assert quit_.result is not None and quit_.result.winners == () and quit_.result.places == (1,)


def test_snapshot_round_trips() -> None:
    m = Match.new(C, 3)
    m, _ = m.throw(0, (2, 6))
    m, _ = m.leave(2, "timeout")
    assert Match.from_dict(m.to_dict()) == m
    done, _ = Match.new(J, 2).leave(0, "resigned")
    assert Match.from_dict(done.to_dict()) == done
