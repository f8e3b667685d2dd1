"""A tournament match whose round's time ran out ends with the round in progress."""

from __future__ import annotations

import pytest

from jackpot.engine import (
    IllegalMove,
    LastRound,
    Match,
    MatchEnded,
    MatchOver,
    Result,
    SeatOut,
    TurnEnded,
    Variant,
)

J, C = Variant.JACKPOT, Variant.CLASSIC

JACKPOT_RUN = [((3, 6), 9), ((2, 6), 8), ((3, 4), 7), ((6, 1), 6), ((5, 1), 5),
               ((4, 1), 4), ((3, 1), 3), ((2, 1), 2), ((1, 2), 1)]  # fmt: skip


def dead_turn(m: Match, seat: int, also: int | None = None) -> Match:
    """Cover 6 with a double six (and ``also``, 1-3, with a 1 and a 2), then a dead double
    six: the turn scores 39, or 39 - ``also``."""
    covers = [((6, 6), 6)] + ([] if also is None else [((1, 2), also)])
    for dice, tile in covers:
        m, _ = m.throw(seat, dice)
        m, _ = m.cover(seat, [tile])
    m, events = m.throw(seat, (6, 6))
    assert isinstance(events[1], TurnEnded)
    return m


def shut_the_box(m: Match, seat: int) -> tuple[Match, list[object]]:
    events: list[object] = []
    for dice, tile in JACKPOT_RUN:
        m, caused = m.throw(seat, dice)
        events += caused
        m, caused = m.cover(seat, [tile])
        events += caused
    return m, events


def test_the_match_ends_with_the_round_in_progress_lowest_total_first() -> None:
    m = dead_turn(Match.new(J, 3), 0)  # 39
    m = dead_turn(m, 1, also=3)  # 36
    m = dead_turn(m, 2, also=1)  # 38: round 2 begins
    m = dead_turn(m, 0, also=3)  # 39 + 36
    m, events = m.end_after_round()
    assert events == [LastRound(round=2)] and m.last_round and not m.finished
    m = dead_turn(m, 1)  # 36 + 39: the same 75 as seat 0
    assert not m.finished
    m, _ = m.throw(2, (6, 6))
    m, _ = m.cover(2, [6])
    m, events = m.throw(2, (6, 6))  # 38 + 39
    assert isinstance(events[-1], MatchEnded)
    assert m.result == Result(
        rounds=2, totals=(75, 75, 77), shut=(None, None, None), places=(1, 1, 3), winners=(0, 1)
    )


def test_without_it_the_same_throws_go_on_to_another_round() -> None:
    m = dead_turn(Match.new(J, 2), 0)
    m, _ = m.throw(1, (6, 6))
    m, _ = m.cover(1, [6])
    m, _ = m.throw(1, (6, 6))
    assert not m.finished and m.round == 2


def test_a_shut_box_in_the_last_round_wins_by_the_usual_rules() -> None:
    m = dead_turn(Match.new(J, 2), 0)  # 39
    m, _ = m.end_after_round()
    m, events = shut_the_box(m, 1)
    assert m.finished and isinstance(events[-1], MatchEnded)
    assert m.result is not None and m.result.winners == (1,) and m.result.places == (2, 1)
    assert m.result.shut == (None, 9)


def test_asked_in_the_first_seat_it_still_lets_every_seat_play_the_round() -> None:
    m, events = Match.new(J, 2).end_after_round()
    assert events == [LastRound(round=1)]
    m = dead_turn(m, 0)  # 39
    assert not m.finished and m.turn is not None and m.turn.seat == 1
    m = dead_turn(m, 1, also=1)  # 38
    assert m.result is not None and m.result.winners == (1,) and m.result.rounds == 1


def test_leaving_in_the_last_round_works_as_ever() -> None:
    m, _ = dead_turn(Match.new(J, 3), 0).end_after_round()
    m, events = m.leave(2, "resigned")
    assert events == [SeatOut(seat=2, reason="resigned")] and not m.finished
    m = dead_turn(m, 1, also=1)  # 38; seat 2 is out, so the round ends here
    assert m.result is not None
    assert m.result.places == (2, 1, 3) and m.result.winners == (1,)


def test_classic_and_a_second_call_change_nothing() -> None:
    classic = Match.new(C, 2)
    assert classic.end_after_round() == (classic, [])
    m, _ = Match.new(J, 2).end_after_round()
    assert m.end_after_round() == (m, [])


def test_refused_once_over_and_for_a_daily_entry() -> None:
    m, _ = Match.new(J, 2).leave(1, "resigned")
    with pytest.raises(MatchOver, match="the match is over"):
        m.end_after_round()
    with pytest.raises(IllegalMove, match="daily entry"):
        Match.new_daily(J).end_after_round()


def test_the_snapshot_keeps_it_and_old_snapshots_still_load() -> None:
    m = dead_turn(Match.new(J, 2), 0)
    before = m.to_dict()
    assert "last_round" not in before  # a snapshot without it reads as before
    assert Match.from_dict(before) == m
    m, _ = m.end_after_round()
    snap = m.to_dict()
    assert snap["last_round"] is True
    assert Match.from_dict(snap) == m
    assert LastRound(round=1).to_dict() == {"type": "last_round", "round": 1}
