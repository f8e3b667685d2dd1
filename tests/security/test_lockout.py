"""Issue 11 item 7: nobody can lock an owner out by failing on purpose.

The attack: five wrong passwords from any address made the owner's right password
answer 429 for a quarter of an hour. Now failures count per (account, address) and
per address; the owner at another address gets in; a wide attack from many
addresses only shrinks each address's allowance for that account.
"""

from __future__ import annotations

from jackpot.web.base.env_values import Rate

PASSWORD = "correct horse battery"
WRONG = {"email": "ana@example.org", "password": "wrong guess"}
RIGHT = {"email": "ana@example.org", "password": PASSWORD}


async def _owner(make_client):  # type: ignore[no-untyped-def]
    owner = await make_client()
    r = await owner.post("/api/account", json={"email": "ana@example.org", "password": PASSWORD,
                                               "name": "Ana"})
    assert r.status_code == 201
    return owner


async def test_failures_elsewhere_do_not_lock_the_owner_out(make_client) -> None:  # type: ignore[no-untyped-def]
    await _owner(make_client)
    attacker, owner_phone = await make_client(), await make_client()
    for _ in range(5):
        assert (await attacker.post("/api/session", json=WRONG)).status_code == 401
    # The attacker's address is done with this account, right password or not...
    r = await attacker.post("/api/session", json=RIGHT)
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_attempts"
    # ...the owner on another address is not.
    assert (await owner_phone.post("/api/session", json=RIGHT)).status_code == 200
    assert "try again in about 15 minutes" in r.json()["error"]["message"]


async def test_a_wide_attack_is_slowed_and_the_owner_still_gets_in(app_with) -> None:  # type: ignore[no-untyped-def]
    clients = await app_with(account_failure_ceiling=Rate(12, 3600))
    r = await clients("10.1.0.1").post("/api/account", json={
        "email": "ana@example.org", "password": PASSWORD, "name": "Ana"})
    assert r.status_code == 201
    # Twelve addresses, one wrong guess each: the account's ceiling is reached.
    for i in range(12):
        assert (await clients(f"10.2.0.{i}").post("/api/session", json=WRONG)).status_code == 401
    # From now on each address gets one wrong guess at this account, not five.
    fresh = clients("10.3.0.1")
    assert (await fresh.post("/api/session", json=WRONG)).status_code == 401
    assert (await fresh.post("/api/session", json=WRONG)).status_code == 429
    # The owner, at an address of their own, gets in at the first try.
    assert (await clients("10.4.0.1").post("/api/session", json=RIGHT)).status_code == 200


async def test_one_address_cannot_guess_across_many_accounts(make_client) -> None:  # type: ignore[no-untyped-def]
    attacker = await make_client()
    for i in range(20):
        r = await attacker.post("/api/session", json={"email": f"u{i}@example.org",
                                                     "password": "x" * 8})
        assert r.status_code == 401
    r = await attacker.post("/api/session", json={"email": "new@example.org", "password": "x" * 8})
    assert r.status_code == 429


async def test_wrong_current_passwords_are_limited_like_logins(make_client) -> None:  # type: ignore[no-untyped-def]
    owner = await _owner(make_client)
    change = {"password": "a brand new secret phrase", "current_password": "wrong guess"}
    codes = [(await owner.patch("/api/account", json=change)).status_code for _ in range(6)]
    assert codes == [403] * 5 + [429]
    # Even the right current password now waits; the account is unchanged.
    r = await owner.patch("/api/account", json={**change, "current_password": PASSWORD})
    assert r.status_code == 429
    other = await make_client()
    assert (await other.post("/api/session", json=RIGHT)).status_code == 200
