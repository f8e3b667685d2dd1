"""The analysis board's API and page: a stated position's exact odds are the solver's
and a match's own, every choice best first, and each bad field refused by name."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import httpx
import pytest
from ratings_helpers import people, play, start_match

from jackpot.engine import FULL, Variant
from jackpot.fair.match_review import review_match
from jackpot.strategy.classic_match import Facing, classic_table
from jackpot.strategy.match_odds import JackpotRound, position_odds
from jackpot.strategy.solver import expected_score_min, p_shut_max, throw_values
from jackpot.web.analysis.position import ONLY_IN

HTML = {"accept": "text/html"}
#: The best bot's chance of a jackpot from a full board (docs/analysis.md).
FULL_JACKPOT = Fraction(14103327415, 176319369216)


async def ask(client: httpx.AsyncClient, **query: str) -> dict[str, Any]:
    r = await client.get("/api/analysis", params=query)
    assert r.status_code == 200, r.text
    return dict(r.json())


def choices(body: dict[str, Any], key: str = "options") -> list[tuple[int, ...]]:
    return [tuple(o["tiles"]) for o in body[key]]


async def test_the_full_jackpot_board_before_the_throw(client: httpx.AsyncClient) -> None:
    body = await ask(client, variant="jackpot", open="1,2,3,4,5,6,7,8,9")
    assert Fraction(body["p_shut_exact"]) == FULL_JACKPOT == p_shut_max(Variant.JACKPOT, FULL)
    assert round(float(FULL_JACKPOT), 7) == 0.0799874
    assert body["p_shut"] == "8.00%"
    assert Fraction(body["expected_score"]) == expected_score_min(Variant.JACKPOT, FULL)
    assert body["open"] == list(range(1, 10)) and body["dice"] is None
    # Nothing to choose before a Jackpot throw, and alone nothing but the turn counts.
    assert body["options"] == [] and body["dice_options"] == [] and body["best"] is None
    assert body["decision"] is None and body["measure"] == "shut" and body["stake"] is None
    assert body["board"] == "/analysis?variant=jackpot&open=1,2,3,4,5,6,7,8,9"
    # "125" says the same as "1,2,5".
    assert (await ask(client, variant="jackpot", open="125"))["open"] == [1, 2, 5]


async def test_a_jackpot_throw_lists_every_cover_best_first(client: httpx.AsyncClient) -> None:
    body = await ask(client, variant="jackpot", open="1,2,4,6,8", dice="2,4")
    want = position_odds(Variant.JACKPOT, frozenset({1, 2, 4, 6, 8}), (2, 4), None)
    # The dice 2 and 4 reach the 2, the 4 and the 6: all three open.
    assert sorted(choices(body)) == [(2,), (4,), (6,)]
    assert choices(body)[0] == tuple(body["best"]) == want.best.tiles  # type: ignore[union-attr]
    shown = [Fraction(o["p_exact"]) for o in body["options"]]
    assert shown == sorted(shown, reverse=True)
    for o in body["options"]:
        odds = want.option(tuple(o["tiles"]))
        assert Fraction(o["p_exact"]) == odds.p_shut
        assert Fraction(o["expected_score"]) == odds.expected_score
        rest = frozenset({1, 2, 4, 6, 8}) - set(o["tiles"])
        assert odds.p_shut == p_shut_max(Variant.JACKPOT, rest)
    assert body["decision"] == "cover" and body["dice"] == [2, 4]


async def test_a_jackpot_round_gives_the_chance_to_win(client: httpx.AsyncClient) -> None:
    """docs/analysis.md's example: three seats, the first has shut the box this round;
    covering 2 keeps 9.93% of a jackpot, and that is all its chance of a share."""
    body = await ask(
        client, variant="jackpot", open="1,2,4,6,8", dice="2,4", seats="3", shut="1", after="1"
    )
    assert body["measure"] == "match"
    assert body["stake"] == {"seats": 3, "shut": 1, "after": 1}
    two = next(o for o in body["options"] if o["tiles"] == [2])
    assert two["p_text"] == "9.93%" and two["p_win"] == "0"
    assert Fraction(two["p_draw"]) == Fraction(two["p_exact"])
    want = position_odds(
        Variant.JACKPOT, frozenset({1, 2, 4, 6, 8}), (2, 4), JackpotRound(3, 1, 1)
    )
    assert Fraction(two["equity"]) == want.option((2,)).equity
    # Had nobody shut the box yet: 34.49% to win, 5.39% to draw, equity 37.15%.
    fresh = await ask(
        client, variant="jackpot", open="1,2,4,6,8", dice="2,4", seats="3", shut="0", after="1"
    )
    two = next(o for o in fresh["options"] if o["tiles"] == [2])
    assert (two["p_win_text"], two["p_draw_text"], two["equity_text"]) == (
        "34.49%",
        "5.39%",
        "37.15%",
    )


async def test_classic_facing_a_score_values_the_match_not_the_box(
    client: httpx.AsyncClient,
) -> None:
    """Two seats, the second facing 27, full board, throws 5 and 6: covering 3 and 8
    keeps less chance to shut the box than 2 and 9 but more to win (docs/analysis.md)."""
    body = await ask(client, variant="classic", open="123456789", dice="5,6", beat="27")
    assert body["stake"] == {"beat": 27, "holders": 1, "after": 0}
    assert tuple(body["best"]) == (3, 8) == choices(body)[0]
    by = {tuple(o["tiles"]): o for o in body["options"]}
    assert Fraction(by[(3, 8)]["equity"]) == Fraction(3793, 3888)
    assert Fraction(by[(2, 9)]["equity"]) == Fraction(275, 288)
    assert Fraction(by[(2, 9)]["p_exact"]) > Fraction(by[(3, 8)]["p_exact"])
    equities = [Fraction(o["equity"]) for o in body["options"]]
    assert equities == sorted(equities, reverse=True)
    table = classic_table(Facing(27, 1, 0))
    assert Fraction(body["equity"]) == Fraction(3793, 3888)
    assert Fraction(body["p_shut_exact"]) == p_shut_max(Variant.CLASSIC, FULL)
    assert table.choose_cover(0b111111111, (5, 6)) == (3, 8)


async def test_classic_offers_one_die_once_the_top_is_covered(client: httpx.AsyncClient) -> None:
    """Second of two seats, only the 6 open, 5 to beat: one die wins with a 6 (1/6),
    two dice only with 6 exactly (5/36)."""
    body = await ask(client, variant="classic", open="6", beat="5")
    assert body["decision"] == "dice" and body["options"] == []
    assert [o["dice"] for o in body["dice_options"]] == [1, 2] and body["best_dice"] == 1
    one, two = body["dice_options"]
    assert Fraction(one["equity"]) == Fraction(1, 6) and Fraction(two["equity"]) == Fraction(5, 36)
    assert (Fraction(one["p_exact"]), Fraction(one["expected_score"])) == throw_values(
        Variant.CLASSIC, frozenset({6}), 1
    )
    # Alone the same choice is valued by the chance of shutting the box.
    alone = await ask(client, variant="classic", open="1,2,3")
    assert alone["measure"] == "shut" and len(alone["dice_options"]) == 2
    assert {o["dice"] for o in alone["dice_options"]} == {1, 2}
    # And one die thrown: its covers.
    thrown = await ask(client, variant="classic", open="1,2,3", dice="3")
    assert sorted(choices(thrown)) == [(1, 2), (3,)]


async def test_a_throw_that_reaches_nothing_ends_the_turn(client: httpx.AsyncClient) -> None:
    body = await ask(client, variant="classic", open="1,5,9", dice="1,3", beat="20")
    assert body["ends_turn"] is True and body["options"] == [] and body["decision"] is None
    # Ending on 15 against 20 with nobody after: a win.
    assert body["p_win"] == "1" and body["equity"] == "1"
    worse = await ask(client, variant="classic", open="1,5,9", dice="1,3", beat="12")
    assert worse["equity"] == "0"
    alone = await ask(client, variant="jackpot", open="1", dice="6,6")
    assert alone["ends_turn"] is True and alone["equity"] == "0"


async def test_every_replay_step_opens_on_the_board_with_the_replays_numbers(
    app: Any, make_client: Any
) -> None:
    """A finished Classic match of three people: each step's board link, asked of the
    API, gives the step's own odds, option for option."""
    ana, ben, cy = await people(make_client, ["Ana", "Ben", "Cy"])
    finished = await play([ana, ben, cy], await start_match([ana, ben, cy], "classic"))
    record = (await ana.get(f"/api/matches/{finished['id']}/record")).json()
    review = review_match(record)
    page = await ana.get(f"/matches/{finished['id']}/replay", headers=HTML)
    links = re.findall(r'"board": "(/analysis\?[^"]+)"', page.text)
    assert len(links) == len(review.steps)
    compared = 0
    for link, step in zip(links, review.steps, strict=True):
        body = (await ana.get("/api" + link.replace("\\u0026", "&"))).json()
        odds = step.cover_odds
        if odds is None:
            continue
        assert Fraction(body["p_win"]) == odds.p_win and Fraction(body["equity"]) == odds.equity
        got = {tuple(o["tiles"]): Fraction(o["equity"]) for o in body["options"]}
        assert got == {o.tiles: o.equity for o in odds.options}
        compared += 1
    assert compared > 0


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"open": "1,2"}, "variant"),
        ({"variant": "chess", "open": "1,2"}, "variant"),
        ({"variant": "jackpot"}, "open"),
        ({"variant": "jackpot", "open": "0,1"}, "open"),
        ({"variant": "jackpot", "open": "1,10"}, "open"),
        ({"variant": "jackpot", "open": "1,1"}, "open"),
        ({"variant": "jackpot", "open": "x"}, "open"),
        ({"variant": "jackpot", "open": "1" * 30}, "open"),
        ({"variant": "jackpot", "open": "1,2", "dice": "7,1"}, "dice"),
        ({"variant": "jackpot", "open": "1,2", "dice": "1,2,3"}, "dice"),
        ({"variant": "jackpot", "open": "1,2", "dice": "3"}, "dice"),
        ({"variant": "classic", "open": "1,9", "dice": "3"}, "dice"),
        ({"variant": "jackpot", "open": "1,2", "seats": "5"}, "seats"),
        ({"variant": "jackpot", "open": "1,2", "seats": "two"}, "seats"),
        ({"variant": "jackpot", "open": "1,2", "seats": "2", "shut": "2"}, "shut"),
        ({"variant": "jackpot", "open": "1,2", "seats": "2", "after": "2"}, "after"),
        ({"variant": "jackpot", "open": "1,2", "after": "1"}, "after"),
        ({"variant": "jackpot", "open": "1,2", "beat": "20"}, "beat"),
        ({"variant": "classic", "open": "1,2", "seats": "2"}, "seats"),
        ({"variant": "classic", "open": "1,2", "beat": "46"}, "beat"),
        ({"variant": "classic", "open": "1,2", "beat": "-1"}, "beat"),
        ({"variant": "classic", "open": "1,2", "holders": "2"}, "holders"),
        ({"variant": "classic", "open": "1,2", "beat": "9", "holders": "4"}, "holders"),
        ({"variant": "classic", "open": "1,2", "beat": "9", "holders": "2", "after": "2"}, "after"),
        ({"variant": "classic", "open": "1,2", "after": "٣"}, "after"),
    ],
)
async def test_a_bad_field_is_refused_by_name(
    client: httpx.AsyncClient, query: dict[str, str], field: str
) -> None:
    r = await client.get("/api/analysis", params=query)
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == f"bad_{field}"
    assert error["message"].startswith(f"{field}: ")
    page = await client.get("/analysis", params=query, headers=HTML)
    if ONLY_IN.get(field, query.get("variant")) != query.get("variant") or (
        field == "holders" and "beat" not in query
    ):
        # The page's form sends both variants' fields, and its list of how many hold
        # the score to beat with no score: it reads the variant's own, with a score.
        assert page.status_code == 200, page.text
        return
    # The page refuses it the same way, beside the field.
    assert page.status_code == 422
    assert f'data-field="{field}"' in page.text


async def test_refusals_are_in_the_readers_language(client: httpx.AsyncClient) -> None:
    r = await client.get(
        "/api/analysis",
        params={"variant": "jackpot", "open": "1,2", "dice": "3"},
        headers={"accept-language": "sk"},
    )
    assert r.status_code == 422
    message = r.json()["error"]["message"]
    assert message.startswith("dice: ") and "Jackpot is always played" not in message


async def test_the_page_shows_the_odds_and_keeps_the_form(client: httpx.AsyncClient) -> None:
    first = await client.get("/analysis", headers=HTML)
    assert first.status_code == 200
    assert "8.00%" in first.text and 'name="open" value="9" checked' in first.text
    # As the form sends it: a checkbox per open tile, a list per die, both variants' fields.
    page = await client.get(
        "/analysis?variant=classic&open=1&open=2&open=3&open=4&open=5&open=6&open=7&open=8"
        "&open=9&dice=5&dice=6&seats=1&shut=0&beat=27&holders=1&after=0",
        headers=HTML,
    )
    assert page.status_code == 200, page.text
    rows = re.findall(r'<th scope="row">([^<]+)', page.text)
    assert [r.strip() for r in rows][:2] == ["3 + 8", "2 + 9"] or rows[0].strip() == "3 + 8"
    assert "97.56%" in page.text and 'value="27"' in page.text
    assert 'data-board="/analysis?variant=classic&amp;open=1,2,3,4,5,6,7,8,9&amp;dice=5,6' in (
        page.text
    )
    # The first of two seats: no score to beat yet, though the form sends its holders.
    first = await client.get(
        "/analysis?variant=classic&open=1&open=2&seats=1&shut=0&beat=&holders=1&after=1",
        headers=HTML,
    )
    assert first.status_code == 200, first.text
    assert 'data-board="/analysis?variant=classic&amp;open=1,2&amp;after=1"' in first.text
