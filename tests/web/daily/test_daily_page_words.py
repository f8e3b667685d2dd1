"""What a new player read on the daily pages: each board region named by its variant
(axe's landmark-unique), a finished entry's state said, no speed of others' moves."""

from __future__ import annotations

import re
from typing import Any

from daily_helpers import deals_made, enter, play, player

HTML = {"accept": "text/html"}


async def test_the_boards_and_their_states_are_named(make_client: Any) -> None:
    ana = await player(make_client, "Ana")
    day = await deals_made(ana)
    for variant in ("jackpot", "classic"):
        await play(ana, await enter(ana, variant))
    page = (await ana.get("/daily", headers=HTML)).text
    labels = re.findall(r'role="region" aria-label="([^"]*)"', page)
    assert labels == ["Today's Jackpot board", "Today's Classic board"]
    states = re.findall(r'<td class="state">([^<]*)</td>', page)
    assert states == ["all turns played", "all turns played"]
    board = (await ana.get(f"/daily/{day}/jackpot", headers=HTML)).text
    [label] = re.findall(r'role="region" aria-label="([^"]*)"', board)
    assert label.startswith("The Jackpot board of ") and label != "The Jackpot board of "


async def test_alone_there_is_no_speed_of_others_moves(make_client: Any) -> None:
    ana = await player(make_client, "Ana")
    await deals_made(ana)
    daily = await enter(ana, "jackpot")
    practice = (await ana.post("/api/matches", json={"seats": 1, "bots": 0})).json()["id"]
    against = (await ana.post("/api/matches", json={"seats": 2, "bots": 1})).json()["id"]
    for match, shown in ((daily, False), (practice, False), (against, True)):
        page = (await ana.get(f"/matches/{match}", headers=HTML)).text
        assert ('id="speed"' in page) is shown, match
