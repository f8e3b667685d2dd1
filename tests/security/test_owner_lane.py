"""Issue 40 item 1: a crowd cannot push an account's owner out of the password queue.

The attack: 200 wrong log-ins, one from each of 200 addresses (127.1.x.y through a
trusted proxy), each under every per-address limit, filled the one hashing queue
(124 answered 503 ``busy``), and the owner's right password, from another address a
moment later, was answered 503 too. Now a log-in carrying a valid device cookie for
its account (left by every successful log-in and sign-up) waits in a lane of its
own, and strangers share the other lane per address.

The in-process tests hold every argon2 job until released, on one hashing thread,
so who waits where is exact; the last test floods a real server as the attack did.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any

import argon2
import httpx
import pytest
from mail_helpers import mails, reset_links
from sqlalchemy import select

from jackpot.web.base.errors import ApiError
from jackpot.web.base.hash_queue import HashQueue, Lane
from jackpot.web.base.tables import core as t
from jackpot.web.notify.resets import send_reset_mails

#: The suite turns argon2's cost down elsewhere; a queue of real hashes is the subject.
pytestmark = pytest.mark.real_password_cost

PASSWORD = "correct horse battery"
OWNER = {"email": "ana@example.org", "password": PASSWORD}
WRONG = {"email": "ana@example.org", "password": "not the password"}
HOLD_AT_MOST = 20.0  # a safety valve only: a broken build fails instead of hanging


# -- the queue itself --------------------------------------------------------------


async def test_strangers_get_a_fair_share_and_known_devices_go_first() -> None:
    queue = HashQueue(threads=1, queue=4, known_queue=2)
    order: list[str] = []
    release = asyncio.Event()

    async def job(lane: Lane, name: str) -> str:
        try:
            async with queue.turn(lane):
                order.append(name)
                await release.wait()
            return name
        except ApiError as exc:
            return f"{name}: {exc.status} {exc.code}"

    running = asyncio.create_task(job(Lane("x"), "x"))  # holds the only thread
    await asyncio.sleep(0)
    flood = [asyncio.create_task(job(Lane("a"), f"a{i}")) for i in range(4)]
    await asyncio.sleep(0)
    assert queue.unknown.count == 4
    # Full, and all of it one address's: newcomers push its newest out.
    others = [asyncio.create_task(job(Lane(k), k)) for k in ("b", "c", "d")]
    await asyncio.sleep(0)
    # Now a, b, c and d wait with one each: one more stranger is refused...
    late = asyncio.create_task(job(Lane("e"), "e"))
    # ...but the owner's known device still has its lane.
    owner = asyncio.create_task(job(Lane("account:ana", known=True), "owner"))
    await asyncio.sleep(0)
    assert await late == "e: 503 busy"
    assert [await t for t in flood[1:]] == [f"a{i}: 503 busy" for i in (3, 2, 1)][::-1]
    release.set()
    assert await running == "x"
    assert await owner == "owner"
    assert [await t for t in (flood[0], *others)] == ["a0", "b", "c", "d"]
    # The owner went first, then one job per address in turn.
    assert order == ["x", "owner", "a0", "b", "c", "d"]
    assert queue.running == 0 and queue.unknown.count == queue.known.count == 0


# -- through the site, with the hashing held ------------------------------------------


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """argon2 waits until the event is set (sign-up hashes go through first)."""
    release = threading.Event()
    real_hash, real_verify = argon2.PasswordHasher.hash, argon2.PasswordHasher.verify

    def slow_verify(self, hash, password):  # type: ignore[no-untyped-def]
        release.wait(HOLD_AT_MOST)
        return real_verify(self, hash, password)

    monkeypatch.setattr(argon2.PasswordHasher, "hash", real_hash)
    monkeypatch.setattr(argon2.PasswordHasher, "verify", slow_verify)
    return release


async def _full(app: Any, waiting: int) -> None:
    """Until ``waiting`` strangers' checks wait behind the held one."""
    queue = app.state.passwords.queue
    for _ in range(500):
        if queue.running == 1 and queue.unknown.count == waiting:
            return
        await asyncio.sleep(0.01)
    raise AssertionError((queue.running, queue.unknown.count))


async def _known_waiting(app: Any, count: int) -> None:
    """Until ``count`` checks wait in the known devices' lane (a loaded machine may
    take a while to bring a request there)."""
    queue = app.state.passwords.queue
    for _ in range(500):
        if queue.known.count == count:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(queue.known.count)


async def test_the_owners_device_gets_in_while_strangers_fill_the_queue(  # type: ignore[no-untyped-def]
    app_with, held
) -> None:
    clients = await app_with(hash_threads=1, hash_queue=3)
    owner = clients("10.0.0.1")
    held.set()
    r = await owner.post("/api/account", json={**OWNER, "name": "Ana"})
    assert r.status_code == 201
    assert owner.cookies.get("jackpot_device")  # set at sign-up
    assert (await owner.delete("/api/session")).status_code == 200
    assert owner.cookies.get("jackpot_device") and not owner.cookies.get("jackpot_session")
    held.clear()
    app = owner._transport.app
    # Four strangers, one wrong guess each: one checks (held), three wait: full.
    flood = [asyncio.ensure_future(clients(f"10.9.0.{i}").post("/api/session", json=WRONG))
             for i in range(4)]
    await _full(app, 3)
    # A fifth stranger, and the owner on a new device, find no room.
    r = await clients("10.8.0.1").post("/api/session", json=WRONG)
    assert r.status_code == 503 and r.json()["error"]["code"] == "busy"
    new_phone = clients("10.7.0.1")
    assert (await new_phone.post("/api/session", json=OWNER)).status_code == 503
    # The owner's browser, logged out but known, waits in its own lane and gets in.
    mine = asyncio.ensure_future(owner.post("/api/session", json=OWNER))
    await _known_waiting(app, 1)
    held.set()
    r = await mine
    assert r.status_code == 200, r.text
    assert [x.status_code for x in await asyncio.gather(*flood)] == [401] * 4
    # It kept its device cookie: no new one for a browser already known.
    assert "jackpot_device" not in r.headers.get("set-cookie", "")


async def test_a_password_change_revokes_the_other_devices(app_with, held) -> None:  # type: ignore[no-untyped-def]
    clients = await app_with(hash_threads=1, hash_queue=1)
    held.set()
    laptop, phone = clients("10.0.0.1"), clients("10.0.0.2")
    assert (await laptop.post("/api/account", json={**OWNER, "name": "Ana"})).status_code == 201
    assert (await phone.post("/api/session", json=OWNER)).status_code == 200
    old_phone_cookie = phone.cookies["jackpot_device"]
    old_laptop_cookie = laptop.cookies["jackpot_device"]
    new = "a different long secret phrase"
    r = await laptop.patch("/api/account", json={"password": new, "current_password": PASSWORD})
    assert r.status_code == 200, r.text
    assert laptop.cookies["jackpot_device"] != old_laptop_cookie  # this browser's is new
    # The phone's device cookie no longer counts: under a flood it waits with strangers.
    held.clear()
    app = laptop._transport.app
    flood = [asyncio.ensure_future(clients(f"10.9.0.{i}").post("/api/session", json=WRONG))
             for i in range(2)]
    await _full(app, 1)
    stale = clients("10.0.0.2")
    stale.cookies.set("jackpot_device", old_phone_cookie)
    r = await stale.post("/api/session", json={**OWNER, "password": new})
    assert r.status_code == 503
    mine = asyncio.ensure_future(laptop.post("/api/session", json={**OWNER, "password": new}))
    await asyncio.sleep(0.1)
    held.set()
    assert (await mine).status_code == 200
    await asyncio.gather(*flood)


async def test_a_reset_revokes_device_cookies_and_gives_one_to_its_browser(  # type: ignore[no-untyped-def]
    app_with, held
) -> None:
    clients = await app_with()
    held.set()
    owner = clients("10.0.0.1")
    assert (await owner.post("/api/account", json={**OWNER, "name": "Ana"})).status_code == 201
    app = owner._transport.app
    async with app.state.db.read() as conn:
        kinds = (await conn.execute(select(t.credentials.c.kind))).scalars().all()
    assert sorted(kinds) == ["device", "session"]
    r = await owner.post("/api/password-reset", json={"email": OWNER["email"]})
    assert r.status_code == 202
    await send_reset_mails(app.state.db, app.state.settings)
    [link] = reset_links(mails(app.state.settings.outbox_dir))
    other = clients("10.0.0.5")
    r = await other.post("/api/password-reset/confirm",
                         json={"token": link.rsplit("/", 1)[1], "password": "yet another phrase"})
    assert r.status_code == 200, r.text
    assert other.cookies.get("jackpot_device")
    async with app.state.db.read() as conn:
        rows = (await conn.execute(select(t.credentials.c.kind))).scalars().all()
    assert sorted(rows) == ["device", "session"]  # the reset browser's, nothing older


# -- a real server under the attack's flood ---------------------------------------------


async def test_a_flood_from_300_addresses_does_not_lock_the_owner_out(serve) -> None:  # type: ignore[no-untyped-def]
    # A minute for a request's head: a machine busy with the crowd may take long to
    # read the owner's (the deadline against slow clients is not this test's subject).
    site = serve(JACKPOT_TRUSTED_PROXIES="127.0.0.1", JACKPOT_HASH_THREADS="1",
                 JACKPOT_HASH_QUEUE="16", JACKPOT_HEADER_SECONDS="60")
    # A new connection per request: an idle one may be closed by the server's header
    # deadline while the flood builds up.
    fresh = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=site.url, timeout=60, limits=fresh) as owner:
        r = await owner.post("/api/account", json={**OWNER, "name": "Ana"})
        assert r.status_code == 201
        await owner.delete("/api/session")
        limits = httpx.Limits(max_connections=400, max_keepalive_connections=400)
        async with httpx.AsyncClient(base_url=site.url, timeout=60, limits=limits) as crowd:
            busy = asyncio.Event()
            stop = asyncio.Event()
            codes: list[int] = []

            async def attacker(i: int) -> None:
                """One wrong log-in, then another every few seconds (the queue stays
                full, as with the attack's 20 a second; a tight loop of 300 clients
                would flood the server itself, which is not this test's subject)."""
                xff = {"X-Forwarded-For": f"127.1.{i // 250}.{i % 250 + 1}"}
                while not stop.is_set():
                    r = await crowd.post("/api/session", json=WRONG, headers=xff)
                    codes.append(r.status_code)
                    if r.status_code == 503:
                        busy.set()
                    if r.status_code == 429:
                        return
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stop.wait(), 3)

            flood = [asyncio.create_task(attacker(i)) for i in range(300)]
            await asyncio.wait_for(busy.wait(), 60)  # the queue is full now
            r = await owner.post("/api/session", json=OWNER)
            stop.set()
            await asyncio.gather(*flood)
    assert r.status_code == 200, r.text
    assert codes.count(503) > 0 and codes.count(401) > 0


async def test_strangers_at_the_owners_address_do_not_lock_out_the_owners_device(  # type: ignore[no-untyped-def]
    app_with, held
) -> None:
    """One address shared with an attacker (a NAT): five wrong guesses there used to
    shut that address out of the account for a quarter of an hour, the owner's
    right password included. The device cookie is counted on its own."""
    held.set()
    clients = await app_with()
    owner = clients("10.0.0.1")
    assert (await owner.post("/api/account", json={**OWNER, "name": "Ana"})).status_code == 201
    await owner.delete("/api/session")
    neighbour = clients("10.0.0.1")
    codes = [(await neighbour.post("/api/session", json=WRONG)).status_code for _ in range(6)]
    assert codes == [401] * 5 + [429]
    assert (await clients("10.0.0.1").post("/api/session", json=OWNER)).status_code == 429
    assert (await owner.post("/api/session", json=OWNER)).status_code == 200
    # A stolen device cookie buys no more guesses than its address had.
    thief = clients("10.0.0.2")
    thief.cookies.set("jackpot_device", owner.cookies["jackpot_device"])
    codes = [(await thief.post("/api/session", json=WRONG)).status_code for _ in range(6)]
    assert codes == [401] * 5 + [429]


# -- a 503 is not a wrong password ---------------------------------------------------


async def test_busy_answers_count_as_no_wrong_password(app_with, held) -> None:  # type: ignore[no-untyped-def]
    """Six right passwords answered 503 ``busy`` while the queue was full used to
    count as six wrong ones: the owner's next try, the queue free, got 15 minutes
    of 429. Nor do five 503s spend a device cookie: it still has its lane after."""
    clients = await app_with(hash_threads=1, hash_queue=1, hash_known_queue=1)
    held.set()
    owner = clients("10.0.0.1")
    assert (await owner.post("/api/account", json={**OWNER, "name": "Ana"})).status_code == 201
    await owner.delete("/api/session")
    app = owner._transport.app
    held.clear()
    # One stranger's check holds the thread, a second fills the strangers' lane.
    flood = [asyncio.ensure_future(clients(f"10.9.0.{i}").post("/api/session", json=WRONG))
             for i in range(2)]
    await _full(app, 1)
    new_phone = clients("10.7.0.1")
    for _ in range(6):
        r = await new_phone.post("/api/session", json=OWNER)
        assert r.status_code == 503 and r.json()["error"]["code"] == "busy", r.text
    # The owner's browser: one check waits in the known lane, five more find it full.
    first = asyncio.ensure_future(owner.post("/api/session", json=OWNER))
    await _known_waiting(app, 1)
    for _ in range(5):
        r = await owner.post("/api/session", json=OWNER)
        assert r.status_code == 503 and r.json()["error"]["code"] == "busy", r.text
    held.set()
    assert (await first).status_code == 200
    await asyncio.gather(*flood)
    # The new browser's six 503s were no wrong passwords: it gets in now.
    r = await new_phone.post("/api/session", json=OWNER)
    assert r.status_code == 200, r.text
    # And the device cookie is still known: with the strangers' lane full again it
    # waits in its own and gets in.
    await owner.delete("/api/session")
    held.clear()
    flood = [asyncio.ensure_future(clients(f"10.9.1.{i}").post("/api/session", json=WRONG))
             for i in range(2)]
    await _full(app, 1)
    mine = asyncio.ensure_future(owner.post("/api/session", json=OWNER))
    await _known_waiting(app, 1)
    held.set()
    assert (await mine).status_code == 200
    await asyncio.gather(*flood)


# -- throw-away accounts with their own device cookies -------------------------------


async def test_the_lightest_account_goes_first_and_pushes_out_the_heaviest() -> None:
    queue = HashQueue(threads=1, queue=4, known_queue=3)
    release = asyncio.Event()
    order: list[str] = []

    async def job(lane: Lane, name: str) -> str:
        try:
            async with queue.turn(lane):
                order.append(name)
                await release.wait()
            return name
        except ApiError as exc:
            return f"{name}: {exc.status} {exc.code}"

    running = asyncio.create_task(job(Lane("x"), "x"))
    await asyncio.sleep(0)
    # Three throw-away accounts that logged in again and again fill the known lane.
    crowd = [asyncio.create_task(job(Lane(f"account:t{i}", True, weight=5 + i), f"t{i}"))
             for i in range(3)]
    await asyncio.sleep(0)
    # Another as heavy as the heaviest finds no room...
    late = asyncio.create_task(job(Lane("account:t9", True, weight=7), "t9"))
    # ...the owner, who logs in now and then, pushes the heaviest out and goes first.
    owner = asyncio.create_task(job(Lane("account:ana", True, weight=1), "owner"))
    await asyncio.sleep(0)
    assert await late == "t9: 503 busy"
    assert await crowd[2] == "t2: 503 busy"
    release.set()
    assert await owner == "owner"
    await asyncio.gather(running, *crowd[:2])
    assert order == ["x", "owner", "t0", "t1"]


async def test_known_devices_cannot_starve_the_strangers() -> None:
    """Both lanes waiting: the threads go to them in turn, where known devices used to
    take every one while any waited."""
    queue = HashQueue(threads=1, queue=8, known_queue=8)
    release = asyncio.Event()
    order: list[str] = []

    async def job(lane: Lane, name: str) -> None:
        async with queue.turn(lane):
            order.append(name)
            await release.wait()

    running = asyncio.create_task(job(Lane("x"), "x"))
    await asyncio.sleep(0)
    tasks = [asyncio.create_task(job(Lane(f"account:t{i}", True, weight=1), f"k{i}"))
             for i in range(4)]
    tasks += [asyncio.create_task(job(Lane(f"10.0.0.{i}"), f"s{i}")) for i in range(2)]
    await asyncio.sleep(0)
    release.set()
    await asyncio.gather(running, *tasks)
    assert order == ["x", "k0", "s0", "k1", "s1", "k2", "k3"]


async def test_sixteen_throw_away_accounts_do_not_lock_the_owner_out(app_with, held) -> None:  # type: ignore[no-untyped-def]
    """The attack: throw-away accounts, each logging in to itself with its own
    device cookie, filled the known lane, and the owner's browser got 503 ``busy``.
    Each account's checks there are counted (JACKPOT_KNOWN_LANE_LIMIT): those that
    come again and again weigh more than the owner's, who goes first."""
    clients = await app_with(hash_threads=1, hash_queue=4, hash_known_queue=4)
    held.set()
    owner = clients("10.0.0.1")
    assert (await owner.post("/api/account", json={**OWNER, "name": "Ana"})).status_code == 201
    await owner.delete("/api/session")
    crowd = []
    for i in range(16):
        c = clients(f"10.3.{i}.1")
        me = {"email": f"t{i}@example.org", "password": PASSWORD}
        assert (await c.post("/api/account", json={**me, "name": f"Throw{i}"})).status_code == 201
        for _ in range(3):  # they keep logging in
            assert (await c.post("/api/session", json=me)).status_code == 200
        crowd.append((c, me))
    app = owner._transport.app
    held.clear()
    stranger = asyncio.ensure_future(clients("10.9.9.9").post("/api/session", json=WRONG))
    await _full(app, 0)
    # One more log-in each, all at once: the known lane fills, the rest get 503.
    flood = [asyncio.ensure_future(c.post("/api/session", json=me)) for c, me in crowd]
    await _known_waiting(app, 4)
    mine = asyncio.ensure_future(owner.post("/api/session", json=OWNER))
    for _ in range(500):
        if any(w[2] == "account:ana@example.org"
               for w in app.state.passwords.queue.known.waiting):
            break
        await asyncio.sleep(0.01)
    else:
        raise AssertionError("the owner's check never reached the known lane")
    held.set()
    r = await mine
    assert r.status_code == 200, r.text
    codes = [x.status_code for x in await asyncio.gather(*flood)]
    assert codes.count(200) == 4 - 1 and codes.count(503) == 16 - 3
    await stranger
