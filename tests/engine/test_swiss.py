"""A Swiss tournament's points, standings and table sizes (docs/tournaments.md)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jackpot.engine import (
    BYE_POINTS,
    Entrant,
    RoundPlayed,
    TablePlayed,
    match_points,
    standings,
    table_sizes,
)
from jackpot.engine.swiss import apart_map, bye_holders, meetings


def test_a_win_is_one_at_any_size_and_a_two_seat_draw_a_half() -> None:
    assert match_points([1, 2]) == (1, 0)
    assert match_points([2, 1]) == (0, 1)
    assert match_points([1, 1]) == (F(1, 2), F(1, 2))
    assert match_points([1, 2, 3]) == (1, F(1, 2), 0)
    assert match_points([1, 2, 3, 4]) == (1, F(2, 3), F(1, 3), 0)
    # Shared places: (placed below + half of those sharing) / (n - 1).
    assert match_points([1, 2, 2]) == (1, F(1, 4), F(1, 4))
    assert match_points([1, 1, 3, 4]) == (F(5, 6), F(5, 6), F(1, 3), 0)
    assert match_points([2, 1, 2, 2]) == (F(1, 3), 1, F(1, 3), F(1, 3))
    assert F(1, 2) == BYE_POINTS


@given(st.lists(st.integers(1, 4), min_size=2, max_size=4))
def test_a_table_hands_out_half_a_point_per_seat(places: list[int]) -> None:
    points = match_points(places)
    assert sum(points) == F(len(places), 2)
    assert all(0 <= p <= 1 for p in points)
    for a, pa in zip(places, points, strict=True):
        for b, pb in zip(places, points, strict=True):
            assert (a < b) == (pa > pb)


def test_a_table_of_one_has_no_points() -> None:
    with pytest.raises(ValueError, match="2 to 4 players"):
        match_points([1])


@pytest.mark.parametrize(
    ("players", "size", "sizes"),
    [
        (7, 2, (2, 2, 2, 1)),  # three tables and a bye
        (10, 4, (4, 3, 3)),
        (5, 4, (3, 2)),  # 4 + 1 would leave a table of one
        (8, 4, (4, 4)),
        (9, 4, (3, 3, 3)),
        (6, 4, (3, 3)),
        (7, 3, (3, 2, 2)),
        (4, 3, (2, 2)),
        (2, 4, (2,)),
        (1, 3, (1,)),
        (0, 2, ()),
    ],
)
def test_table_sizes(players: int, size: int, sizes: tuple[int, ...]) -> None:
    assert table_sizes(players, size) == sizes


@given(players=st.integers(0, 500), size=st.integers(2, 4))
def test_table_sizes_fill_from_the_top_one_seat_fewer_below(players: int, size: int) -> None:
    sizes = table_sizes(players, size)
    assert sum(sizes) == players
    assert len(sizes) == -(-players // size)
    assert list(sizes) == sorted(sizes, reverse=True)
    if sizes:
        assert max(sizes) - min(sizes) <= 1
        assert max(sizes) <= size
    # A table of one is the bye: only the last one, only for an odd count at tables of 2
    # or a single player.
    ones = [i for i, s in enumerate(sizes) if s == 1]
    assert ones == ([len(sizes) - 1] if players == 1 or (size == 2 and players % 2) else [])


def test_table_sizes_refuse_a_size_outside_two_to_four() -> None:
    for bad in (1, 5, True):
        with pytest.raises(ValueError, match="2 to 4"):
            table_sizes(8, bad)


def people(*specs: tuple[str, float]) -> list[Entrant]:
    return [Entrant(name, rating) for name, rating in specs]


def test_round_one_is_ordered_by_rating_then_name() -> None:
    entrants = people(("cy", 10.0), ("ana", 20.0), ("ben", 10.0), ("dan", 5.0))
    order = [s.player for s in standings(entrants, [])]
    assert order == [1, 2, 0, 3]  # ana 20; ben and cy on 10, by name; dan 5


def test_points_then_buchholz_then_rating_then_name() -> None:
    entrants = people(("ana", 1.0), ("ben", 2.0), ("cy", 3.0), ("dan", 4.0), ("eve", 0.0))
    round1 = RoundPlayed(
        tables=(TablePlayed((3, 2), (1, 2)), TablePlayed((1, 0), (2, 1))), byes=(4,)
    )
    round2 = RoundPlayed(
        tables=(TablePlayed((3, 0), (2, 1)), TablePlayed((4, 2), (1, 1))), byes=(1,)
    )
    table = {s.player: s for s in standings(entrants, [round1, round2])}
    # Points: ana 2 (two wins), dan 1, eve ½ + ½ = 1, cy ½, ben ½ (the bye).
    assert [table[p].points for p in range(5)] == [2, F(1, 2), F(1, 2), 1, 1]
    # Buchholz: the points of everyone sat with, one per table shared.
    assert table[0].buchholz == F(1, 2) + 1  # ben, then dan
    assert table[3].buchholz == F(1, 2) + 2  # cy, then ana
    assert table[4].buchholz == F(1, 2)  # cy; a bye adds nobody
    assert table[1].buchholz == 2  # ana
    assert table[2].buchholz == 1 + 1  # dan, then eve
    order = [s.player for s in standings(entrants, [round1, round2])]
    # dan and eve share 1 point: dan's Buchholz (5/2) is higher. ben, cy on ½ with
    # Buchholz 2 each: cy's rating (3) beats ben's (2).
    assert order == [0, 3, 4, 2, 1]
    assert [s.rank for s in standings(entrants, [round1, round2])] == [1, 2, 3, 4, 5]


def test_names_break_the_last_tie_then_the_entry_number() -> None:
    entrants = people(("bo", 1.0), ("al", 1.0), ("bo", 1.0))
    assert [s.player for s in standings(entrants, [])] == [1, 0, 2]


def test_meetings_byes_and_pairs_kept_apart() -> None:
    played = [
        RoundPlayed(tables=(TablePlayed((0, 1, 2), (1, 2, 3)),), byes=(3,)),
        RoundPlayed(tables=(TablePlayed((0, 3), (1, 2)), TablePlayed((1, 2), (2, 1)))),
    ]
    met = meetings(played)
    assert met[0] == {1, 2, 3} and met[1] == {0, 2} and met[3] == {0}
    assert bye_holders(played) == {3}
    kept = apart_map([(0, 5), (5, 2)])
    assert kept[5] == {0, 2} and kept[0] == {5} and 1 not in kept
    with pytest.raises(ValueError, match="themselves"):
        apart_map([(4, 4)])
