"""A daily entry played to its end, on the pages that list a player's matches."""

from __future__ import annotations

from typing import Any

from daily_helpers import deals_made, enter, play, player


async def test_a_finished_entry_is_listed_in_my_matches(app: Any, make_client: Any) -> None:
    ana = await player(make_client)
    await deals_made(ana)
    mid = await enter(ana)
    done = await play(ana, mid)
    assert done["status"] == "finished" and "shut" not in done["result"]
    r = await ana.get("/my", headers={"accept": "text/html"})
    assert r.status_code == 200 and f'href="/matches/{mid}"' in r.text
    r = await ana.get("/api/my/matches")
    assert r.status_code == 200, r.text
