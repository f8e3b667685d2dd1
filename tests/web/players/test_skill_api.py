"""The chance to win the match in the odds API, and skill apart from the dice: what is
stored as matches end, what the profile, the leaderboard and the review say, and the
rebuild."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import httpx
from ratings_helpers import add_player, people, play, start_match
from sqlalchemy import select
from web_helpers import bot_match, move

from jackpot.engine import Match, Variant
from jackpot.fair.match_review import review_match
from jackpot.i18n.formats import number
from jackpot.strategy.match_odds import match_odds
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables import players as r
from jackpot.web.matches import store
from jackpot.web.players.match_figures import summarise
from jackpot.web.players.odds_view import position_json
from jackpot.web.players.ratings import rebuild

#: An exact chance as the API writes it: "0", "1" or numerator/denominator.
FRACTION = re.compile(r"^(0|1|[1-9][0-9]*/[1-9][0-9]*)$")
HTML = {"accept": "text/html"}


async def engine_match(app: Any, match_id: str) -> Match:
    """The match as the server keeps it (no player can read this)."""
    async with app.state.db.read() as conn:
        row = await store.match_row(conn, match_id)
    return Match.from_dict(row["state"])


def exact(body: dict[str, Any]) -> tuple[Fraction, Fraction, Fraction]:
    for key in ("p_win", "p_draw", "equity"):
        assert FRACTION.match(body[key]), (key, body[key])
    return Fraction(body["p_win"]), Fraction(body["p_draw"]), Fraction(body["equity"])


async def test_a_bot_match_gives_each_option_its_exact_chance_to_win(
    make_client: Any, app: Any
) -> None:
    (ana,) = await people(make_client, ["Ana"])
    state = await bot_match(ana, "classic")
    mid = state["id"]
    covers_with_a_choice = 0
    for _ in range(200):
        if state["status"] == "finished":
            break
        body = (await ana.get(f"/api/matches/{mid}/odds")).json()
        odds = match_odds(await engine_match(app, mid))
        assert odds is not None
        # The fields the odds always had are still there, as they were.
        assert body["seat"] == odds.seat and body["open"] == sorted(odds.open_tiles)
        assert body["p_shut"] is not None and body["p_shut"].endswith("%")
        assert body["measure"] == "match" and body["p_shut_exact"] == str(odds.p_shut)
        assert exact(body) == (odds.p_win, odds.p_draw, odds.equity)
        if body["options"]:
            covers_with_a_choice += len(body["options"]) > 1
            assert body["decision"] == "cover"
            got = {tuple(o["tiles"]): (Fraction(o["p_exact"]), *exact(o)) for o in body["options"]}
            want = {o.tiles: (o.p_shut, o.p_win, o.p_draw, o.equity) for o in odds.options}
            assert got == want
            assert odds.best is not None and tuple(body["best"]) == odds.best.tiles
            # The position after a throw is worth what its best cover is.
            assert exact(body) == got[tuple(body["best"])][1:]
            assert all(o["p_text"].endswith("%") for o in body["options"])
        r_ = await move(ana, state)
        assert r_.status_code == 200, r_.text
        state = r_.json()
    assert state["status"] == "finished"
    assert covers_with_a_choice > 0, "a Classic turn offers a choice at least once"
    over = (await ana.get(f"/api/matches/{mid}/odds")).json()
    assert over["seat"] is None and over["p_win"] is None and over["options"] == []


async def test_alone_the_chance_to_win_is_the_chance_to_shut(make_client: Any) -> None:
    (ana,) = await people(make_client, ["Ana"])
    state = await start_match([ana], "jackpot")
    mid = state["id"]
    before = (await ana.get(f"/api/matches/{mid}/odds")).json()
    assert before["measure"] == "shut" and before["decision"] is None
    assert exact(before) == (Fraction(before["p_shut_exact"]), 0, Fraction(before["p_shut_exact"]))
    assert before["p_draw"] == "0"
    state = (await ana.post(f"/api/matches/{mid}/throw", json={})).json()
    after = (await ana.get(f"/api/matches/{mid}/odds")).json()
    for o in after["options"]:
        assert exact(o) == (Fraction(o["p_exact"]), 0, Fraction(o["p_exact"]))


async def test_the_odds_stay_hidden_between_people_until_the_end(make_client: Any) -> None:
    ana, ben = await people(make_client, ["Ana", "Ben"])
    state = await start_match([ana, ben], "classic")
    for who in (ana, ben):
        refused = await who.get(f"/api/matches/{state['id']}/odds")
        assert refused.status_code == 403 and "p_win" not in refused.text
    await play([ana, ben], state)
    assert (await ana.get(f"/api/matches/{state['id']}/odds")).status_code == 200


def test_the_choice_of_one_die_or_two_is_valued_too() -> None:
    """Classic, seat 1 of 2 with 7, 8 and 9 down: one die or two is the choice."""
    m = Match.new(Variant.CLASSIC, 2)
    for dice, cover in (((3, 4), (7,)), ((4, 4), (8,)), ((4, 5), (9,))):
        m, _ = m.throw(0, dice)
        m, _ = m.cover(0, cover)
    odds = match_odds(m)
    assert odds is not None and odds.best is not None
    body = position_json(odds, 2)
    assert body["decision"] == "dice" and body["options"] == [] and body["best"] is None
    assert [o["dice"] for o in body["dice_options"]] == [1, 2]
    for o in body["dice_options"]:
        chosen = odds.option(o["dice"])
        assert exact(o) == (chosen.p_win, chosen.p_draw, chosen.equity)
    assert body["best_dice"] == odds.best.dice_count


async def record_of(client: httpx.AsyncClient, match_id: str) -> dict[str, Any]:
    return dict((await client.get(f"/api/matches/{match_id}/record")).json())


async def stored(app: Any) -> tuple[list[Any], dict[tuple[str, str], Any]]:
    async with app.state.db.read() as conn:
        seats = (
            await conn.execute(
                select(t.users.c.name, r.seat_stats).join(
                    r.seat_stats, r.seat_stats.c.user_id == t.users.c.id
                ).order_by(r.seat_stats.c.finished_at, r.seat_stats.c.match_id)
            )
        ).all()
        rated = (
            await conn.execute(
                select(t.users.c.name, r.player_ratings).join(
                    r.player_ratings, r.player_ratings.c.user_id == t.users.c.id
                )
            )
        ).all()
        history = {
            (x.user_id, x.match_id)
            for x in await conn.execute(
                select(r.rating_history.c.user_id, r.rating_history.c.match_id)
            )
        }
    return [(s, (s.user_id, s.match_id) in history) for s in seats], {
        (x.name, x.variant): x for x in rated
    }


async def test_skill_is_what_review_match_says_and_the_rebuild_keeps_it(
    make_client: Any, app: Any
) -> None:
    ana, ben = await people(make_client, ["Ana", "Ben"])
    for variant in ("jackpot", "classic", "jackpot"):
        await play([ana, ben], await start_match([ana, ben], variant))
    # Not between people: its figures are kept for the seat, and count for no skill.
    alone = await play([ana], await start_match([ana], "classic", bots=1))

    seats, rated = await stored(app)
    assert len(seats) == 7
    expected: dict[tuple[str, str], tuple[int, float, Fraction]] = {}
    for row, counts in seats:
        record = await record_of(ana, row.match_id)
        figures = summarise(review_match(record))[row.seat].skill
        assert (row.decisions, row.skill_given_away) == (
            figures.decisions,
            float(figures.given_away),
        )
        if counts:  # the rated matches between people, in the order they were rated
            n, total, exact_total = expected.get((row.name, row.variant), (0, 0.0, Fraction(0)))
            expected[row.name, row.variant] = (
                n + figures.decisions,
                total + row.skill_given_away,
                exact_total + figures.given_away,
            )
    assert [counts for row, counts in seats if row.match_id == alone["id"]] == [False]
    assert set(expected) == set(rated)
    decided = 0
    for key, (n, total, exact_total) in expected.items():
        row = rated[key]
        assert (row.decisions, row.skill_given_away) == (n, total)
        assert abs(row.skill_given_away - float(exact_total)) < 1e-12
        assert row.skill == (total / n if n else None)
        decided += n
    assert decided > 0

    # The profile says it per variant, from the same row.
    body = (await ana.get("/api/players/Ana")).json()
    for v in body["variants"]:
        # (Classic may have rated nobody: a first seat that shuts the box ends it alone.)
        row = rated.get(("Ana", v["variant"]))
        want = (0, None) if row is None else (row.decisions, row.skill)
        assert (v["decisions"], v["given_away_per_decision"]) == want
    page = await ana.get("/players/Ana", headers=HTML)
    assert page.status_code == 200 and "Skill apart from the dice" in page.text
    per_decision = r"of winning chance given away per decision, over \d+ decisions? in rated"
    assert re.search(per_decision, page.text)

    live = await stored(app)
    async with app.state.db.write() as conn:
        assert await rebuild(conn) == 4
    assert await stored(app) == live


async def test_the_review_says_what_each_seat_gave_away(make_client: Any, app: Any) -> None:
    ana, ben, cy = await people(make_client, ["Ana", "Ben", "Cy"])
    state = await play([ana, ben], await start_match([ana, ben], "classic"))
    mid = state["id"]
    record = await record_of(ana, mid)
    names = [s["name"] for s in record["seats"]]
    skills = [s.skill for s in summarise(review_match(record))]

    def clause(seat: int, first: bool, you: bool) -> str:
        s = skills[seat]
        points = number(float(s.given_away) * 100, 1)
        noun = "decision" if s.decisions == 1 else "decisions"
        if not first:
            return f"{names[seat]} {points} over {s.decisions} {noun}"
        who = "You" if you else names[seat]
        return f"{who} gave away {points} points of winning chance over {s.decisions} {noun}"

    for viewer, name in ((ana, "Ana"), (ben, "Ben"), (cy, None)):
        order = [s for s in range(2) if skills[s].decisions]
        if name in names and names.index(name) in order:
            order.remove(names.index(name))
            order.insert(0, names.index(name))
        want = "; ".join(
            clause(s, k == 0, names[s] == name) for k, s in enumerate(order)
        ) + "."
        if not order:
            want = "Nobody had a real choice to make in this match: every cover was forced."
        page = await viewer.get(f"/matches/{mid}/replay", headers=HTML)
        assert page.status_code == 200
        said = re.search(r'<p id="skill-sentence">(.*?)</p>', page.text, re.S)
        assert said is not None and said.group(1) == want, (said and said.group(1), want)
    # The summary table has the figures beside the places.
    assert "Given away per decision" in page.text


async def test_the_leaderboard_sorts_by_skill(client: Any, app: Any) -> None:
    await add_player(app, "Steady", mu=26.0, decisions=400, given_away=2.0)  # 0.5 pts
    await add_player(app, "Lucky", mu=33.0, decisions=100, given_away=3.0)  # 3 pts
    await add_player(app, "Sharp", mu=24.0, decisions=50, given_away=0.1)  # 0.2 pts
    await add_player(app, "Twin", mu=22.0, decisions=100, given_away=0.5)  # 0.5 pts
    await add_player(app, "Quiet", mu=30.0)  # no decision yet
    await add_player(app, "Private", mu=29.0, opted=False, decisions=10, given_away=0.0)

    by_rating = (await client.get("/api/leaderboard")).json()
    assert by_rating["sort"] == "rating"
    names = [p["name"] for p in by_rating["players"]]
    assert names == ["Lucky", "Quiet", "Steady", "Sharp", "Twin"]
    lucky = by_rating["players"][0]
    assert (lucky["decisions"], lucky["given_away_per_decision"]) == (100, 0.03)
    assert by_rating["players"][1]["given_away_per_decision"] is None

    by_skill = (await client.get("/api/leaderboard?sort=skill")).json()
    assert by_skill["sort"] == "skill" and by_skill["total"] == 4
    ranked = [(p["name"], p["rank"]) for p in by_skill["players"]]
    assert ranked[0] == ("Sharp", 1) and ranked[-1] == ("Lucky", 4)
    assert sorted(ranked[1:3]) == [("Steady", 2), ("Twin", 2)]  # 0.5 points each: one rank
    # Paged, the rank of a page's first row still counts everyone above it.
    second = (await client.get("/api/leaderboard?sort=skill&per_page=2&page=2")).json()
    assert [p["rank"] for p in second["players"]] == [2, 4] and second["pages"] == 2
    bad = await client.get("/api/leaderboard?sort=luck")
    assert bad.status_code == 422 and "sort must be" in bad.json()["error"]["message"]

    page = await client.get("/leaderboard?sort=skill", headers=HTML)
    assert page.status_code == 200
    assert re.search(r'aria-sort="ascending">Given away per decision', page.text)
    assert 'id="sort-rating"' in page.text and 'id="sort-skill"' not in page.text
    order = [m.group(1) for m in re.finditer(r'class="pname" href="/players/(\w+)"', page.text)]
    assert order[0] == "Sharp" and order[-1] == "Lucky" and "Quiet" not in order
    assert ">0.20 pts<" in page.text and ">3.00 pts<" in page.text
    default = await client.get("/leaderboard", headers=HTML)
    assert 'href="/leaderboard?variant=jackpot&amp;sort=skill" id="sort-skill"' in default.text
