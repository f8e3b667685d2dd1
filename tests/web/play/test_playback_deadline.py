"""The clock starts when the person can act: a throw that becomes due after bots (or
autoplay) moved is due its deadline plus the time the person's page takes to play
those moves out, counted from the events the page was sent. The deadline enforced,
the one shown, and the one the turn notice (mail and push) carries are that one."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from test_deadlines import _names
from web_helpers import join_in_joining_order, move, sign_up

from jackpot.web.base.clock import utcnow
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.notify import notices
from jackpot.web.matches.playback import PACE_COVER_MS, PACE_THROW_MS, SLOWEST, playback_ms
from jackpot.web.play.sweeper import sweep_once

DEADLINE = 60


def when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


async def sent_events(app: Any, match_id: str, after: int = 0) -> list[dict[str, Any]]:
    """The live events of the match after ``after``: what every page of it was sent."""
    async with app.state.db.read() as conn:
        rows = await conn.execute(
            select(t.match_events.c.data)
            .where(t.match_events.c.match_id == match_id, t.match_events.c.seq > after)
            .order_by(t.match_events.c.seq)
        )
        return [json.loads(d) for d in rows.scalars()]


async def match_times(app: Any, match_id: str) -> tuple[datetime, datetime]:
    async with app.state.db.read() as conn:
        row = (
            await conn.execute(
                select(t.matches.c.started_at, t.matches.c.due_at).where(t.matches.c.id == match_id)
            )
        ).one()
        return row.started_at, row.due_at


def by_hand(events: list[dict[str, Any]], me: int) -> int:
    """The playback the page gives ``events`` at its slowest, counted here without the
    module: each throw and cover of another seat, and each throw that reached nothing."""
    throws = sum(
        1 for e in events if e["type"] == "thrown" and (e["seat"] != me or not e["options"])
    )
    covers = sum(1 for e in events if e["type"] == "covered" and e["seat"] != me)
    return SLOWEST * (throws * PACE_THROW_MS + covers * PACE_COVER_MS)


async def bot_first(client: httpx.AsyncClient, variant: str) -> dict[str, Any]:
    """A match against the bot where the seeds drew the bot to throw first and it did
    not end the match on that turn."""
    for _ in range(60):
        state = (
            await client.post(
                "/api/matches",
                json={"variant": variant, "seats": 2, "bots": 1, "deadline_seconds": DEADLINE},
            )
        ).json()
        if state["seats"][1]["you"] and state["status"] == "playing":
            return state
        await client.post(f"/api/matches/{state['id']}/resign")  # within the guest's cap
    raise AssertionError("the bot never threw first")


async def test_the_first_deadline_waits_for_the_bots_opening_turn(app, client) -> None:  # type: ignore[no-untyped-def]
    for variant in ("jackpot", "classic"):
        state = await bot_first(client, variant)
        events = await sent_events(app, state["id"])
        assert [e["type"] for e in events][:2] == ["started", "thrown"]
        played = by_hand(events, 1)
        assert played == playback_ms(events, 1) > 0
        started_at, due_at = await match_times(app, state["id"])
        assert due_at == started_at + timedelta(seconds=DEADLINE, milliseconds=played)
        # The page is shown that deadline, in the state and in the last event it was sent.
        assert state["turn"]["due_at"] == events[-1]["due_at"]
        assert when(state["turn"]["due_at"]) == due_at.replace(microsecond=0)


async def test_each_later_bot_turn_is_added_to_the_next_deadline(app, client) -> None:  # type: ignore[no-untyped-def]
    checked = 0
    for _ in range(10):
        state = (
            await client.post(
                "/api/matches",
                json={"variant": "jackpot", "seats": 2, "bots": 1, "deadline_seconds": DEADLINE},
            )
        ).json()
        me = next(i for i, s in enumerate(state["seats"]) if s["you"])
        while state["status"] == "playing" and checked < 3:
            before_seq, before = state["seq"], utcnow()
            r = await move(client, state)
            after = utcnow()
            state = r.json()
            events = await sent_events(app, state["id"], before_seq)
            if state["status"] != "playing" or not any(e.get("seat") == 1 - me for e in events):
                continue  # my own throw or cover: the bot did not move
            checked += 1
            played = by_hand(events, me)
            assert played == playback_ms(events, me) > 0
            _, due_at = await match_times(app, state["id"])
            extra = timedelta(seconds=DEADLINE, milliseconds=played)
            assert before + extra <= due_at <= after + extra
        if checked >= 3:
            break
        await client.post(f"/api/matches/{state['id']}/resign")
    assert checked >= 3


async def test_the_sweeper_waits_for_the_playback_too(app, client) -> None:  # type: ignore[no-untyped-def]
    state = await bot_first(client, "classic")
    _, due_at = await match_times(app, state["id"])
    events = await sent_events(app, state["id"])
    # Past the bare deadline after the start, the person is still in: the bot's turn
    # took the page a while to show.
    assert await sweep_once(app.state.db, due_at - timedelta(milliseconds=1)) == 0
    assert playback_ms(events, 1) >= PACE_THROW_MS
    assert await sweep_once(app.state.db, due_at) == 1


async def test_the_turn_notice_carries_the_same_deadline(app, make_client) -> None:  # type: ignore[no-untyped-def]
    """Between two people and a bot, the person after the bot is mailed and pushed
    the deadline the bot's playback put off."""
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, f"Pace{next(_names)}")
    await sign_up(ben, f"Pace{next(_names)}")
    body = {"seats": 3, "bots": 1, "deadline_seconds": 3600, "variant": "jackpot"}
    seen = 0
    # A jackpot in the first round ends the match before the bot's turn leads anywhere:
    # then another match.
    for _ in range(10):
        # Seats in joining order: Ana, Ben, then the bot, whose turn comes before Ana's.
        state = (await ana.post("/api/matches", json=body)).json()
        state = (await join_in_joining_order(ben, state["id"])).json()
        assert state["seats"][2]["bot"]
        seen += await check_turn_after_the_bot(app, {0: ana, 1: ben}, state)
        if seen:
            break
    assert seen == 1


async def check_turn_after_the_bot(app: Any, clients: dict[int, Any], state: dict[str, Any]) -> int:
    """Play until the bot's turn hands the throw to a person; check that person's turn
    notice (1), or 0 if the match ended first."""
    while state["status"] == "playing":
        before_seq = state["seq"]
        state = (await move(clients[state["turn"]["seat"]], state)).json()
        events = await sent_events(app, state["id"], before_seq)
        if state["status"] != "playing" or not any(
            e["type"] == "thrown" and e["seat"] == 2 for e in events
        ):
            continue
        due_seat = state["turn"]["seat"]
        _, due_at = await match_times(app, state["id"])
        async with app.state.db.read() as conn:
            rows = (
                await conn.execute(
                    select(notices.c.kind, notices.c.due_at).where(
                        notices.c.match_id == state["id"],
                        notices.c.seat == due_seat,
                        notices.c.kind == "turn",
                        notices.c.round == state["round"],
                    )
                )
            ).all()
        assert [r.due_at for r in rows] == [due_at]
        assert playback_ms(events, due_seat) >= PACE_THROW_MS
        return 1
    return 0


async def test_a_quick_persons_moves_all_wait_for_the_next_page(
    app: Any, make_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between people each move is an action of its own: when Ben's quick turn hands
    the throw to Ana, her clock starts once her page, at its slowest, has shown every
    one of his moves since she last acted, not his last alone."""
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, f"Pace{next(_names)}")
    await sign_up(ben, f"Pace{next(_names)}")
    body = {"seats": 2, "bots": 0, "deadline_seconds": DEADLINE, "variant": "jackpot"}
    # Every move at one instant: what the clock adds is the playback alone.
    frozen = utcnow() + timedelta(seconds=1)
    for module in ("jackpot.web.play.actions", "jackpot.web.play.transaction"):
        monkeypatch.setattr(f"{module}.utcnow", lambda: frozen)
    clients, checked = {0: ana, 1: ben}, 0
    for _ in range(5):  # a jackpot may end a match before two turns passed
        state = (await ana.post("/api/matches", json=body)).json()
        state = (await join_in_joining_order(ben, state["id"])).json()
        #: The seq before each seat's last action: its page was at the present then.
        last_acted = {0: state["seq"], 1: state["seq"]}
        while state["status"] == "playing" and checked < 2:
            seat, before = state["turn"]["seat"], state["seq"]
            state = (await move(clients[seat], state)).json()
            last_acted[seat] = before
            due = state["turn"]["seat"] if state["status"] == "playing" else None
            if due is None or due == seat or state["turn"]["dice"] is not None:
                continue
            # The turn passed: the new seat's page has what followed its own last
            # action (its own throw that reached nothing is shown there too).
            played = playback_ms(await sent_events(app, state["id"], last_acted[due]), due)
            if played <= playback_ms(await sent_events(app, state["id"], before), due):
                continue  # nothing before the last action: no backlog
            _, due_at = await match_times(app, state["id"])
            assert due_at == frozen + timedelta(seconds=DEADLINE, milliseconds=played)
            checked += 1
        if checked == 2:
            break
        if state["status"] == "playing":
            await ana.post(f"/api/matches/{state['id']}/resign")
    assert checked == 2
