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


async def test_a_deal_still_to_come_is_shown_by_its_commitment_alone(
    app: Any, make_client: Any
) -> None:
    ana = await player(make_client)
    await deals_made(ana)
    ahead = (await ana.get("/api/daily")).json()["next"][0]
    page = await ana.get(
        f"/daily/{ahead['date']}/{ahead['variant']}", headers={"accept": "text/html"}
    )
    assert page.status_code == 200
    assert 'id="deal-ahead"' in page.text and ahead["commitment"] in page.text
    assert "keep the dice to yourself" not in page.text
    today = (await ana.get("/api/daily")).json()["date"]
    page = await ana.get(f"/daily/{today}/jackpot", headers={"accept": "text/html"})
    assert 'id="deal-ahead"' not in page.text and "keep the dice to yourself" in page.text
