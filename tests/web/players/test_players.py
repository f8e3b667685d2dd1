"""Profiles, history, the records export and the replay's analysis."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any

from ratings_helpers import people, play, start_match

from jackpot import fair
from jackpot.engine import FULL, Variant
from jackpot.fair.match_review import review_match
from jackpot.strategy.solver import p_shut_max
from jackpot.web.players.match_figures import summarise

HEX = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
HTML = {"accept": "text/html"}


def hand_record() -> dict[str, Any]:
    """A solo Jackpot turn with dice picked by hand (review_match() replays the rules,
    it does not check dice against seeds): nine covers, the eighth a mistake."""
    throws = [
        ((4, 5), [9]),
        ((3, 5), [8]),
        ((3, 4), [7]),
        ((6, 6), [6]),
        ((5, 6), [5]),
        ((4, 6), [4]),
        ((3, 6), [3]),
        ((1, 2), [2]),  # leaves {1}; covering 1 would have left {2}
        ((1, 4), [1]),
    ]
    return {
        "format": "jackpot-record/1",
        "id": "m_hand",
        "variant": "jackpot",
        "deadline_seconds": 86400,
        "created": "2026-11-30T10:00:00Z",
        "seats": [{"name": "ana", "bot": None}],
        "commitment": fair.commitment(HEX),
        "server_seed": HEX,
        "client_seed": "x",
        "events": [
            {"type": "throw", "n": n, "seat": 0, "dice": list(d), "cover": c}
            for n, (d, c) in enumerate(throws)
        ],
        "result": {"rounds": 1, "totals": [0], "shut": [9], "places": [1], "winners": [0]},
    }


def test_hand_worked_positions() -> None:
    # With only the 2 open, a throw shuts the box if either die is a 2 or it is a
    # double one: 11 + 1 of 36. With only the 1 open, a die must show 1: 11 of 36.
    assert p_shut_max(Variant.JACKPOT, frozenset({2})) == Fraction(12, 36)
    assert p_shut_max(Variant.JACKPOT, frozenset({1})) == Fraction(11, 36)
    # Classic with only the 4 open (7, 8, 9 down): one die hits it 1 time in 6, two
    # dice (1+3, 2+2, 3+1) only 3 in 36, so the best is one die.
    assert p_shut_max(Variant.CLASSIC, frozenset({4})) == Fraction(1, 6)
    assert round(float(p_shut_max(Variant.JACKPOT, FULL)), 7) == 0.0799874

    rev = review_match(hand_record())
    mistake = rev.steps[7]
    assert mistake.dice == (1, 2) and mistake.open_before == (1, 2)
    odds = mistake.cover_odds
    assert odds is not None and odds.best is not None
    values = {o.tiles: o.p_shut for o in odds.options}
    assert values == {(1,): Fraction(1, 3), (2,): Fraction(11, 36)}
    # Alone, the chance to win is the chance of shutting the box: the same best, the
    # same chance given away.
    assert {o.tiles: o.p_win for o in odds.options} == values
    assert odds.best.tiles == (1,)
    assert mistake.given_away == Fraction(1, 36)
    last = rev.steps[8]
    assert last.cover_odds is not None
    assert [o.tiles for o in last.cover_odds.options] == [(1,)]
    assert last.cover_odds.options[0].p_shut == 1
    assert last.shut and last.turn_score == 0
    (seat,) = summarise(rev)
    # Real choices: throws 0, 1, 2 and 7 (the others offered one tile only).
    assert seat.choices == 4 and seat.skill.decisions == 4
    real = [rev.steps[k].given_away for k in (0, 1, 2, 7)]
    assert seat.best_choices == seat.skill.best == sum(1 for g in real if g == 0) <= 3
    assert seat.turns == 1 and seat.jackpots == 1 and seat.totals_by_round == [0]
    assert seat.shut_given_away == seat.skill.given_away == sum(real, Fraction(0))
    assert seat.skill.given_away >= Fraction(1, 36)


async def test_profile_is_private_until_opted_in(make_client: Any, app: Any) -> None:
    ana, ben = await people(make_client, ["Ana", "Ben"])
    # Jackpot: both throw in the first round, so the match is rated (no no-show).
    await play([ana, ben], await start_match([ana, ben], "jackpot"))
    assert (await ben.get("/players/Ana", headers=HTML)).status_code == 404
    assert (await ben.get("/api/players/ana")).status_code == 404
    mine = await ana.get("/players/Ana", headers=HTML)
    assert mine.status_code == 200 and "Only you can see this page" in mine.text
    await ana.patch("/api/account", json={"leaderboard": True})
    seen = await ben.get("/players/ana", headers=HTML)
    assert seen.status_code == 200
    body = (await ben.get("/api/players/Ana")).json()
    (jackpot,) = body["variants"]
    assert jackpot["variant"] == "jackpot" and jackpot["provisional"] is True
    assert jackpot["rated_matches"] == 1 and jackpot["matches"] == 1
    assert re.search(rf">{jackpot['rating']}<span class=\"provisional\"", seen.text)
    assert "<svg" in seen.text and "The ratings as a table" in seen.text
    # Beside the rating, why it can rise after a match somebody else won.
    why = r'class="small rating-why">Places count, not only wins: in a match of three'
    assert re.search(why, seen.text)
    assert "Recent matches" in seen.text and "/replay" in seen.text


async def test_history_filters_and_records_export(make_client: Any, app: Any) -> None:
    ana, ben = await people(make_client, ["Ana", "Ben"])
    # Jackpot: both throw in the first round, so the match is rated (no no-show).
    people_match = await play([ana, ben], await start_match([ana, ben], "jackpot"))
    await play([ana], await start_match([ana], "classic", bots=1))
    await play([ana], await start_match([ana], "classic"))  # practice alone: a win
    hist = (await ana.get("/api/players/Ana/matches")).json()
    assert hist["total"] == 3
    assert (await ana.get("/api/players/Ana/matches?variant=jackpot")).json()["total"] == 1
    assert (await ana.get("/api/players/Ana/matches?variant=classic")).json()["total"] == 2
    won = (await ana.get("/api/players/Ana/matches?result=won")).json()["matches"]
    lost = (await ana.get("/api/players/Ana/matches?result=lost")).json()["matches"]
    drew = (await ana.get("/api/players/Ana/matches?result=drew")).json()["matches"]
    assert len(won) + len(lost) + len(drew) == 3
    assert all(m["outcome"] == "won" for m in won) and all(m["outcome"] == "lost" for m in lost)
    rated = [m for m in hist["matches"] if m["rated"]]
    assert [m["id"] for m in rated] == [people_match["id"]] and rated[0]["opponents"] == ["Ben"]
    assert (await ana.get("/api/players/Ana/matches?result=maybe")).status_code == 422
    page = await ana.get("/players/Ana/history?result=lost", headers=HTML)
    assert page.status_code == 200 and f"{len(lost)} match" in page.text

    resp = await ana.get("/api/players/Ana/records")
    assert resp.headers["content-type"].startswith("application/x-ndjson")
    lines = resp.text.strip().split("\n")
    assert len(lines) == 3
    for line in lines:
        check = fair.verify(json.loads(line))
        assert check.ok, check.problem


async def test_replay_only_after_the_end_with_consistent_numbers(
    make_client: Any, app: Any
) -> None:
    ana, ben, cy = await people(make_client, ["Ana", "Ben", "Cy"])
    state = await start_match([ana, ben, cy], "classic")
    mid = state["id"]
    refused = await ana.get(f"/matches/{mid}/replay", headers=HTML)
    assert refused.status_code == 409 and "when the match has ended" in refused.text
    state = await play([ana, ben, cy], state, resign_first=[1])
    page = await ben.get(f"/matches/{mid}/replay", headers=HTML)
    assert page.status_code == 200
    raw = re.search(r'id="replay-data" type="application/json">(.*?)</script>', page.text, re.S)
    assert raw is not None
    data = json.loads(raw.group(1))
    record = (await ana.get(f"/api/matches/{mid}/record")).json()
    assert len(data["steps"]) == len(record["events"])
    assert data["names"] == [s["name"] for s in state["seats"]]  # in the order of play
    ben_seat = data["names"].index("Ben")
    assert data["steps"][0]["kind"] == "out" and data["steps"][0]["seat"] == ben_seat
    covers = [s for s in data["steps"] if s["kind"] == "throw" and s["cover"]]
    assert covers, "a Classic turn covers something at least once... or the test is moot"
    assert data["measure"] == "match"
    for s in covers:
        # Three seats: what a cover gave away is winning chance (equity), exactly.
        top = max(Fraction(o["equity"]) for o in s["options"])
        chosen = next(o for o in s["options"] if o["tiles"] == s["cover"])
        assert Fraction(s["given_away_exact"]) == top - Fraction(chosen["equity"])
        assert s["given_away"] == float(Fraction(s["given_away_exact"]))
        best = next(o for o in s["options"] if o["tiles"] == s["best"])
        assert Fraction(best["equity"]) == top
        for o in s["options"]:
            assert 0 <= Fraction(o["p_win"]) <= Fraction(o["equity"]) <= 1
        assert Fraction(chosen["p_exact"]) == p_shut_max(
            Variant.CLASSIC, frozenset(s["open_before"]) - set(s["cover"])
        )
    final = data["steps"][-1]["totals"]
    assert final == state["result"]["totals"]
    # Summary and chart with its table.
    assert "Running totals by round" in page.text and "<svg" in page.text
    assert 'id="totals-table"' in page.text
    match_page = await ana.get(f"/matches/{mid}", headers=HTML)
    assert f'href="/matches/{mid}/replay"' in match_page.text


async def test_the_replay_names_the_bots_strength_in_the_pages_language(make_client: Any) -> None:
    (ana,) = await people(make_client, ["Ana"])
    state = await start_match([ana], "classic", bots=2)
    assert (await ana.post(f"/api/matches/{state['id']}/resign")).status_code == 200
    page = await ana.get(
        f"/matches/{state['id']}/replay", headers={**HTML, "accept-language": "pt"}
    )
    assert page.status_code == 200
    named = re.findall(r"\(bot, regra: ([^)]+)\)", page.text)
    assert len(named) == 2, named
    assert set(named) <= {"peça mais baixa", "peça mais alta", "melhor jogada"}, named


async def test_replay_of_a_bot_match_in_progress_is_refused(make_client: Any) -> None:
    (ana,) = await people(make_client, ["Ana"])
    state = await start_match([ana], "jackpot", bots=1)
    resp = await ana.get(f"/matches/{state['id']}/replay", headers=HTML)
    assert resp.status_code == 409
    assert "Chance of shutting" not in resp.text


async def test_live_odds_only_where_nobody_is_helped_against_a_person(
    make_client: Any,
) -> None:
    ana, ben = await people(make_client, ["Ana", "Ben"])
    solo = await start_match([ana], "jackpot")
    mid = solo["id"]
    before = (await ana.get(f"/api/matches/{mid}/odds")).json()
    assert before["dice"] is None and before["options"] == []
    assert before["p_shut"] == "8.00%"  # the full board, playing perfectly
    thrown = (await ana.post(f"/api/matches/{mid}/throw", json={})).json()
    odds = (await ben.get(f"/api/matches/{mid}/odds")).json()
    assert odds["dice"] == thrown["turn"]["dice"]
    assert [o["tiles"] for o in odds["options"]] == thrown["turn"]["options"]
    if odds["options"]:
        exact = {tuple(o["tiles"]): Fraction(o["p_exact"]) for o in odds["options"]}
        for tiles, p in exact.items():
            assert p == p_shut_max(Variant.JACKPOT, FULL - set(tiles))
        assert exact[tuple(odds["best"])] == max(exact.values())
    match_page = await ana.get(f"/matches/{mid}", headers=HTML)
    assert "/static/odds.js" in match_page.text

    duel = await start_match([ana, ben], "classic")
    refused = await ana.get(f"/api/matches/{duel['id']}/odds")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "odds_hidden"
    assert "/static/odds.js" not in (await ana.get(f"/matches/{duel['id']}", headers=HTML)).text
    await play([ana, ben], duel)
    assert (await ana.get(f"/api/matches/{duel['id']}/odds")).status_code == 200
