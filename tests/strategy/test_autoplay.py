"""Autoplay makes exactly the moves that are not decisions, and a person waits only on real ones."""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jackpot.engine import Covered, Event, Match, Thrown, TurnEnded, TurnStarted, Variant
from jackpot.fair import (
    Record,
    RecordEvent,
    SeatEntry,
    bot_strength,
    combine_client_seeds,
    commitment,
    order_of_play,
    throw_dice,
)
from jackpot.fair.recorder import append_events
from jackpot.fair.verify import verify
from jackpot.strategy.autoplay import (
    OFF,
    ON,
    AutoCover,
    AutoplayPrefs,
    AutoThrow,
    Roll,
    autoplay,
    forced_move,
    is_real_choice,
    play_on,
)
from jackpot.strategy.strength import Strength


def dice(*throws: tuple[int, ...]) -> Roll:
    """A roll that hands out the given throws in order, whatever is asked."""
    queue = list(throws)

    def roll(n: int, count: int) -> tuple[int, ...]:
        thrown = queue.pop(0)
        assert len(thrown) == count
        return thrown

    return roll


def test_every_jackpot_throw_is_forced_and_a_single_option_too() -> None:
    m = Match.new(Variant.JACKPOT, 2)
    assert forced_move(m, 0, ON) == AutoThrow(2)
    assert forced_move(m, 0, AutoplayPrefs(single_covers=True)) is None
    assert forced_move(m, 1, ON) is None  # not seat 1's turn
    m, _ = m.throw(0, (6, 6))  # only 6: 12 reaches nothing
    assert m.turn is not None and m.turn.options == ((6,),)
    assert forced_move(m, 0, ON) == AutoCover((6,))
    assert forced_move(m, 0, AutoplayPrefs(throws=True)) is None
    m, _ = m.cover(0, (6,))
    m, _ = m.throw(0, (1, 2))  # 1, 2 or 3: a decision
    assert forced_move(m, 0, ON) is None and is_real_choice(m)


def test_a_classic_throw_is_a_choice_once_seven_eight_and_nine_are_down() -> None:
    m = Match.new(Variant.CLASSIC, 1)
    for thrown, cover in (((4, 5), (9,)), ((4, 4), (8,)), ((3, 4), (7,))):
        assert forced_move(m, 0, ON) == AutoThrow(2)
        m, _ = m.throw(0, thrown)
        m, _ = m.cover(0, cover)
    assert m.may_throw_one_die
    assert forced_move(m, 0, ON) is None and is_real_choice(m)


def test_nothing_is_forced_once_the_match_is_over() -> None:
    m, _ = Match.new(Variant.JACKPOT, 1).leave(0, "resigned")
    assert forced_move(m, 0, ON) is None and not is_real_choice(m)


def test_autoplay_stops_at_a_real_choice() -> None:
    m = Match.new(Variant.JACKPOT, 2)
    # (6, 6) offers only 6: covered for the player; (1, 2) then offers 1, 2 or 3.
    m, events = autoplay(m, 0, ON, dice((6, 6), (1, 2)))
    assert [type(e) for e in events] == [Thrown, Covered, Thrown]
    assert m.turn is not None and m.turn.seat == 0 and m.turn.options == ((1,), (2,), (3,))


def test_autoplay_stops_at_the_end_of_the_turn() -> None:
    m = Match.new(Variant.JACKPOT, 2)
    m, _ = m.throw(0, (5, 4))
    m, _ = m.cover(0, (9,))
    # 5 and 4: 4 and 5 are open, 9 is down: a choice, not made for them.
    m, events = autoplay(m, 0, AutoplayPrefs(throws=True), dice((5, 4)))
    assert [type(e) for e in events] == [Thrown]
    m, _ = m.cover(0, (5,))
    # 5+4 now offers only 4; 5+5 nothing, which ends the turn: no throw for seat 1.
    m, events = autoplay(m, 0, ON, dice((5, 4), (5, 5)))
    assert [type(e) for e in events] == [Thrown, Covered, Thrown, TurnEnded, TurnStarted]
    assert m.turn is not None and m.turn.seat == 1
    assert autoplay(m, 0, ON, dice()) == (m, [])


def test_off_makes_nothing() -> None:
    m = Match.new(Variant.JACKPOT, 2)
    assert autoplay(m, 0, OFF, dice()) == (m, [])
    assert play_on(m, [None, None], dice()) == (m, [])


# -- whole matches: a person only ever waits on a real choice ---------------------


def _replay_made_moves(
    before: Match,
    events: Sequence[Event],
    strengths: Sequence[Strength | None],
    prefs: Sequence[AutoplayPrefs],
) -> Match:
    """Apply play_on's events again, checking each person's move was one autoplay makes."""
    m = before
    for e in events:
        if isinstance(e, Thrown):
            if strengths[e.seat] is None:
                assert forced_move(m, e.seat, prefs[e.seat]) == AutoThrow(len(e.dice))
            m, _ = m.throw(e.seat, e.dice)
        elif isinstance(e, Covered):
            if strengths[e.seat] is None:
                assert forced_move(m, e.seat, prefs[e.seat]) == AutoCover(e.tiles)
            m, _ = m.cover(e.seat, e.tiles)
    return m


PREFS = st.sampled_from(
    [ON, ON, ON, OFF, AutoplayPrefs(throws=True), AutoplayPrefs(single_covers=True)]
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    variant=st.sampled_from(list(Variant)),
    people=st.integers(1, 4),
    bots=st.integers(0, 3),
    server_seed=st.binary(min_size=32, max_size=32).map(bytes.hex),
    play_seed=st.integers(0, 2**32 - 1),
    data=st.data(),
)
def test_with_autoplay_a_person_waits_only_on_real_choices(
    variant: Variant,
    people: int,
    bots: int,
    server_seed: str,
    play_seed: int,
    data: st.DataObject,
) -> None:
    seats = min(4, people + bots)
    bots = seats - people
    rng = random.Random(play_seed)
    client_seed = combine_client_seeds([f"p{k}-{rng.getrandbits(20):x}" for k in range(people)])
    joined = order_of_play(server_seed, client_seed, seats, people=people)
    strengths = [
        None if joined[s] < people else bot_strength(server_seed, client_seed, s)
        for s in range(seats)
    ]
    prefs = [data.draw(PREFS) if strengths[s] is None else OFF for s in range(seats)]

    def roll(n: int, count: int) -> tuple[int, ...]:
        return throw_dice(server_seed, client_seed, n, count)

    match = Match.new(variant, seats)
    log: list[RecordEvent] = []
    waits = 0
    while True:
        before = match
        match, events = play_on(match, strengths, roll, prefs)
        assert _replay_made_moves(before, events, strengths, prefs) == match
        append_events(log, events)
        if match.turn is None:
            break
        seat = match.turn.seat
        # Whoever the match now waits for is a person, and autoplay would not move for them.
        assert strengths[seat] is None
        assert forced_move(match, seat, prefs[seat]) is None
        if prefs[seat] == ON:
            assert is_real_choice(match)
        waits += 1
        if rng.random() < 0.01 or match.throws > 400:
            match, events = match.leave(seat, rng.choice(["resigned", "timeout"]))
        elif match.turn.dice is None:
            count = rng.choice((1, 2)) if match.may_throw_one_die else 2
            match, events = match.throw(seat, roll(match.throws, count))
        else:
            match, events = match.cover(seat, rng.choice(match.turn.options))
        append_events(log, events)
    assert match.result is not None
    names = [f"player{j + 1}" if j < people else f"Bot {j - people + 1}" for j in joined]
    record = Record(
        id="m_autoplay",
        variant=variant,
        deadline_seconds=86400,
        created="2026-11-30T10:00:00Z",
        seats=tuple(SeatEntry(n, s) for n, s in zip(names, strengths, strict=True)),
        commitment=commitment(server_seed),
        server_seed=server_seed,
        client_seed=client_seed,
        events=tuple(log),
        result=match.result,
        joined=joined,
        rules=match.rules,
    )
    v = verify(record)
    assert v.ok, v.problem


def test_bots_and_autoplay_take_turns_until_a_person_must_decide() -> None:
    # Seat 0 a person with autoplay, seat 1 a bot: seat 0's forced moves end its turn,
    # the bot plays a whole turn, and seat 0's next forced throw offers a choice.
    m = Match.new(Variant.JACKPOT, 2)
    m, _ = m.throw(0, (5, 4))
    m, _ = m.cover(0, (9,))
    m, _ = m.throw(0, (5, 4))
    m, _ = m.cover(0, (5,))
    # 5+4: only 4 is open; 5+5: nothing; the bot's 5+5 offers 5, then nothing; 1+2: 1, 2, 3.
    roll = dice((5, 4), (5, 5), (5, 5), (5, 5), (1, 2))
    m, events = play_on(m, [None, Strength.LOWEST], roll, [ON, OFF])
    assert [(type(e).__name__, getattr(e, "seat", None)) for e in events] == [
        ("Thrown", 0),
        ("Covered", 0),
        ("Thrown", 0),
        ("TurnEnded", 0),
        ("TurnStarted", 1),
        ("Thrown", 1),
        ("Covered", 1),
        ("Thrown", 1),
        ("TurnEnded", 1),
        ("TurnStarted", 0),
        ("Thrown", 0),
    ]
    assert m.round == 2 and m.turn is not None and m.turn.seat == 0
    assert m.turn.options == ((1,), (2,), (3,))
