"""Renaming an account is limited: so many name changes a day per account
(JACKPOT_RENAME_LIMIT), and each answer, which says whether a name is taken as a
sign-up's does, counts as a name looked up from the address (JACKPOT_NAME_LOOKUP_LIMIT).
Without both, renaming again and again ran a dictionary of names past the
name-lookup limit, and confirmed players who keep their profile hidden."""

from __future__ import annotations

import dataclasses

from web_helpers import sign_up

from jackpot.web.base.env_values import Rate


async def test_renames_per_account_are_limited(app, make_client) -> None:  # type: ignore[no-untyped-def]
    app.state.settings = dataclasses.replace(app.state.settings, rename_limit=Rate(3, 86400))
    ana = await make_client()
    await sign_up(ana, "Ana")
    codes = [
        (await ana.patch("/api/account", json={"name": f"Ana{i}"})).status_code
        for i in range(4)
    ]
    assert codes == [200, 200, 200, 429]
    r = await ana.patch("/api/account", json={"name": "Anabel"})
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_attempts"
    assert (await ana.get("/api/account")).json()["name"] == "Ana2"


async def test_taken_names_cost_name_lookups(app, make_client) -> None:  # type: ignore[no-untyped-def]
    app.state.settings = dataclasses.replace(
        app.state.settings, name_lookup_limit=Rate(3, 3600), rename_limit=Rate(100, 86400)
    )
    hidden = await make_client()
    await sign_up(hidden, "Hidden")
    await hidden.patch("/api/account", json={"leaderboard": False})
    prober = await make_client()
    await sign_up(prober, "Prober")
    answers = [
        (await prober.patch("/api/account", json={"name": name})).status_code
        for name in ("Hidden", "Nobody", "Someone", "Hidden")
    ]
    assert answers == [409, 200, 200, 429]
