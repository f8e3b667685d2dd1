"""Issue 11 item 2: argon2 off the event loop and outside the write transaction, and
sign-up, log-in and password changes limited per client address.

The attack: 50 sign-ups at once kept /api/health waiting 5.5 s and held SQLite's
writer, because each hash ran on the event loop inside the transaction. Here the
hash is held up on purpose (a stand-in that waits for a signal); while it waits,
the site must still answer and still write. On main the held hash stopped both.
"""

from __future__ import annotations

import asyncio
import threading

import argon2
import pytest
from sqlalchemy import select

from jackpot.web.base.hash_queue import Lane
from jackpot.web.base.passwords import Passwords
from jackpot.web.base.tables import core as t

PASSWORD = "correct horse battery"
#: Only a safety valve so a broken build fails instead of hanging; never reached
#: when the hash runs off the loop.
HOLD_AT_MOST = 10.0


@pytest.fixture
def held_hashes(monkeypatch: pytest.MonkeyPatch) -> dict[str, threading.Event]:
    """argon2's hash and verify wait until ``release`` is set (or the valve opens)."""
    state = {"release": threading.Event(), "entered": threading.Event(),
             "finished": threading.Event()}
    real_hash, real_verify = argon2.PasswordHasher.hash, argon2.PasswordHasher.verify

    def slow_hash(self, password, *args, **kwargs):  # type: ignore[no-untyped-def]
        state["entered"].set()
        state["release"].wait(HOLD_AT_MOST)
        state["finished"].set()
        return real_hash(self, password, *args, **kwargs)

    def slow_verify(self, hash, password):  # type: ignore[no-untyped-def]
        state["entered"].set()
        state["release"].wait(HOLD_AT_MOST)
        state["finished"].set()
        return real_verify(self, hash, password)

    monkeypatch.setattr(argon2.PasswordHasher, "hash", slow_hash)
    monkeypatch.setattr(argon2.PasswordHasher, "verify", slow_verify)
    return state


async def _while_held(held, slow, *quick):  # type: ignore[no-untyped-def]
    """Start ``slow`` (it reaches the held hash), run ``quick`` meanwhile; returns
    whether each quick one finished before the hash was let go."""
    task = asyncio.ensure_future(slow)
    while not held["entered"].is_set():
        await asyncio.sleep(0.01)
    done_while_held = []
    for q in quick:
        r = await q
        assert r.status_code < 300, r.text
        done_while_held.append(not held["finished"].is_set())
    held["release"].set()
    r = await task
    return r, done_while_held


@pytest.mark.real_password_cost
async def test_a_sign_up_hashing_stalls_neither_reads_nor_writes(make_client, held_hashes) -> None:  # type: ignore[no-untyped-def]
    signer, other = await make_client(), await make_client()
    r, done = await _while_held(
        held_hashes,
        signer.post("/api/account", json={"email": "a@example.org", "password": PASSWORD,
                                          "name": "Ana"}),
        other.get("/api/health"),
        # a guest and a bot match: two writes while the sign-up hashes
        other.post("/api/matches", json={"seats": 2, "bots": 1}),
    )
    assert r.status_code == 201, r.text
    assert done == [True, True]


@pytest.mark.real_password_cost
async def test_a_login_check_stalls_neither_reads_nor_writes(make_client, held_hashes) -> None:  # type: ignore[no-untyped-def]
    ana, other = await make_client(), await make_client()
    held_hashes["release"].set()
    r = await ana.post("/api/account", json={"email": "a@example.org", "password": PASSWORD,
                                             "name": "Ana"})
    assert r.status_code == 201
    for name in ("release", "entered", "finished"):
        held_hashes[name].clear()
    r, done = await _while_held(
        held_hashes,
        ana.post("/api/session", json={"email": "a@example.org", "password": PASSWORD}),
        other.get("/api/health"),
        other.post("/api/matches", json={"seats": 2, "bots": 1}),
    )
    assert r.status_code == 200, r.text
    assert done == [True, True]


async def test_sign_ups_are_limited_per_address(app_with) -> None:  # type: ignore[no-untyped-def]
    clients = await app_with()
    attacker = clients("10.9.9.9")
    codes = []
    for i in range(12):
        r = await attacker.post("/api/account", json={"email": f"s{i}@example.org",
                                                      "password": PASSWORD, "name": f"Spam{i}"})
        codes.append(r.status_code)
    assert codes[:10] == [201] * 10 and codes[10:] == [429, 429]
    assert r.json()["error"]["code"] == "too_many_attempts"
    assert "sign-ups" in r.json()["error"]["message"]
    r = await clients("10.9.9.10").post(
        "/api/account", json={"email": "ok@example.org", "password": PASSWORD, "name": "Fine"}
    )
    assert r.status_code == 201


async def test_log_ins_are_limited_per_address_even_when_right(app_with) -> None:  # type: ignore[no-untyped-def]
    clients = await app_with()
    c = clients("10.9.9.9")
    r = await c.post("/api/account", json={"email": "a@example.org", "password": PASSWORD,
                                           "name": "Ana"})
    assert r.status_code == 201
    codes = [
        (await c.post("/api/session", json={"email": "a@example.org", "password": PASSWORD}))
        .status_code
        for _ in range(31)
    ]
    assert codes[:30] == [200] * 30 and codes[30] == 429


@pytest.mark.real_password_cost
async def test_a_password_is_kept_as_argon2id_at_rfc_9106_s_cost(app, client) -> None:  # type: ignore[no-untyped-def]
    """The default settings (what production runs unless told) hash with RFC 9106's
    low-memory profile: argon2id, 64 MiB, 3 passes, 4 lanes."""
    r = await client.post("/api/account", json={"email": "a@example.org", "password": PASSWORD,
                                                "name": "Ana"})
    assert r.status_code == 201, r.text
    async with app.state.db.read() as conn:
        stored = (await conn.execute(
            select(t.users.c.password_hash).where(t.users.c.email == "a@example.org")
        )).scalar_one()
    assert stored.startswith("$argon2id$v=19$m=65536,t=3,p=4$"), stored
    r = await client.post("/api/session", json={"email": "a@example.org", "password": PASSWORD})
    assert r.status_code == 200, r.text


@pytest.mark.real_password_cost
async def test_a_hash_made_at_one_cost_is_checked_at_another() -> None:
    """Each hash carries its own parameters: lowering or raising the cost setting
    keeps every stored password working."""
    cheap, dear = Passwords(1, time_cost=1, memory_kib=32), Passwords(1)
    try:
        stored = await cheap.hash(PASSWORD, Lane("a"))
        assert stored.startswith("$argon2id$v=19$m=32,t=1,p=4$"), stored
        assert await dear.verify(stored, PASSWORD, Lane("a"))
        assert not await dear.verify(stored, PASSWORD + "!", Lane("a"))
        assert await cheap.verify(await dear.hash(PASSWORD, Lane("a")), PASSWORD, Lane("a"))
    finally:
        cheap.close()
        dear.close()
