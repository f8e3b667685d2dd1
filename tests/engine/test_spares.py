"""Spare deadlines: a passed deadline uses a spare while the seat has one, then puts it out."""

from __future__ import annotations

import pytest

from jackpot.engine import (
    MAX_SPARES,
    Match,
    MatchEnded,
    MatchOver,
    NotYourTurn,
    SeatIsOut,
    SeatOut,
    SpareUsed,
    TurnStarted,
    Variant,
)

J, C = Variant.JACKPOT, Variant.CLASSIC


def test_a_new_match_gives_every_seat_its_spares() -> None:
    m = Match.new(J, 3, spares=2)
    assert m.spares == 2 and m.spares_left == (2, 2, 2)
    assert Match.new(C, 2).spares_left == (0, 0)
    assert Match.new(J, 1, spares=MAX_SPARES).spares_left == (5,)
    for wrong in (-1, MAX_SPARES + 1):
        with pytest.raises(ValueError, match="0 to 5 spare deadlines"):
            Match.new(J, 2, spares=wrong)


def test_a_passed_deadline_uses_a_spare_and_changes_nothing_else() -> None:
    m = Match.new(J, 2, spares=2)
    after, events = m.deadline_passed(0)
    assert events == [SpareUsed(seat=0, left=1)]
    assert events[0].to_dict() == {"type": "spare_used", "seat": 0, "left": 1}
    assert after.spares_left == (1, 2)
    # The same throw is still due, the same seat to make it, the same throw number.
    assert after.turn == m.turn and after.throws == m.throws and after.out == m.out


def test_a_spare_while_a_cover_is_due_keeps_the_cover_due() -> None:
    m = Match.new(C, 2, spares=1)
    m, _ = m.throw(0, (3, 4))
    after, events = m.deadline_passed(0)
    assert events == [SpareUsed(seat=0, left=0)]
    assert after.turn is not None and after.turn.dice == (3, 4)
    after, _ = after.cover(0, [7])
    assert after.turn is not None and after.turn.open == frozenset({1, 2, 3, 4, 5, 6, 8, 9})


def test_with_no_spare_left_the_seat_is_out_by_timeout() -> None:
    m = Match.new(J, 3, spares=1)
    m, first = m.deadline_passed(0)
    assert first == [SpareUsed(seat=0, left=0)]
    m, events = m.deadline_passed(0)
    assert events == [SeatOut(seat=0, reason="timeout"), TurnStarted(seat=1, round=1)]
    assert m.out == ("timeout", None, None) and m.spares_left == (0, 1, 1)


def test_a_match_without_spares_times_out_at_the_first_deadline() -> None:
    m = Match.new(J, 2)
    m, events = m.deadline_passed(0)
    assert events[0] == SeatOut(seat=0, reason="timeout")
    assert isinstance(events[-1], MatchEnded) and m.result is not None
    assert m.result.winners == (1,)


def test_a_daily_entry_has_no_spares_and_closes_by_timeout() -> None:
    m = Match.new_daily(J)
    assert m.spares_left == (0,)
    m, events = m.deadline_passed(0)
    assert events[0] == SeatOut(seat=0, reason="timeout") and m.finished


def test_only_the_seat_whose_move_is_due_has_a_deadline() -> None:
    m = Match.new(J, 3, spares=2)
    with pytest.raises(NotYourTurn, match="not seat 1's turn"):
        m.deadline_passed(1)
    m, _ = m.leave(2, "resigned")
    with pytest.raises(SeatIsOut):
        m.deadline_passed(2)
    done, _ = m.leave(1, "resigned")
    with pytest.raises(MatchOver):
        done.deadline_passed(0)


def test_spares_survive_the_snapshot_and_an_old_snapshot_has_none() -> None:
    m = Match.new(J, 2, spares=3)
    m, _ = m.deadline_passed(0)
    snap = m.to_dict()
    assert snap["spares"] == 3 and snap["spares_left"] == [2, 3]
    assert Match.from_dict(snap) == m
    plain = Match.new(J, 2).to_dict()
    # A match without spares writes the snapshot it always wrote.
    assert "spares" not in plain and "spares_left" not in plain
    old = Match.from_dict(plain)
    assert old.spares == 0 and old.spares_left == (0, 0)
    assert old.deadline_passed(0)[1][0] == SeatOut(seat=0, reason="timeout")
