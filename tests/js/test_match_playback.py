"""The match page plays out others' moves at the pace the server counts on
(static/match-playback.js mirrors web/matches/playback.py), and a bot's opening turn
is played out on arrival from the position right after the start
(static/match-opening.js): run in node against a real match's events."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from js_records import NODE
from sqlalchemy import insert, select

from bot_first import COMMITMENT, bot_first_seed, pending_row
from jackpot.web.base.clock import utcnow
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.play import pending_seeds
from jackpot.web.matches.playback import (
    PACE_COVER_MS,
    PACE_THROW_MS,
    SLOWEST,
    paced,
    playback_ms,
)

STATIC = Path(__file__).parents[2] / "src" / "jackpot" / "static"


def node(script: str, data: Any) -> Any:
    def url(name: str) -> str:
        return json.dumps((STATIC / name).as_uri())

    imports = (
        f"import {{ paced, playbackMs, PACE, SPEEDS }} from {url('match-playback.js')};\n"
        f"import {{ openingPlayback }} from {url('match-opening.js')};\n"
        f"import {{ applyEvent }} from {url('match-state.js')};\n"
        f"const data = {json.dumps(data)};\n"
    )
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", imports + script],
        capture_output=True, text=True, timeout=60, check=True,
    )
    return json.loads(done.stdout)


async def bot_first_match(app: Any, client: Any, variant: str, *, bot_wins: bool) -> dict[str, Any]:
    """A match whose seeds draw the bot to throw first (tests/bot_first.py)."""
    async with app.state.db.write() as conn:
        await conn.execute(insert(pending_seeds).values(**pending_row(utcnow())))
    body = {
        "variant": variant, "seats": 2, "bots": 1, "commitment": COMMITMENT,
        "client_seed": bot_first_seed(variant, bot_wins=bot_wins),
    }
    r = await client.post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


async def events_of(app: Any, match_id: str) -> list[dict[str, Any]]:
    async with app.state.db.read() as conn:
        rows = await conn.execute(
            select(t.match_events.c.data)
            .where(t.match_events.c.match_id == match_id)
            .order_by(t.match_events.c.seq)
        )
        return [json.loads(d) for d in rows.scalars()]


def test_the_page_counts_the_playback_the_server_counts() -> None:
    moves = [
        {"type": "thrown", "seat": s, "dice": [3, 4], "options": opts}
        for s in range(3) for opts in ([[3], [4], [7]], [])
    ] + [{"type": "covered", "seat": s, "tiles": [7], "open": [1]} for s in range(3)] + [
        {"type": t_, "seat": 1} for t_ in ("turn_started", "turn_ended", "seat_out")
    ] + [{"type": "deadline", "seat": 0, "due_at": None}]
    # The JS has the server's pace by default as well as from the page.
    got = node(
        "console.log(JSON.stringify({pace: PACE, slowest: SPEEDS.slow,"
        " flags: [-1, 0, 1, 2].map((v) => data.map((ev) => paced(ev, v))),"
        " totals: [-1, 0, 1, 2].map((v) => playbackMs(data, v))}));",
        moves,
    )
    assert got["pace"] == {"thrown": PACE_THROW_MS, "covered": PACE_COVER_MS}
    assert got["slowest"] == SLOWEST
    viewers = [None, 0, 1, 2]
    assert got["flags"] == [[paced(ev, v) for ev in moves] for v in viewers]
    assert got["totals"] == [playback_ms(moves, v) for v in viewers]
    # A visitor watches every move; a seated player not their own (dead throws aside).
    assert got["totals"][0] == SLOWEST * (6 * PACE_THROW_MS + 3 * PACE_COVER_MS)
    assert got["totals"][1] == SLOWEST * (5 * PACE_THROW_MS + 2 * PACE_COVER_MS)


async def test_the_page_is_given_the_pace(client) -> None:  # type: ignore[no-untyped-def]
    state = (await client.post("/api/matches", json={"seats": 2, "bots": 1})).json()
    page = (await client.get(f"/matches/{state['id']}", headers={"accept": "text/html"})).text
    assert f'data-pace-throw="{PACE_THROW_MS}"' in page
    assert f'data-pace-cover="{PACE_COVER_MS}"' in page


REPLAY = """
const { state, past, me } = data;
const found = openingPlayback(state, past, me);
let s = found ? found.first : null;
if (found) for (const ev of found.replay) s = applyEvent(s, ev);
console.log(JSON.stringify({
  found: Boolean(found),
  before: found ? found.before.map((ev) => ev.type) : null,
  first: found ? found.first : null,
  replayed: s,
}));
"""


async def test_the_bots_opening_turn_replays_to_the_state_loaded(app, client) -> None:  # type: ignore[no-untyped-def]
    for variant, bot_wins in (("jackpot", False), ("classic", False), ("classic", True)):
        state = await bot_first_match(app, client, variant, bot_wins=bot_wins)
        assert state["seats"][1]["you"]
        assert state["status"] == ("finished" if bot_wins else "playing")
        past = await events_of(app, state["id"])
        got = node(REPLAY, {"state": state, "past": past, "me": 1})
        assert got["found"], variant
        assert got["before"] == ["started"]
        first = got["first"]
        assert first["status"] == "playing" and first["result"] is None
        assert first["turn"]["seat"] == 0 and first["turn"]["dice"] is None
        assert [s["total"] for s in first["seats"]] == [0, 0]
        # Played out from there, the bot's turn gives exactly the page's state.
        assert got["replayed"] == state


async def test_nothing_is_replayed_once_the_reader_moved(app, client) -> None:  # type: ignore[no-untyped-def]
    state = await bot_first_match(app, client, "jackpot", bot_wins=False)
    moved = (await client.post(f"/api/matches/{state['id']}/throw", json={})).json()
    past = await events_of(app, state["id"])
    got = node(REPLAY, {"state": moved, "past": past, "me": 1})
    assert not got["found"]
    # Nor for a visitor, nor where the reader throws first.
    got = node(REPLAY, {"state": state, "past": past[: state["seq"]], "me": -1})
    assert not got["found"]
    mine = (await client.post("/api/matches", json={"seats": 1, "bots": 0})).json()
    got = node(REPLAY, {"state": mine, "past": await events_of(app, mine["id"]), "me": 0})
    assert not got["found"]
