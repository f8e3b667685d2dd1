"""verify() on jackpot-record/2: the order of play is the seed's draw, and says so when not."""

from __future__ import annotations

from dataclasses import replace
from itertools import permutations

from fair_matchgen import Plan, Played, plans, play
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from jackpot.engine import Variant
from jackpot.fair import order_of_play
from jackpot.fair.verify import verify

SEED = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"


def _drawn(bots: tuple[bool, ...], parts: tuple[str, ...], play_seed: int = 1) -> Played:
    return play(
        Plan(
            variant=Variant.CLASSIC,
            bots=bots,
            server_seed=SEED,
            client_parts=parts,
            play_seed=play_seed,
            leave_rate=0.0,
            drawn=True,
        )
    )


def _parts_drawing(bots: tuple[bool, ...], wanted: tuple[int, ...]) -> tuple[str, ...]:
    """Client-seed parts (one per person) under which the seed draws ``wanted``."""
    people = sum(not b for b in bots)
    for k in range(1000):
        parts = tuple(f"p{i}k{k}" for i in range(people))
        if order_of_play(SEED, ".".join(parts), len(bots), people=people) == wanted:
            return parts
    raise AssertionError(f"no client seed in 1000 draws {wanted}")


def _problem(record: object) -> str:
    v = verify(record)  # type: ignore[arg-type]
    assert not v.ok and v.problem is not None, v.summary
    return v.problem


def test_a_drawn_match_verifies_and_says_how_it_was_seated() -> None:
    played = _drawn((False, False, True), _parts_drawing((False, False, True), (2, 1, 0)))
    r = played.record
    assert r.format == "jackpot-record/2" and r.joined == (2, 1, 0)
    # The bot joined last and plays first; the creator plays last.
    assert [s.name for s in r.seats] == ["Bot 1", "player2", "player1"]
    v = verify(r)
    assert v.ok, v.problem
    assert v.checks[0] == "format: the record is well-formed jackpot-record/2"
    assert "order of play: [2, 1, 0] (joining index of each seat), drawn from the seed" in v.checks
    assert any("one for each human seat in joining order" in c for c in v.checks)
    assert verify(r.to_json()).ok


def test_another_order_than_the_draw_is_named() -> None:
    bots = (False, False, True)
    r = _drawn(bots, _parts_drawing(bots, (2, 1, 0))).record
    # The two people swapped, as if the creator had been moved ahead of the other person.
    seats = (r.seats[0], r.seats[2], r.seats[1])
    problem = _problem(replace(r, seats=seats, joined=(2, 0, 1)))
    label = r.client_seed + ":seats"
    assert problem == (
        f"joined: record says [2, 0, 1], but the seed draws [2, 1, 0] from the label {label!r}"
    )


def test_a_bot_in_a_persons_joining_place_is_named() -> None:
    # The seed put the bot last: a record that gives it joining index 0 (and so the
    # first throw after a different draw) must not pass just because the draw matches.
    bots = (False, True)
    r = _drawn(bots, _parts_drawing(bots, (0, 1))).record
    assert [s.bot is None for s in r.seats] == [True, False]
    forged = replace(r, seats=(r.seats[1], r.seats[0]), joined=(0, 1))
    problem = _problem(forged)
    assert problem == (
        "joined[0]: seat 0 (Bot 1) is a bot with joining index 0, but the 1 person(s) "
        "join first (indices 0-0) and bots after them"
    )


def test_a_bots_only_match_keeps_the_joining_order() -> None:
    r = _drawn((True, True, True), ()).record
    assert r.joined == (0, 1, 2)
    v = verify(r)
    assert v.ok, v.problem
    assert any(c.endswith("the joining order (no person to draw for)") for c in v.checks)
    problem = _problem(replace(r, joined=(1, 0, 2)))
    assert problem == (
        "joined: record says [1, 0, 2], but a match without people keeps the joining order"
    )


def test_client_seed_parts_belong_to_people_in_joining_order() -> None:
    bots = (False, False, True)
    r = _drawn(bots, _parts_drawing(bots, (2, 1, 0))).record
    # Part 2 is the second person to join, who plays as seat 1 here.
    first, _ = r.client_seed.split(".")
    problem = _problem(replace(r, client_seed=f"{first}.a b"))
    assert problem.endswith("(the part of seat 1 (player2))")
    problem = _problem(replace(r, client_seed="a b." + r.client_seed.split(".")[1]))
    assert problem.endswith("(the part of seat 2 (player1))")


PROPERTY = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@PROPERTY
@given(plans(), st.data())
def test_any_other_order_is_caught(plan: Plan, data: st.DataObject) -> None:
    assume(len(plan.bots) > 1)
    r = play(replace(plan, drawn=True)).record
    assert r.joined is not None
    assert verify(r).ok
    other = data.draw(st.sampled_from([p for p in permutations(r.joined) if p != r.joined]))
    assert _problem(replace(r, joined=other)).startswith("joined")
