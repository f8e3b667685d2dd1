"""Random legal matches keep the engine's invariants, whatever the players do."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from jackpot.engine import (
    FULL,
    THROW_STRIDE,
    UNPLAYED_SCORE,
    Covered,
    DailyResult,
    IllegalMove,
    Match,
    MatchEnded,
    SeatOut,
    Thrown,
    TurnEnded,
    TurnStarted,
    Variant,
)

die = st.integers(min_value=1, max_value=6)


@settings(max_examples=150, deadline=None)
@given(
    variant=st.sampled_from(list(Variant)),
    seats=st.integers(min_value=1, max_value=4),
    data=st.data(),
)
def test_random_matches_keep_the_invariants(
    variant: Variant, seats: int, data: st.DataObject
) -> None:
    m = Match.new(variant, seats)
    throws_seen = 0
    for _ in range(400):
        if m.finished:
            break
        assert m.turn is not None
        seat = m.turn.seat
        if data.draw(st.integers(0, 40)) == 0:
            leaver = data.draw(st.sampled_from([s for s in range(seats) if m.out[s] is None]))
            m, events = m.leave(leaver, data.draw(st.sampled_from(["resigned", "timeout"])))
            assert events[0] == SeatOut(leaver, m.out[leaver] or "")
        elif m.turn.dice is None:
            one = m.may_throw_one_die and data.draw(st.booleans())
            dice = (data.draw(die),) if one else (data.draw(die), data.draw(die))
            before = m.totals[seat]
            m, events = m.throw(seat, dice)
            first = events[0]
            assert isinstance(first, Thrown) and first.n == throws_seen
            throws_seen += 1
            if not first.options:
                ended = events[1]
                assert isinstance(ended, TurnEnded) and ended.total == before + ended.score
        else:
            option = data.draw(st.sampled_from(m.turn.options))
            open_before = m.turn.open
            m, events = m.cover(seat, option)
            covered = events[0]
            assert isinstance(covered, Covered) and covered.open == open_before - set(option)
        assert m.throws == throws_seen
        assert Match.from_dict(m.to_dict()) == m
        if m.turn is not None:
            assert m.out[m.turn.seat] is None
            assert m.turn.open <= FULL
            if m.turn.dice is not None:
                assert m.turn.options
        if isinstance(events[-1], MatchEnded):
            assert m.finished
        # Any action for a seat that is not to play is refused and changes nothing.
        if m.turn is not None:
            others = [s for s in range(seats) if s != m.turn.seat]
            for other in others:
                try:
                    m.throw(other, (1, 2))
                except IllegalMove:
                    pass
                else:
                    raise AssertionError(f"seat {other} threw out of turn")
    if m.result is not None:
        r = m.result
        assert sorted(r.places)[0] == 1 or seats == 1
        assert all(r.places[w] == 1 for w in r.winners)
        assert len(r.places) == seats and all(1 <= p <= seats for p in r.places)
        if variant is Variant.CLASSIC:
            assert r.rounds == 1


@settings(max_examples=100, deadline=None)
@given(variant=st.sampled_from(list(Variant)), data=st.data())
def test_random_daily_entries_number_their_throws_by_turn_and_score_every_turn(
    variant: Variant, data: st.DataObject
) -> None:
    m = Match.new_daily(variant)
    finished: list[int] = []
    while not m.finished:
        turn = m.turn
        assert turn is not None and m.round == len(finished) + 1
        if data.draw(st.integers(0, 60)) == 0:
            m, events = m.leave(0, data.draw(st.sampled_from(["resigned", "timeout"])))
            break
        if turn.dice is None:
            assert m.throws == THROW_STRIDE * len(finished) + turn.throws
            one = m.may_throw_one_die and data.draw(st.booleans())
            dice = (data.draw(die),) if one else (data.draw(die), data.draw(die))
            m, events = m.throw(0, dice)
        else:
            m, events = m.cover(0, data.draw(st.sampled_from(turn.options)))
        for e in events:
            if isinstance(e, TurnEnded):
                finished.append(e.score)
                assert e.total == sum(finished)
                assert turn.throws < THROW_STRIDE
            if isinstance(e, TurnStarted):
                assert m.throws == THROW_STRIDE * len(finished) and e.round == len(finished) + 1
        assert Match.from_dict(m.to_dict()) == m
    r = m.result
    assert isinstance(r, DailyResult) and isinstance(events[-1], MatchEnded)
    assert len(r.turn_scores) == 10 and r.total == sum(r.turn_scores)
    assert list(r.turn_scores[: len(finished)]) == finished
    assert all(s == UNPLAYED_SCORE for s in r.turn_scores[len(finished) :])
    assert r.jackpots == finished.count(0)
    assert (m.out[0] is None) == (len(finished) == 10)
