"""Random legal matches keep the engine's invariants, whatever the players do."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from jackpot.engine import (
    FULL,
    Covered,
    IllegalMove,
    Match,
    MatchEnded,
    SeatOut,
    Thrown,
    TurnEnded,
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
