"""Ratings: live updates after matches between people, checked against openskill
called directly; bots, leavers and ties; the rebuild gives the live numbers."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from typing import Any

import pytest
from openskill.models import PlackettLuce
from ratings_helpers import by_joining, joining_order, people, play, start_match
from sqlalchemy import select, update
from web_helpers import move, seated

from jackpot import fair
from jackpot.engine import Match, Variant
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables import players as r
from jackpot.web.players.ratings import (
    PROVISIONAL_SIGMA,
    display_rating,
    is_provisional,
    rate,
    rebuild,
)

#: Repeated on PostgreSQL (make test): ratings written under a lock.
pytestmark = pytest.mark.pg

MODEL = PlackettLuce()


def direct(priors: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
    """openskill itself, with nothing of ours in between."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in priors]
    out = MODEL.rate(teams, ranks=places)
    return [(team[0].mu, team[0].sigma) for team in out]


async def ratings_of(app: Any, variant: str) -> dict[str, Any]:
    async with app.state.db.read() as conn:
        rows = (
            await conn.execute(
                select(t.users.c.name, r.player_ratings)
                .join(r.player_ratings, r.player_ratings.c.user_id == t.users.c.id)
                .where(r.player_ratings.c.variant == variant)
            )
        ).all()
    return {row.name: row for row in rows}


async def snapshot(app: Any) -> dict[str, list[tuple[Any, ...]]]:
    out = {}
    async with app.state.db.read() as conn:
        for table in (r.player_ratings, r.rating_history, r.seat_stats):
            rows = (await conn.execute(select(table))).all()
            out[table.name] = sorted(tuple(row) for row in rows)
    return out


def test_rate_is_openskill_and_ties_share_everything() -> None:
    new = (MODEL.mu, MODEL.sigma)
    for places in ([1, 2], [1, 1], [1, 1, 3], [2, 1, 3, 4], [1, 2, 2, 4]):
        priors = [new] * len(places)
        assert rate(priors, places) == direct(priors, places)
    tied = rate([new, new, new], [1, 1, 3])
    assert tied[0] == tied[1] != tied[2]
    assert tied[0][0] > MODEL.mu > tied[2][0]
    # Unequal priors too: the function passes them through, not just defaults.
    priors = [(30.0, 4.0), (22.0, 7.5), (25.0, 2.0)]
    assert rate(priors, [3, 1, 2]) == direct(priors, [3, 1, 2])


def test_display_rating_and_the_provisional_line() -> None:
    assert display_rating(MODEL.mu, MODEL.sigma) == 1000  # ordinal 0
    assert display_rating(25.0, 3.0) == 1480
    assert display_rating(20.0, 2.0) == 1420
    assert is_provisional(MODEL.sigma)
    assert is_provisional(PROVISIONAL_SIGMA + 0.01)
    assert not is_provisional(PROVISIONAL_SIGMA)


async def test_two_people_are_rated_like_openskill(make_client: Any, app: Any) -> None:
    ana, ben = await people(make_client, ["Ana", "Ben"])
    # Jackpot: both throw in the first round, so both are rated (see the no-show rule).
    state = await play([ana, ben], await start_match([ana, ben], "jackpot"))
    res = state["result"]
    places = by_joining(res["places"], await joining_order(ana, state["id"]))
    want = direct([(MODEL.mu, MODEL.sigma)] * 2, places)
    got = await ratings_of(app, "jackpot")
    for name, (mu, sigma) in zip(["Ana", "Ben"], want, strict=True):
        assert got[name].mu == mu and got[name].sigma == sigma
        assert got[name].rating == display_rating(mu, sigma)
        assert got[name].matches == 1
        assert got[name].provisional
    assert got["Ana"].wins + got["Ben"].wins == len(res["winners"])
    assert await ratings_of(app, "classic") == {}


def rated_places(record: dict[str, Any], places: list[int]) -> dict[str, int]:
    """Who the no-show rule rates, by name, with their places: people who threw at
    least once or never left; nobody if fewer than two people threw."""
    people = [p for p, s in enumerate(record["seats"]) if s["bot"] is None]
    threw = {e["seat"] for e in record["events"] if e["type"] == "throw"}
    left = {e["seat"] for e in record["events"] if e["type"] == "out"}
    if sum(1 for p in people if p in threw) < 2:
        return {}
    return {
        record["seats"][p]["name"]: places[p] for p in people if p in threw or p not in left
    }


async def test_three_people_and_a_bot_with_a_leaver(make_client: Any, app: Any) -> None:
    clients = await people(make_client, ["Ana", "Ben", "Cy"])
    state = await start_match(clients, "classic", bots=1)
    state = await play(clients, state, resign_first=[2])
    res = state["result"]
    record = (await clients[0].get(f"/api/matches/{state['id']}/record")).json()
    # Cy resigned before anyone threw: last of all, below the bot (joining index 3)...
    assert by_joining(res["places"], record["joined"])[2] == 4
    # ...and not rated: a no-show says nothing about skill.
    rated = rated_places(record, res["places"])
    assert "Cy" not in rated
    want = direct([(MODEL.mu, MODEL.sigma)] * len(rated), list(rated.values())) if rated else []
    got = await ratings_of(app, "classic")
    for name, (mu, sigma) in zip(rated, want, strict=True):
        assert (got[name].mu, got[name].sigma) == (mu, sigma)
    # Nothing was rated for the bot nor for Cy (nor for anyone, if one person threw).
    assert set(got) == set(rated)


async def test_four_people_two_leave_and_ratings_chain(make_client: Any, app: Any) -> None:
    clients = await people(make_client, ["Ana", "Ben", "Cy", "Dee"])
    first = await play(clients, await start_match(clients, "classic"), resign_first=[3, 1])
    record1 = (await clients[0].get(f"/api/matches/{first['id']}/record")).json()
    res1 = by_joining(first["result"]["places"], record1["joined"])
    # The later to leave (Ben) is placed above the earlier (Dee); neither is rated.
    assert res1[1] == 3 and res1[3] == 4
    second = await play(clients, await start_match(clients, "classic"))
    record2 = (await clients[0].get(f"/api/matches/{second['id']}/record")).json()
    chain: dict[str, list[tuple[float, float]]] = {}
    for record, result in ((record1, first["result"]), (record2, second["result"])):
        rated = rated_places(record, result["places"])
        if not rated:
            continue
        priors = [chain[n][-1] if n in chain else (MODEL.mu, MODEL.sigma) for n in rated]
        for name, post in zip(rated, direct(priors, list(rated.values())), strict=True):
            chain.setdefault(name, []).append(post)
    assert "Ben" not in rated_places(record1, first["result"]["places"])
    assert "Dee" not in rated_places(record1, first["result"]["places"])
    got = await ratings_of(app, "classic")
    assert set(got) == set(chain)
    for name, posts in chain.items():
        assert (got[name].mu, got[name].sigma) == posts[-1]
        assert got[name].matches == len(posts)
    async with app.state.db.read() as conn:
        hist = (
            await conn.execute(
                select(t.users.c.name, r.rating_history.c.mu)
                .join(r.rating_history, r.rating_history.c.user_id == t.users.c.id)
                .order_by(r.rating_history.c.user_id, r.rating_history.c.at)
            )
        ).all()
    assert len(hist) == sum(len(p) for p in chain.values())
    for name, posts in chain.items():
        assert [h.mu for h in hist if h.name == name] == [mu for mu, _ in posts]


async def test_a_players_counts_add_up_over_matches(make_client: Any, app: Any) -> None:
    """A player's row is written over, match after match: its counts must be the sums
    of their matches' own figures, and its rating the last match's."""
    clients = await people(make_client, ["Ana", "Ben"])
    for _ in range(3):
        await play(clients, await start_match(clients, "jackpot"))
    got = await ratings_of(app, "jackpot")
    async with app.state.db.read() as conn:
        stats = (
            await conn.execute(
                select(t.users.c.name, r.seat_stats).join(
                    r.seat_stats, r.seat_stats.c.user_id == t.users.c.id
                )
            )
        ).all()
        last = {
            row.name: row
            for row in (
                await conn.execute(
                    select(t.users.c.name, r.rating_history)
                    .join(r.rating_history, r.rating_history.c.user_id == t.users.c.id)
                    .order_by(r.rating_history.c.at)
                )
            ).all()
        }
    for name in ("Ana", "Ben"):
        mine = [s for s in stats if s.name == name]
        assert len(mine) == got[name].matches == 3
        assert got[name].wins == sum(1 for s in mine if s.outcome in ("won", "drew"))
        assert got[name].turns == sum(s.turns for s in mine) > 0
        assert got[name].jackpots == sum(s.jackpots for s in mine)
        assert got[name].score_sum == sum(s.score_sum for s in mine)
        assert (got[name].mu, got[name].sigma) == (last[name].mu, last[name].sigma)
        assert got[name].last_match_at == max(s.finished_at for s in mine)


async def test_a_no_show_is_not_rated(make_client: Any, app: Any) -> None:
    """Ben joins and times out (here: resigns) before his first throw; Ana, who
    threw, is not rated either, since fewer than two people threw."""
    ana, ben = await people(make_client, ["Ana", "Ben"])
    state = await start_match([ana, ben], "jackpot")
    mid = state["id"]
    seats = await seated([ana, ben], mid)
    if seats[0] is ana:  # Ana throws first; Ben has not thrown when he leaves
        state = (await ana.post(f"/api/matches/{mid}/throw", json={})).json()
    state = (await ben.post(f"/api/matches/{mid}/resign")).json()
    assert state["status"] == "finished" and state["result"]["winners"] != []
    assert await ratings_of(app, "jackpot") == {}
    async with app.state.db.read() as conn:
        stats = (await conn.execute(select(r.seat_stats))).all()
    assert len(stats) == 2  # the figures are kept: the match happened
    # The history lists the match, and does not call it rated for either of them.
    for who, client in (("Ana", ana), ("Ben", ben)):
        hist = (await client.get(f"/api/players/{who}/matches")).json()
        assert [(m["id"], m["rated"]) for m in hist["matches"]] == [(mid, False)]
        page = await client.get(f"/players/{who}/history", headers={"accept": "text/html"})
        assert page.status_code == 200 and "· rated" not in page.text


async def test_a_bot_match_is_not_rated_but_counted(make_client: Any, app: Any) -> None:
    (ana,) = await people(make_client, ["Ana"])
    state = await start_match([ana], "classic", bots=1)
    await play([ana], state)
    assert await ratings_of(app, "classic") == {}
    async with app.state.db.read() as conn:
        rows = (await conn.execute(select(r.seat_stats))).all()
    assert len(rows) == 1
    assert rows[0].humans == 1 and rows[0].turns == 1


async def test_rebuild_gives_the_live_numbers(make_client: Any, app: Any) -> None:
    clients = await people(make_client, ["Ana", "Ben", "Cy"])
    # Jackpot: everyone still in throws in the first round, so the ratings are sure.
    await play(clients[:2], await start_match(clients[:2], "jackpot"))
    await play(clients, await start_match(clients, "jackpot", bots=1), resign_first=[1])
    await play(clients[1:], await start_match(clients[1:], "jackpot"))
    await play(clients[:1], await start_match(clients[:1], "classic", bots=1))
    live = await snapshot(app)
    assert len(live["player_ratings"]) == 3  # all three in Jackpot (Ben's leaving unrated)
    async with app.state.db.write() as conn:
        assert await rebuild(conn) == 4
    assert await snapshot(app) == live


async def test_rebuild_command_and_a_draw_is_a_tie(
    make_client: Any, app: Any, settings: Any
) -> None:
    ana, ben = await people(make_client, ["Ana", "Ben"])
    state = await play([ana, ben], await start_match([ana, ben], "jackpot"))
    # Make the stored result a draw: the rebuild must rate it as a tie.
    draw = {**state["result"], "places": [1, 1], "winners": [0, 1]}
    async with app.state.db.write() as conn:
        await conn.execute(update(t.matches).values(result=draw))
    env = {
        **os.environ,
        "DATABASE_URL": settings.database_url,
        "JACKPOT_VAR_DIR": str(settings.var_dir),
    }
    done = subprocess.run(
        [sys.executable, "-m", "jackpot.cli", "ratings", "rebuild"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "read 1 finished matches" in done.stdout
    got = await ratings_of(app, "jackpot")
    want = direct([(MODEL.mu, MODEL.sigma)] * 2, [1, 1])
    assert (got["Ana"].mu, got["Ana"].sigma) == want[0] == want[1]
    assert (got["Ben"].mu, got["Ben"].sigma) == want[0]
    assert got["Ana"].wins == got["Ben"].wins == 1


@pytest.mark.parametrize("variant", ["jackpot", "classic"])
async def test_seat_stats_agree_with_the_result(make_client: Any, app: Any, variant: str) -> None:
    ana, ben = await people(make_client, ["Ana", "Ben"])
    state = await play([ana, ben], await start_match([ana, ben], variant))
    res = state["result"]
    async with app.state.db.read() as conn:
        rows = (await conn.execute(select(r.seat_stats).order_by(r.seat_stats.c.seat))).all()
    assert [x.score_sum for x in rows] == res["totals"]
    assert [x.place for x in rows] == res["places"]
    for x in rows:
        assert x.outcome == (
            "lost"
            if x.seat not in res["winners"]
            else "won"
            if len(res["winners"]) == 1
            else "drew"
        )
        assert 0 <= x.best_choices <= x.choices
        assert x.given_away >= 0
    if variant == "jackpot":
        assert sum(x.jackpots for x in rows) >= 1  # the match ends only on a jackpot


async def test_a_match_rated_after_a_later_one_keeps_the_rating_order(
    make_client: Any, app: Any
) -> None:
    """As when two matches sharing a player finish at once on PostgreSQL and the one
    that started first commits second: it is rated a moment after the other (its
    match row keeps its own finish time), and the rebuild rates them in the order the
    live updates did."""
    ana, ben = await people(make_client, ["Ana", "Ben"])
    first = await play([ana, ben], await start_match([ana, ben], "jackpot"))
    async with app.state.db.write() as conn:
        row = (
            await conn.execute(select(t.matches.c.finished_at).where(t.matches.c.id == first["id"]))
        ).one()
        later = row.finished_at + timedelta(hours=1)
        # The first match "finished" an hour from now, as far as the order knows.
        await conn.execute(
            update(t.matches).where(t.matches.c.id == first["id"]).values(finished_at=later)
        )
        await conn.execute(update(r.player_ratings).values(last_match_at=later))
        await conn.execute(update(r.rating_history).values(at=later))
        await conn.execute(update(r.seat_stats).values(finished_at=later))
    second = await play([ana, ben], await start_match([ana, ben], "jackpot"))
    async with app.state.db.read() as conn:
        finished = (
            await conn.execute(
                select(t.matches.c.finished_at).where(t.matches.c.id == second["id"])
            )
        ).scalar_one()
        rated = (
            await conn.execute(
                select(r.rating_history.c.at).where(r.rating_history.c.match_id == second["id"])
            )
        ).scalars().all()
    assert finished < later
    assert rated == [later + timedelta(microseconds=1)] * 2
    live = await snapshot(app)
    async with app.state.db.write() as conn:
        assert await rebuild(conn) == 2
    assert await snapshot(app) == live


async def test_a_shared_place_after_a_shut_box_is_a_tie(make_client: Any, app: Any) -> None:
    """Classic by the rules of jackpot-record/3: the second to throw shuts the box, so
    the first and the third (who never threw) share place 2, and are rated as a tie."""
    ana, ben, cat = await people(make_client, ["Ana", "Ben", "Cat"])
    body = {"variant": "classic", "seats": 3, "bots": 0, "client_seed": "a"}
    mid = (await ana.post("/api/matches", json=body)).json()["id"]
    await ben.post(f"/api/matches/{mid}/join", json={"client_seed": "b"})
    async with app.state.db.read() as conn:
        server_seed = (
            await conn.execute(select(t.matches.c.server_seed).where(t.matches.c.id == mid))
        ).scalar_one()

    def ends(client_seed: str) -> tuple[tuple[int, ...], bool] | None:
        """The places, and whether the second seat shut the box, when everyone throws
        two dice and covers the last set offered."""
        if fair.order_of_play(server_seed, client_seed, 3, people=3) != (0, 1, 2):
            return None
        m = Match.new(Variant.CLASSIC, 3)
        while (turn := m.turn) is not None:
            if turn.dice is None:
                m, _ = m.throw(turn.seat, fair.throw_dice(server_seed, client_seed, m.throws))
            else:
                m, _ = m.cover(turn.seat, turn.options[-1])
        assert m.result is not None
        return tuple(m.result.places), m.result.shut[1] is not None

    seed = next(f"c{k}" for k in range(20_000) if ends(f"a.b.c{k}") == ((2, 1, 2), True))
    state = (await cat.post(f"/api/matches/{mid}/join", json={"client_seed": seed})).json()
    clients = [ana, ben, cat]  # the draw kept the joining order
    while state["status"] == "playing":
        state = (await move(clients[state["turn"]["seat"]], state)).json()
    assert state["result"]["places"] == [2, 1, 2]
    assert state["result"]["shut"][1] is not None and state["result"]["totals"][2] == 0
    got = await ratings_of(app, "classic")
    want = direct([(MODEL.mu, MODEL.sigma)] * 3, [2, 1, 2])
    assert (got["Ana"].mu, got["Ana"].sigma) == want[0] == want[2]
    assert (got["Cat"].mu, got["Cat"].sigma) == want[2]
    assert (got["Ben"].mu, got["Ben"].sigma) == want[1]
    assert got["Ana"].mu < got["Ben"].mu
