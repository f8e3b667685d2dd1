"""Pairing a Swiss round: tables from the top, the bye, repeats avoided, blocks honoured."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from jackpot.engine import (
    Entrant,
    Pairing,
    RoundPlayed,
    TablePlayed,
    pair,
    pair_round,
    table_sizes,
)


def test_seven_players_at_tables_of_two_make_three_tables_and_a_bye() -> None:
    got = pair(range(7), 2)
    assert got.tables == ((0, 1), (2, 3), (4, 5))
    assert got.bye == 6 and got.byes == (6,) and got.sitting_out == ()


def test_ten_players_at_tables_of_four_make_tables_of_four_three_and_three() -> None:
    got = pair(range(10), 4)
    assert got.tables == ((0, 1, 2, 3), (4, 5, 6), (7, 8, 9))
    assert got.byes == ()


def test_five_players_at_tables_of_four_make_three_and_two() -> None:
    assert pair(range(5), 4).tables == ((0, 1, 2), (3, 4))


def test_a_lone_player_gets_the_bye_and_nobody_is_paired_from_nothing() -> None:
    assert pair([7], 3) == Pairing(tables=(), bye=7, sitting_out=(), repeats=())
    assert pair([], 2) == Pairing(tables=(), bye=None, sitting_out=(), repeats=())


def test_the_bye_goes_to_the_lowest_player_without_one() -> None:
    assert pair(range(5), 2, had_bye={4}).bye == 3
    assert pair(range(5), 2, had_bye={4, 3}).bye == 2
    # Everybody has had one: the lowest again.
    assert pair(range(3), 2, had_bye={0, 1, 2}).bye == 2
    got = pair(range(5), 2, had_bye={4})
    assert got.tables == ((0, 1), (2, 4))


def test_a_repeat_is_avoided_by_a_swap_with_the_next_table() -> None:
    got = pair(range(4), 2, met={0: {1}, 1: {0}})
    assert got.tables == ((0, 2), (1, 3)) and got.repeats == ()


def test_a_swap_keeps_everybody_as_high_as_it_can() -> None:
    # 0 met 1 and 2: the table of four takes 3, 4 and 5 instead; the two passed over
    # open the next table.
    met = {0: {1, 2}, 1: {0}, 2: {0}}
    got = pair(range(8), 4, met=met)
    assert got.tables == ((0, 3, 4, 5), (1, 2, 6, 7))
    assert got.repeats == ()
    # A repeat lower down is avoided the same way: 1 met 6, so 7 comes up first and
    # 6, with nobody left below it, sits anyway.
    met |= {1: {0, 6}, 6: {1}}
    got = pair(range(8), 4, met=met)
    assert got.tables == ((0, 3, 4, 5), (1, 2, 6, 7))
    assert got.repeats == ((1, 6),)


def test_the_window_ends_two_tables_below() -> None:
    # At tables of 2, the top table may draw on itself and the next two: players 0-5.
    met = {0: {1, 2, 3, 4, 5}}
    met |= {p: {0} for p in range(1, 6)}
    got = pair(range(8), 2, met=met)
    # Everybody in the window met 0: the highest of them sits anyway (a repeat);
    # 6 and 7 are below the window, too far to swap with.
    assert got.tables[0] == (0, 1)
    assert got.repeats == ((0, 1),)
    # One more in the window (player 5 never met 0) and the repeat is gone.
    met[0] = {1, 2, 3, 4}
    met[5] = set()
    got = pair(range(8), 2, met=met)
    assert got.tables[0] == (0, 5) and got.repeats == ()
    assert got.tables[1:] == ((1, 2), (3, 4), (6, 7))


def test_pairs_kept_apart_never_sit_together() -> None:
    got = pair(range(4), 2, apart=[(0, 1)])
    assert got.tables == ((0, 2), (1, 3))
    # Below the window, when nobody in it may sit there.
    got = pair(range(8), 2, apart=[(0, p) for p in range(1, 6)])
    assert got.tables[0] == (0, 6)


def test_a_block_at_the_bottom_is_undone_by_a_swap_with_the_bye() -> None:
    # 0 and 1 may not sit together; 2 has the bye: 2 takes 1's seat, 1 the bye.
    got = pair(range(3), 2, apart=[(0, 1)])
    assert got.tables == ((0, 2),) and got.bye == 1 and got.sitting_out == ()


def test_a_block_at_the_bottom_is_undone_by_a_swap_with_a_table_above() -> None:
    # The last table would be 2 and 3, kept apart. The nearest seat above is 1's, but
    # 3 may not sit with 0 either: 3 takes 0's seat and 0 joins 2. The tables are
    # numbered by their highest players, so 0's is still table 1.
    got = pair(range(4), 2, apart=[(2, 3), (0, 3)])
    assert got.tables == ((0, 2), (1, 3))
    assert got.sitting_out == ()
    # Without the second block, 1 is the nearest and swaps with 3.
    assert pair(range(4), 2, apart=[(2, 3)]).tables == ((0, 3), (1, 2))
    assert pair(range(6), 2, apart=[(4, 5)]).tables == ((0, 1), (2, 5), (3, 4))


def test_when_no_swap_works_the_player_sits_the_round_out() -> None:
    # Two players who may not sit together: neither can be seated.
    got = pair(range(2), 2, apart=[(0, 1)])
    assert got.tables == () and got.sitting_out == (0, 1) and got.byes == (0, 1)
    # Three at tables of three, 2 kept apart from both others: 0 and 1 sit, the table
    # closes short, and 2, alone, sits out.
    got = pair(range(3), 3, apart=[(0, 2), (1, 2)])
    assert got.tables == ((0, 1),) and got.sitting_out == (2,)


def test_pair_round_orders_by_the_standings_and_leaves_out_who_withdrew() -> None:
    entrants = [Entrant(n, r) for n, r in (("ana", 5.0), ("ben", 9.0), ("cy", 1.0), ("dan", 3.0))]
    first = pair_round(entrants, [], 2)
    assert first.tables == ((1, 0), (3, 2))  # by rating
    played = [RoundPlayed(tables=(TablePlayed((1, 0), (2, 1)), TablePlayed((3, 2), (1, 2))))]
    # ana and dan won; ana's Buchholz (ben 0) ties dan's (cy 0): ana's rating first.
    second = pair_round(entrants, played, 2)
    assert second.tables == ((0, 3), (1, 2))
    third = pair_round(entrants, played, 2, withdrawn={3})
    # ben and cy on 0 with Buchholz 1 each: ben's rating first. The bye is given
    # before the tables are made (cy, the lowest), so ana meets ben again.
    assert third.tables == ((0, 1),) and third.bye == 2 and third.repeats == ((0, 1),)
    # ana and dan kept apart: ana skips dan, and ben (met), for cy.
    kept = pair_round(entrants, played, 2, apart=[(0, 3)])
    assert kept.tables == ((0, 2), (3, 1)) and kept.repeats == ()


players = st.integers(0, 40).flatmap(
    lambda n: st.tuples(st.permutations(list(range(n))), st.just(n))
)


@settings(max_examples=300, deadline=None)
@given(
    drawn=players,
    size=st.integers(2, 4),
    data=st.data(),
)
def test_every_pairing_seats_everyone_once_and_never_a_kept_apart_pair(
    drawn: tuple[list[int], int], size: int, data: st.DataObject
) -> None:
    order, n = drawn
    if n >= 2:
        pairs = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(
            lambda p: p[0] != p[1]
        )
        apart = data.draw(st.lists(pairs, max_size=n))
        met_pairs = data.draw(st.lists(pairs, max_size=3 * n))
        had_bye = data.draw(st.sets(st.integers(0, n - 1)))
    else:
        apart, met_pairs, had_bye = [], [], set()
    met: dict[int, set[int]] = {}
    for a, b in met_pairs:
        met.setdefault(a, set()).add(b)
        met.setdefault(b, set()).add(a)
    got = pair(order, size, met=met, apart=apart, had_bye=had_bye)
    seated = [p for t in got.tables for p in t]
    assert sorted(seated + list(got.byes)) == sorted(order)
    kept = {frozenset(p) for p in apart}
    for t in got.tables:
        assert 2 <= len(t) <= size
        assert all(frozenset((a, b)) not in kept for a in t for b in t if a != b)
        assert list(t) == sorted(t, key=order.index)  # joining order = standings order
    assert got == pair(order, size, met=met, apart=apart, had_bye=had_bye)
    assert set(got.repeats) == {
        (a, b)
        for t in got.tables
        for i, a in enumerate(t)
        for b in t[i + 1 :]
        if b in met.get(a, ())
    }
    if not apart:
        assert got.sitting_out == ()
        sizes = table_sizes(n, size)
        assert tuple(len(t) for t in got.tables) == tuple(s for s in sizes if s > 1)
    if not apart and not met:
        # Nothing to avoid: the tables are the order cut from the top.
        cuts = []
        at = 0
        paired = [p for p in order if p not in got.byes]
        for t in got.tables:
            cuts.append(tuple(paired[at : at + len(t)]))
            at += len(t)
        assert tuple(cuts) == got.tables

