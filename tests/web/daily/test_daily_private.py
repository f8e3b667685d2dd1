"""A daily entry is its player's alone until the day ends (everyone else plays the same
dice), and only an account with a confirmed address may enter."""

from __future__ import annotations

import pytest
from daily_helpers import db_of, deals_made, enter, play, player
from web_helpers import sign_up

from jackpot.web.daily.close import close_days
from jackpot.web.daily.deals import closes_at

pytestmark = pytest.mark.pg


def paths(mid: str) -> list[str]:
    return [
        f"/api/matches/{mid}",
        f"/api/matches/{mid}/record",
        f"/api/matches/{mid}/seats",
        f"/api/matches/{mid}/said",
        f"/api/matches/{mid}/watching",
        f"/api/matches/{mid}/events",
        f"/api/matches/{mid}/odds",
        f"/matches/{mid}",
        f"/matches/{mid}/replay",
    ]


async def test_another_account_cannot_read_an_entry_during_its_day(app, make_client, clock) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await player(make_client), await player(make_client)
    nobody = await make_client()
    day = await deals_made(ana)
    mid = await enter(ana)
    await play(ana, mid, turns=2)
    # Its player reads it; another account, or nobody signed in, is told there is no
    # such match, exactly as for an id that does not exist.
    assert (await ana.get(f"/api/matches/{mid}/record")).status_code == 200
    assert (await ana.get(f"/matches/{mid}")).status_code == 200
    unknown = (await ben.get("/api/matches/m_0000000000000000")).json()
    for reader in (ben, nobody):
        for path in paths(mid):
            r = await reader.get(path)
            assert r.status_code == 404, (path, r.status_code)
            if path.startswith("/api/matches/") and path.count("/") == 3:
                assert r.json()["error"]["code"] == unknown["error"]["code"] == "not_found"
        # Nor may anyone else move in it.
        moved = await reader.post(f"/api/matches/{mid}/throw", json={})
        assert moved.status_code in (401, 403, 404)
    await play(ana, mid)
    assert (await ben.get(f"/api/matches/{mid}/record")).status_code == 404
    # Once the day has ended, anybody may read it, its seed and its replay.
    clock(closes_at(day))
    await close_days(db_of(ana), closes_at(day))
    record = await ben.get(f"/api/matches/{mid}/record")
    assert record.status_code == 200 and record.json()["server_seed"] is not None
    assert (await nobody.get(f"/matches/{mid}/replay")).status_code == 200


async def test_only_a_confirmed_address_may_enter(app, make_client) -> None:  # type: ignore[no-untyped-def]
    cy = await make_client()
    await sign_up(cy, "Cy", confirmed=False)
    await deals_made(cy)
    r = await cy.post("/api/daily/jackpot")
    assert r.status_code == 403, r.text
    error = r.json()["error"]
    assert error["code"] == "email_unconfirmed"
    assert "/account#confirm-email" in error["message"]
    # Nothing was made: the board has no entry of Cy's.
    mine = (await cy.get("/api/my/matches")).json()
    assert mine["matches"] == []
