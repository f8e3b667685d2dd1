"""The browser verifier (static/verify.js) under node: test vectors, solver, records."""

from __future__ import annotations

import copy
import hashlib
import hmac
import re
from typing import Any

import pytest
from js_records import (
    CLIENT,
    SEED,
    Builder,
    dice,
    last,
    node_call,
    node_verify,
    options,
    order,
    ranked_places,
)

# -- docs/fair-play.md test vectors -----------------------------------------------


def test_commitment_vector() -> None:
    assert node_call("commitmentOf", SEED) == (
        "7b3d979ca8330a94fa7e9e1b466d8b99e0bcdea1ec90596c0dcc8d7ef6b4300c"
    )


@pytest.mark.parametrize(
    ("n", "count", "expected"),
    [(0, 2, [5, 2]), (1, 2, [3, 3]), (32, 2, [4, 6]), (100, 2, [5, 4]), (2, 1, [1])],
)
def test_dice_vectors(n: int, count: int, expected: list[int]) -> None:
    assert node_call("throwDice", SEED, CLIENT, n, count) == expected


def test_skipped_bytes_of_the_vectors() -> None:
    # Throw 32's stream starts with 0xff, throw 100's second byte is 0xfc: both skipped.
    assert node_call("streamBlock", SEED, f"{CLIENT}:32")[0] == 0xFF
    assert node_call("streamBlock", SEED, f"{CLIENT}:100")[1] == 0xFC
    later = node_call("streamBlock", SEED, f"{CLIENT}:100", 1)
    key = SEED.encode("ascii")
    assert later == list(hmac.new(key, f"{CLIENT}:100:1".encode(), hashlib.sha256).digest())


@pytest.mark.parametrize(("seat", "strength"), [(0, "highest"), (1, "best")])
def test_bot_strength_vectors(seat: int, strength: str) -> None:
    assert node_call("botStrength", SEED, CLIENT, seat) == strength


@pytest.mark.parametrize(
    ("seats", "expected"), [(1, [0]), (2, [0, 1]), (3, [0, 2, 1]), (4, [1, 2, 0, 3])]
)
def test_order_of_play_vectors(seats: int, expected: list[int]) -> None:
    assert node_call("orderOfPlay", SEED, CLIENT, seats) == expected


def test_order_of_play_skips_a_byte_that_would_bias_it() -> None:
    zero = "0" * 64
    # Three choices: 0xff is skipped (c504's first byte); four: 0xff kept, skipped for three.
    assert node_call("orderOfPlay", zero, "c504", 3) == [1, 2, 0] == order(zero, "c504", 3)
    assert node_call("orderOfPlay", zero, "c53", 4) == [1, 2, 3, 0] == order(zero, "c53", 4)
    # Nobody to draw for: the joining order.
    assert node_call("orderOfPlay", SEED, CLIENT, 4, 0) == [0, 1, 2, 3]


def test_order_of_play_agrees_with_an_independent_reading() -> None:
    for k in range(12):
        seats = 2 + k % 3
        assert node_call("orderOfPlay", SEED, f"o{k}", seats) == order(SEED, f"o{k}", seats)


def test_dice_agree_with_an_independent_hmac_for_many_throws() -> None:
    for n in (3, 17, 250, 999):
        assert node_call("throwDice", SEED, "x", n, 2) == dice(SEED, "x", n)


# -- the exact solver ---------------------------------------------------------------


def test_jackpot_full_board_probability() -> None:
    value = node_call("pShutMax", "jackpot")
    assert round(value["value"], 7) == 0.0799874
    assert int(value["num"]) / int(value["den"]) == pytest.approx(0.0799874, abs=5e-8)


def test_classic_full_board_probability() -> None:
    value = node_call("pShutMax", "classic")
    assert round(value["value"], 7) == 0.0976137


def test_solver_is_exact_and_agrees_with_fractions() -> None:
    from fractions import Fraction

    from jackpot.engine.tiles import Variant
    from jackpot.strategy.solver import expected_score_min, p_shut_max

    for variant in ("jackpot", "classic"):
        for tiles in ([1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 5], [3, 9], [1]):
            mask = sum(1 << (t - 1) for t in tiles)
            p = node_call("pShutMax", variant, mask)
            e = node_call("expectedScoreMin", variant, mask)
            assert Fraction(int(p["num"]), int(p["den"])) == p_shut_max(
                Variant(variant), frozenset(tiles)
            )
            assert Fraction(int(e["num"]), int(e["den"])) == expected_score_min(
                Variant(variant), frozenset(tiles)
            )


# -- hand-made records ----------------------------------------------------------------


def solo_classic() -> dict[str, Any]:
    b = Builder("classic", 1)
    score, throws = b.turn(0)
    return b.record(
        {
            "rounds": 1,
            "totals": [score],
            "shut": [throws if score == 0 else None],
            "places": [1],
            "winners": [0],
        }
    )


def solo_jackpot_until_shut() -> dict[str, Any]:
    b = Builder("jackpot", 1, client_seed="lucky")
    total = 0
    for turn in range(1, 2000):
        score, throws = b.turn(0, pick=last)
        total += score
        if score == 0:
            return b.record(
                {"rounds": turn, "totals": [total], "shut": [throws], "places": [1], "winners": [0]}
            )
    raise AssertionError("no jackpot in 2000 turns")


def two_seats_second_resigns_mid_turn() -> dict[str, Any]:
    b = Builder("jackpot", 2)
    score, _ = b.turn(0)
    b.turn(1, stop_after=1)
    assert b.events[-1]["cover"] is None, "seat 1's first throw must offer something"
    b.out(1, "timeout")
    return b.record(
        {"rounds": 1, "totals": [score, 0], "shut": [None, None], "places": [1, 2], "winners": [0]}
    )


def classic_three_seats() -> dict[str, Any]:
    b = Builder("classic", 3)
    scores = [b.turn(s)[0] for s in range(3)]
    assert 0 not in scores, "this seed was chosen so that nobody shuts the box"
    low = min(scores)
    return b.record(
        {
            "rounds": 1,
            "totals": scores,
            "shut": [None, None, None],
            "places": ranked_places([(s,) for s in scores]),
            "winners": [s for s in range(3) if scores[s] == low],
        }
    )


def jackpot_three_seats_two_resign() -> dict[str, Any]:
    # Round 1: all play. Round 2: seat 0 plays, seat 1 resigns while its first throw is
    # due, seat 2 plays. Round 3: seat 0 plays, seat 2 times out: seat 0, alone, wins.
    b = Builder("jackpot", 3)
    totals = [0, 0, 0]
    scores = []
    for seat in (0, 1, 2, 0):
        scores.append(b.turn(seat)[0])
        totals[seat] += scores[-1]
    b.out(1)
    for seat in (2, 0):
        scores.append(b.turn(seat)[0])
        totals[seat] += scores[-1]
    b.out(2, "timeout")
    assert 0 not in scores, "with this seed nobody hits a jackpot in these turns"
    return b.record(
        {
            "rounds": 3,
            "totals": totals,
            "shut": [None, None, None],
            "places": [1, 3, 2],
            "winners": [0],
        }
    )


def test_solo_classic_verifies() -> None:
    (report,) = node_verify(solo_classic())
    assert report["ok"], report["problem"]
    assert report["problem"] is None
    assert any("commitment" in c for c in report["checks"])
    assert report["summary"].startswith("Verified")


def test_solo_jackpot_until_the_box_is_shut_verifies() -> None:
    record = solo_jackpot_until_shut()
    (report,) = node_verify(record)
    assert report["ok"], report["problem"]
    assert record["result"]["shut"] == [9]


def test_resign_mid_turn_leaves_an_uncovered_throw() -> None:
    (report,) = node_verify(two_seats_second_resigns_mid_turn())
    assert report["ok"], report["problem"]


def test_classic_lowest_score_wins() -> None:
    (report,) = node_verify(classic_three_seats())
    assert report["ok"], report["problem"]


def test_jackpot_match_goes_on_without_a_resigned_seat() -> None:
    record = jackpot_three_seats_two_resign()
    swapped = copy.deepcopy(record)
    swapped["result"]["places"] = [1, 2, 3]
    good, bad = node_verify(record, swapped)
    assert good["ok"], good["problem"]
    assert any(
        "resigned in round 2" in c and "ran out of time in round 3" in c for c in good["checks"]
    )
    assert bad["problem"] == (
        "the result in the record is not what the throws give: the places: "
        "p0 1, p1 2, p2 3 in the record, p0 1, p1 3, p2 2 by the throws"
    )


def test_solo_resign_has_no_winner() -> None:
    b = Builder("jackpot", 1)
    score, _ = b.turn(0)
    b.out(0)
    good = b.record({"rounds": 2, "totals": [score], "shut": [None], "places": [1], "winners": []})
    bad = copy.deepcopy(good)
    bad["result"]["winners"] = [0]
    ok, wrong = node_verify(good, bad)
    assert ok["ok"], ok["problem"]
    assert wrong["problem"] == (
        "the result in the record is not what the throws give: "
        "the winners: p0 in the record, nobody by the throws"
    )


# -- tampering ---------------------------------------------------------------------------


def tampered(record: dict[str, Any], change) -> dict[str, Any]:
    copied = copy.deepcopy(record)
    change(copied)
    return copied


def first_live_throw(record: dict[str, Any]) -> int:
    """Index of the first throw that was covered with a choice."""
    return next(i for i, e in enumerate(record["events"]) if e.get("cover"))


def test_tampered_records_are_rejected_with_the_right_words() -> None:
    base = classic_three_seats()
    i = first_live_throw(base)
    ev = base["events"][i]
    # Sentences count throws from 1, as the match page and the replay do: the record's
    # n is the page's throw n + 1.
    n = ev["n"] + 1
    fair = ev["dice"]
    other = [fair[0] % 6 + 1, fair[1]]

    def set_dice(r):
        r["events"][i]["dice"] = other

    def bad_cover(r):
        r["events"][i]["cover"] = [99]

    def bad_seed(r):
        r["server_seed"] = "0" * 64

    def bad_total(r):
        r["result"]["totals"][0] += 1

    def skip_number(r):
        for e in r["events"][i:]:
            e["n"] += 1

    def not_dead(r):
        r["events"][i]["cover"] = []

    def unpublished(r):
        r["server_seed"] = None

    def bad_client(r):
        r["client_seed"] = "p0seed.p1 seed.p2seed"

    def extra_after_end(r):
        r["events"].append({"type": "out", "seat": 0, "reason": "resigned"})

    def jackpot_one_die(r):
        r["events"][i]["dice"] = fair[:1]

    def wrong_format(r):
        r["format"] = "jackpot-record/5"

    def v2_without_joined(r):
        r["format"] = "jackpot-record/2"

    def v1_with_joined(r):
        r["joined"] = [0, 1, 2]

    cases = [
        (
            set_dice,
            f"throw {n}: the record shows the dice {_and(other)}, but the seeds give {_and(fair)},"
            " so the dice were changed",
        ),
        (bad_cover, f"throw {n}: covering 99 was not allowed: "),
        (bad_seed, "the server seed in the record is not the one promised before the first throw"),
        (bad_total, "the result in the record is not what the throws give: the totals: p0 "),
        (skip_number, f"throws are out of order: throw {n} was due, the record has throw {n + 1}"),
        (not_dead, f"throw {n}: the record says nothing could be covered, but the dice "),
        (bad_client, 'the piece of the client seed from p1 ("p1 seed")'),
        (extra_after_end, "p0 resigned after the match was already over"),
        (jackpot_one_die, f"throw {n}: one die was thrown, but one die is allowed only in Classic"),
        (
            wrong_format,
            'this page cannot check this kind of record: it says it is "jackpot-record/5", '
            "and the page checks jackpot-record/1, jackpot-record/2, jackpot-record/3, or "
            "jackpot-record/4",
        ),
        (v2_without_joined, "the record's order of play is damaged"),
        (v1_with_joined, "the record says it is an older jackpot-record/1, yet it holds an order"),
    ]
    reports = node_verify(*(tampered(base, change) for change, _ in cases))
    for (change, words), report in zip(cases, reports, strict=True):
        assert not report["ok"], change.__name__
        assert report["problem"].startswith(words), (change.__name__, report["problem"])
        assert report["summary"].startswith("Not verified: ")
        # Words for a player: no field of the file, no "null" or "[]" in them.
        assert not re.search(r"\bnull\b|\[\]|\bjoined\b|\bcover \[", report["problem"]), report
    # Without the seed nothing is wrong yet: the moves are checked, the dice wait for it.
    (waiting,) = node_verify(tampered(base, unpublished))
    assert not waiting["ok"] and waiting["pending"], waiting
    assert waiting["problem"].startswith("the server seed is not published yet")
    assert waiting["summary"].startswith("Not verifiable yet: The server seed is not published")
    assert any(c.startswith("Each of the ") for c in waiting["checks"]), waiting["checks"]


def test_a_tampered_throw_is_named_as_the_page_names_it() -> None:
    """The record's n counts from 0; the sentences count from 1, as the match page and
    the replay do, so the page's "Throw 6" is the problem's "throw 6"."""
    base = classic_three_seats()
    i = [k for k, e in enumerate(base["events"]) if e["type"] == "throw"][5]
    assert base["events"][i]["n"] == 5

    def change(r: dict[str, Any]) -> None:
        r["events"][i]["dice"] = [7 - d for d in r["events"][i]["dice"]]

    (report,) = node_verify(tampered(base, change))
    assert report["problem"].startswith("throw 6: the record shows the dice "), report["problem"]
    assert "Throws 1 to 5 replayed without a difference before the problem." in report["checks"]


def test_uncovered_throw_followed_by_more_play_is_rejected() -> None:
    b = Builder("jackpot", 2)
    b.turn(0, stop_after=1)
    assert b.events[-1]["cover"] is None
    b.events.append(
        {"type": "throw", "n": 1, "seat": 0, "dice": dice(SEED, b.client, 1), "cover": []}
    )
    (report,) = node_verify(b.record(None))
    assert report["problem"] == "throw 2: throw 1 was never covered, yet play went on"


def test_wrong_seat_and_a_missing_result_are_named() -> None:
    b = Builder("jackpot", 2)
    b.turn(1)
    (report,) = node_verify(b.record(None))
    assert (
        report["problem"] == "throw 1: p1 threw, but it was p0's turn (round 1)"
    )
    good = solo_classic()
    (report,) = node_verify(tampered(good, lambda r: r.update(result=None)))
    assert report["problem"].startswith("the match ended (Classic is one round")
    assert report["problem"].endswith("but the record has no result")


def test_dead_throw_offers_nothing() -> None:
    # Every throw that ended a turn really offered nothing (the builder's independent options).
    record = classic_three_seats()
    open_tiles: set[int] = set(range(1, 10))
    for e in record["events"]:
        if e["cover"] == []:
            assert options("classic", open_tiles, e["dice"]) == []
            open_tiles = set(range(1, 10))
        elif e["cover"]:
            open_tiles -= set(e["cover"])
    i = next(i for i, e in enumerate(record["events"]) if e["cover"] == [])
    n = record["events"][i]["n"] + 1  # counted from 1, as on the page
    (report,) = node_verify(tampered(record, lambda r: r["events"][i].update(cover=None)))
    assert report["problem"] == (
        f"throw {n}: nothing could be covered, so the turn ended there, "
        "yet the record leaves the throw waiting for a cover"
    )


def _and(values: list[int]) -> str:
    """A list of dice as English says it: "5 and 2"."""
    words = list(map(str, values))
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def test_every_static_module_of_the_verify_page_parses() -> None:
    import subprocess
    from pathlib import Path

    from js_records import NODE

    static = Path(__file__).parents[2] / "src" / "jackpot" / "static"
    names = [p.name for p in sorted(static.glob("verify*.js"))] + ["replay-rules.js", "i18n.js"]
    assert "verify-replay.js" in names
    for name in names:
        done = subprocess.run(
            [NODE, "--experimental-default-type=module", "--check", str(static / name)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, (name, done.stderr)


# -- jackpot-record/2: the order of play -----------------------------------------------


def drawn_three_people() -> dict[str, Any]:
    """Three people in Classic, seated by the seed; each turn covers the last option."""
    b = Builder("classic", 3, client_seed="a.b.c", drawn=True)
    assert b.joined != [0, 1, 2]
    scores = []
    for seat in range(3):
        score, _ = b.turn(seat, pick=last)
        scores.append(score)
        if score == 0:
            break
    assert 0 not in scores, "pick a client seed where nobody shuts the box"
    return b.record(
        {
            "rounds": 1,
            "totals": scores,
            "shut": [None] * 3,
            "places": ranked_places([(s,) for s in scores]),
            "winners": [s for s in range(3) if scores[s] == min(scores)],
        }
    )


def test_a_drawn_record_verifies_and_names_the_order() -> None:
    record = drawn_three_people()
    assert record["format"] == "jackpot-record/2"
    joined = record["joined"]
    swapped = tampered(record, lambda r: r.update(joined=[joined[1], joined[0], joined[2]]))
    good, bad = node_verify(record, swapped)
    assert good["ok"], good["problem"]
    assert good["checks"][0] == "The record is complete: a Classic match with 3 seats."
    # Seats are named p<joining index>, listed in the order of play.
    order = ", ".join(f"p{j}" for j in joined)
    said = f"The order of play ({order}) is the one the seeds drew, so nobody chose who"
    said += " throws first."
    assert said in good["checks"], good["checks"]
    # The swapped record claims its first two seats joined the other way round: the draw
    # would have put them in the other order.
    drawn = ", ".join(f"p{j}" for j in (joined[1], joined[0], joined[2]))
    assert bad["problem"] == (
        f"the order of play in the record ({order}) is not the one the seeds drew ({drawn})"
    )


def test_client_seed_parts_are_in_joining_order() -> None:
    record = drawn_three_people()
    # Part 2 belongs to the second person to join, wherever the draw seated them.
    seat = record["joined"].index(1)
    (report,) = node_verify(tampered(record, lambda r: r.update(client_seed="a.b b.c")))
    assert record["seats"][seat]["name"] == "p1"
    words = 'the piece of the client seed from p1 ("b b")'
    assert report["problem"].startswith(words)
