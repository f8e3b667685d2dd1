"""Limits without Redis: a flood of fresh counter keys never makes a process forget a
lockout before it ends. LocalCounters keeps at most MAX_KEYS, and when full used to
drop the half whose windows end soonest, lockouts included: 100,000 new addresses
undid every account's and address's lockout."""

from __future__ import annotations

import pytest

from jackpot.web.base.limits import LocalCounters

WRONG = {"email": "ana@example.org", "password": "not the password"}
PASSWORD = "correct horse battery"


async def test_a_flood_of_fresh_keys_drops_no_lockout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LocalCounters, "MAX_KEYS", 100)
    counters = LocalCounters()
    for _ in range(5):
        await counters.hit("fail:ana|10.0.0.1", 60, 5)  # locked out: 5 of 5
    await counters.hit("fail:ben|10.0.0.1", 600, 5)  # one wrong guess: no lockout
    for i in range(1000):
        await counters.hit(f"login:10.1.{i // 250}.{i % 250}", 900, 30)
    assert (await counters.peek("fail:ana|10.0.0.1"))[0] == 5
    assert len(counters._counts) <= 100  # still bounded by the keys nobody is locked out by


async def test_the_site_keeps_a_lockout_through_a_flood_of_addresses(  # type: ignore[no-untyped-def]
    app_with, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(LocalCounters, "MAX_KEYS", 60)
    clients = await app_with()
    owner = clients("10.0.0.1")
    r = await owner.post("/api/account",
                         json={"email": "ana@example.org", "password": PASSWORD, "name": "Ana"})
    assert r.status_code == 201
    guesser = clients("10.5.0.1")
    codes = [(await guesser.post("/api/session", json=WRONG)).status_code for _ in range(6)]
    assert codes == [401] * 5 + [429]
    # Fresh keys from many addresses: each log-in counts its address.
    for i in range(150):
        await clients(f"10.6.{i // 250}.{i % 250 + 1}").post("/api/session", json={
            "email": f"nobody{i}@example.org", "password": "whatever it is"})
    r = await guesser.post("/api/session", json=WRONG)
    assert r.status_code == 429, r.text
