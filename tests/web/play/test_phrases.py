"""A few words in a match: a phrase said goes out as a ``said`` event once committed
and stays with the match; unknown phrases, strangers, a seat saying too much and a
match long over are refused; and a phrase never moves the match's version."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import subprocess
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import update
from web_helpers import move, seated, sign_up

from jackpot.web.base.clock import utcnow
from jackpot.web.base.tables import core as t
from jackpot.web.matches.live import add_said, apply_event
from jackpot.web.play.edge.sse import live_after
from jackpot.web.play.phrases import PHRASES

#: Repeated on PostgreSQL (make test): an upsert in each dialect.
pytestmark = pytest.mark.pg

STATIC = Path(__file__).resolve().parents[3] / "src" / "jackpot" / "static"


def in_node(said: list[dict[str, Any]], events: list[dict[str, Any]], state: Any) -> Any:
    """The page's own functions on the same input: addSaid over the events, and
    applyEvent leaving the state as it was."""
    script = (
        f"import {{ addSaid }} from {json.dumps((STATIC / 'match-phrases.js').as_uri())};\n"
        f"import {{ applyEvent }} from {json.dumps((STATIC / 'match-state.js').as_uri())};\n"
        "let input = '';\n"
        "process.stdin.on('data', (c) => { input += c; });\n"
        "process.stdin.on('end', () => {\n"
        "  const { said, events, state } = JSON.parse(input);\n"
        "  let out = said; let s = state;\n"
        "  for (const ev of events) { out = addSaid(out, ev); s = applyEvent(s, ev); }\n"
        "  process.stdout.write(JSON.stringify({ said: out, state: s }));\n"
        "});\n"
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        input=json.dumps({"said": said, "events": events, "state": state}),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)


@pytest.fixture
def settings(settings: Any) -> Any:
    """No wait between phrases here (the wait has its own test on the defaults'
    twin below), and a small allowance per seat, so the limit is reached quickly."""
    return dataclasses.replace(settings, phrase_gap=0.0, phrases_per_seat=4)


async def two_people(make_client: Any) -> tuple[str, dict[int, httpx.AsyncClient]]:
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    mid = (await ana.post("/api/matches", json={"seats": 2, "bots": 0})).json()["id"]
    r = await ben.post(f"/api/matches/{mid}/join", json={})
    assert r.json()["status"] == "playing"
    return mid, await seated([ana, ben], mid)


def app_of(client: httpx.AsyncClient) -> Any:
    return client._transport.app  # type: ignore[attr-defined]


async def test_a_phrase_goes_out_after_commit_and_stays(make_client) -> None:  # type: ignore[no-untyped-def]
    mid, by_seat = await two_people(make_client)
    watcher = await make_client()
    sub = app_of(by_seat[0]).state.bus.subscribe(mid)
    before = (await watcher.get(f"/api/matches/{mid}")).json()
    try:
        r = await by_seat[1].post(f"/api/matches/{mid}/say", json={"phrase": "good_luck"})
        assert r.status_code == 204, r.text
        r = await by_seat[0].post(f"/api/matches/{mid}/say", json={"phrase": "have_fun"})
        assert r.status_code == 204, r.text
        heard = [await asyncio.wait_for(sub.queue.get(), 5) for _ in range(2)]
    finally:
        sub.close()
    assert [(e["type"], e["seat"], e["phrase"]) for e in heard] == [
        ("said", 1, "good_luck"),
        ("said", 0, "have_fun"),
    ]
    assert all("seq" not in e for e in heard)
    # Kept with the match, for a page loaded later: the same as the events, rebuilt.
    kept = (await watcher.get(f"/api/matches/{mid}/said")).json()["said"]
    rebuilt: list[dict[str, Any]] = []
    for ev in heard:
        rebuilt = add_said(rebuilt, ev)
    rebuilt = add_said(rebuilt, heard[0])  # heard twice (a reconnect): listed once
    assert kept == rebuilt
    assert in_node([], [*heard, heard[0]], before) == {"said": kept, "state": before}
    # Not part of the match's state, and no step of its version: a move made from
    # the state read before the phrases goes through.
    after = (await watcher.get(f"/api/matches/{mid}")).json()
    assert after == before
    assert apply_event(before, heard[0]) == before
    assert (await move(by_seat[0], before)).status_code == 200
    page = await watcher.get(f"/matches/{mid}")
    assert "have_fun" in page.text  # in the page's initial list


async def test_streams_pass_a_phrase_on_unnumbered() -> None:
    said = {"type": "said", "seat": 0, "n": 1, "phrase": "thanks", "at": "2026-01-01T00:00:00Z"}
    out, sent, end = await live_after(None, "m_x", [said], 7)  # type: ignore[arg-type]
    assert (out[0][0], sent, end) == (0, 7, None)
    assert '"phrase":"thanks"' in out[0][1]


async def test_bad_phrases_strangers_and_limits(make_client) -> None:  # type: ignore[no-untyped-def]
    mid, by_seat = await two_people(make_client)
    say = f"/api/matches/{mid}/say"
    r = await by_seat[0].post(say, json={"phrase": "you are bad"})
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "unknown_phrase"
    r = await by_seat[0].post(say, json={"phrase": "good_luck", "text": "hi"})
    assert r.status_code == 422  # no free text, not even beside a phrase
    stranger = await make_client()
    await sign_up(stranger, "Cat")
    r = await stranger.post(say, json={"phrase": "good_luck"})
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "not_seated"
    assert (await (await make_client()).post(say, json={"phrase": "thanks"})).status_code == 401
    for phrase in PHRASES[:4]:
        assert (await by_seat[0].post(say, json={"phrase": phrase})).status_code == 204
    r = await by_seat[0].post(say, json={"phrase": "sorry"})
    assert r.status_code == 429
    assert r.json()["error"]["code"] == "too_many_phrases"
    # The allowance is per seat: the other seat still has its own.
    assert (await by_seat[1].post(say, json={"phrase": "sorry"})).status_code == 204
    r = await by_seat[0].post("/api/matches/m_nothing/say", json={"phrase": "sorry"})
    assert r.status_code == 404


async def test_after_the_end_for_a_while(make_client) -> None:  # type: ignore[no-untyped-def]
    mid, by_seat = await two_people(make_client)
    assert (await by_seat[1].post(f"/api/matches/{mid}/resign")).status_code == 200
    say = f"/api/matches/{mid}/say"
    assert (await by_seat[1].post(say, json={"phrase": "must_go"})).status_code == 204
    assert (await by_seat[0].post(say, json={"phrase": "well_played"})).status_code == 204
    # Long over: nothing more.
    async with app_of(by_seat[0]).state.db.write() as conn:
        await conn.execute(
            update(t.matches)
            .where(t.matches.c.id == mid)
            .values(finished_at=utcnow() - timedelta(hours=1))
        )
    r = await by_seat[0].post(say, json={"phrase": "rematch"})
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "match_over"


async def test_not_before_the_start(make_client) -> None:  # type: ignore[no-untyped-def]
    ana = await make_client()
    await sign_up(ana, "Ana")
    mid = (await ana.post("/api/matches", json={"seats": 2, "bots": 0})).json()["id"]
    r = await ana.post(f"/api/matches/{mid}/say", json={"phrase": "good_luck"})
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "not_started"


async def test_the_gap_is_said_in_whole_seconds_with_plural_forms(make_client: Any) -> None:
    """A gap of 2.5 s is said as 3 seconds, in the form the number takes (Slovak
    "každé 3 sekundy", where one sentence for every number said "každých 3 sekúnd")."""
    mid, by_seat = await two_people(make_client)
    app = app_of(by_seat[0])
    app.state.settings = dataclasses.replace(app.state.settings, phrase_gap=2.5)
    say = f"/api/matches/{mid}/say"
    assert (await by_seat[0].post(say, json={"phrase": "good_luck"})).status_code == 204
    r = await by_seat[0].post(say, json={"phrase": "have_fun"}, headers={"accept-language": "sk"})
    assert r.status_code == 429
    assert r.json()["error"]["message"] == "jedna fráza každé 3 sekundy: chvíľu počkajte"
    r = await by_seat[0].post(say, json={"phrase": "have_fun"}, headers={"accept-language": "en"})
    assert r.json()["error"]["message"] == "one phrase every 3 seconds: wait a moment"


async def test_one_phrase_every_few_seconds(make_client) -> None:  # type: ignore[no-untyped-def]
    mid, by_seat = await two_people(make_client)
    app = app_of(by_seat[0])
    app.state.settings = dataclasses.replace(app.state.settings, phrase_gap=3600.0)
    say = f"/api/matches/{mid}/say"
    assert (await by_seat[0].post(say, json={"phrase": "good_luck"})).status_code == 204
    r = await by_seat[0].post(say, json={"phrase": "have_fun"})
    assert r.status_code == 429
    assert r.json()["error"]["code"] == "too_many_phrases"
    assert (await by_seat[1].post(say, json={"phrase": "good_luck"})).status_code == 204
