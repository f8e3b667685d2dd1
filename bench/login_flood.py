"""The owner's log-in while a crowd floods the password queue, with and without a device cookie.

    .venv/bin/python bench/login_flood.py --runs 5
    .venv/bin/python bench/login_flood.py --runs 5 --crowd accounts
    .venv/bin/python bench/login_flood.py --runs 5 --workers 2 \
        --database-url postgresql://postgres@127.0.0.1:5432/flood \
        --redis-url redis://127.0.0.1:6379/0

Starts ``jackpot serve`` (SQLite in a temporary directory; ``--database-url`` for
another database, ``--redis-url`` and ``--workers`` for several processes) believing
``X-Forwarded-For`` from 127.0.0.1, signs the owner up (which leaves a device
cookie) and logs out.

``--crowd addresses`` (the default): each run sends 300 wrong log-ins
for the owner's account at once, each from its own address (127.x.y.z, new ones
every run, so no per-address limit is reached), and as soon as the first of them is
answered 503 ``busy`` (the queue is full) the owner logs in with the right
password: from the browser that keeps the device cookie, or from a new one without
it. It prints the owner's answer and how long it took, how the flood was answered,
and the p99 of ``/api/health`` polled every 20 ms from the flood's start to its end.
The crowd runs in a process of its own, so its client's work does not count in the
owner's time (the machine's cores are still shared with it and the server).
``--crowd accounts``: 16 throw-away accounts, signed up before the runs, each with
its own device cookie; each run they log in to themselves with it, 4 at once each
(64 checks that all claim the known devices' lane), and half a second into that the
owner logs in from the browser with the device cookie.

Nothing is asserted: it is a measurement (tests/security/test_owner_lane.py holds
the behaviour).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx

PASSWORD = "a long owner's password, 2026"
OWNER = {"email": "owner@example.org", "password": PASSWORD}
WRONG = {"email": "owner@example.org", "password": "a wrong guess at it"}
CROWD = 300
#: Throw-away accounts of ``--crowd accounts``, and the log-ins each sends at once.
ACCOUNTS = 16
EACH = 4


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(
    var_dir: Path, database_url: str | None, port: int, redis_url: str | None, workers: int
) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "JACKPOT_VAR_DIR": str(var_dir),
        "JACKPOT_TRUSTED_PROXIES": "127.0.0.1",
        "JACKPOT_SWEEPER": "false",
        "JACKPOT_CONNECTIONS_PER_ADDRESS": "100000",
    }
    env.pop("DATABASE_URL", None)
    if database_url:
        env["DATABASE_URL"] = database_url
    if redis_url:
        env["JACKPOT_REDIS_URL"] = redis_url
    return subprocess.Popen(
        [sys.executable, "-m", "jackpot.cli", "serve", "--port", str(port),
         "--log-level", "warning", "--workers", str(workers)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


async def wait_up(url: str) -> None:
    async with httpx.AsyncClient() as c:
        for _ in range(1200):
            try:
                if (await c.get(url + "/api/health")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError("the server did not start")


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) >= 2 else values[0]


async def flood(url: str, run: int) -> None:
    """The crowd, run in a process of its own (``--flood``) so that its 300 requests
    do not slow the owner's client or the health poll: prints ``full`` at the first
    503, then the answers' counts."""
    limits = httpx.Limits(max_connections=CROWD + 10, max_keepalive_connections=0)
    answers: Counter[int] = Counter()
    async with httpx.AsyncClient(base_url=url, timeout=300, limits=limits) as crowd:

        async def wrong(i: int) -> None:
            # A new /16 every run: nobody's counts carry over between runs.
            xff = {"X-Forwarded-For": f"127.{run % 250 + 2}.{i // 250}.{i % 250 + 1}"}
            r = await crowd.post("/api/session", json=WRONG, headers=xff)
            if r.status_code == 503 and not answers[503]:
                print("full", flush=True)
            answers[r.status_code] += 1

        await asyncio.gather(*(wrong(i) for i in range(CROWD)))
    print(json.dumps(dict(sorted(answers.items()))), flush=True)


async def account_flood(url: str, run: int, cookies_file: str) -> None:
    """``--crowd accounts``' crowd: each throw-away account logs in to itself with its
    own device cookie, ``EACH`` at once, from a new address every run (no
    per-address limit is reached); prints ``full`` half a second in, then the counts."""
    accounts = json.loads(Path(cookies_file).read_text())
    limits = httpx.Limits(max_connections=ACCOUNTS * EACH + 10, max_keepalive_connections=0)
    answers: Counter[int] = Counter()
    async with httpx.AsyncClient(base_url=url, timeout=300, limits=limits) as crowd:

        async def log_in(i: int, k: int) -> None:
            email, cookie = accounts[i]
            xff = {"X-Forwarded-For": f"126.{run % 250 + 2}.{i}.{k + 1}",
                   "Cookie": f"jackpot_device={cookie}"}
            r = await crowd.post("/api/session", json={"email": email, "password": PASSWORD},
                                 headers=xff)
            answers[r.status_code] += 1

        async def signal() -> None:
            await asyncio.sleep(0.5)
            print("full", flush=True)

        await asyncio.gather(
            signal(), *(log_in(i, k) for i in range(len(accounts)) for k in range(EACH))
        )
    print(json.dumps(dict(sorted(answers.items()))), flush=True)


async def throw_away_accounts(url: str, cookies_file: Path) -> None:
    """``ACCOUNTS`` accounts, each signed up from its own address, with its device
    cookie, written to ``cookies_file`` for the crowd's process."""
    out = []
    for i in range(ACCOUNTS):
        async with httpx.AsyncClient(base_url=url, timeout=120) as c:
            email = f"throw{i}@example.org"
            r = await c.post(
                "/api/account", json={"email": email, "password": PASSWORD, "name": f"Throw{i}"},
                headers={"X-Forwarded-For": f"125.0.{i}.1"},
            )
            assert r.status_code == 201, r.text
            out.append((email, c.cookies["jackpot_device"]))
    cookies_file.write_text(json.dumps(out))


async def one_run(
    url: str, run: int, owner: httpx.AsyncClient, cookies_file: Path | None = None
) -> dict[str, object]:
    health: list[float] = []
    done = asyncio.Event()

    async def poll() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=60) as c:
            while not done.is_set():
                t0 = time.perf_counter()
                await c.get("/api/health")
                health.append(time.perf_counter() - t0)
                await asyncio.sleep(0.02)

    poller = asyncio.create_task(poll())
    started = time.perf_counter()
    extra = [] if cookies_file is None else ["--cookies", str(cookies_file)]
    crowd = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--flood", str(run), "--url", url, *extra,
        stdout=asyncio.subprocess.PIPE,
    )
    assert crowd.stdout is not None
    line = await asyncio.wait_for(crowd.stdout.readline(), 120)
    assert line.strip() == b"full", line
    t0 = time.perf_counter()
    r = await owner.post("/api/session", json=OWNER)
    took = time.perf_counter() - t0
    answers = json.loads(await crowd.stdout.readline())
    await crowd.wait()
    flood_took = time.perf_counter() - started
    done.set()
    await poller
    if r.status_code == 200:
        await owner.delete("/api/session")
    return {
        "status": r.status_code,
        "ms": took * 1000,
        "flood": answers,
        "flood_s": flood_took,
        "health_p99_ms": p99(health) * 1000,
        "health_n": len(health),
    }


async def main_async(args: argparse.Namespace) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        proc = start(Path(tmp), args.database_url, port, args.redis_url, args.workers)
        cookies_file = Path(tmp) / "crowd.json" if args.crowd == "accounts" else None
        try:
            await wait_up(url)
            if cookies_file is not None:
                await throw_away_accounts(url, cookies_file)
            async with httpx.AsyncClient(base_url=url, timeout=120) as known:
                r = await known.post("/api/account", json={**OWNER, "name": "Owner"})
                assert r.status_code == 201, r.text
                assert known.cookies.get("jackpot_device")
                await known.delete("/api/session")
                t0 = time.perf_counter()
                r = await known.post("/api/session", json=OWNER)
                quiet = (time.perf_counter() - t0) * 1000
                await known.delete("/api/session")
                print(f"owner's log-in with no flood: {r.status_code} in {quiet:.0f} ms")
                print(f"{'owner':<16} {'run':>3} {'answer':>6} {'time ms':>8} "
                      f"{'flood answers':<28} {'flood s':>7} {'health p99 ms':>13}")
                cases = ("device cookie",) if cookies_file else ("device cookie", "new browser")
                for run in range(args.runs):
                    for case in cases:
                        if case == "device cookie":
                            out = await one_run(url, 2 * run, known, cookies_file)
                        else:
                            async with httpx.AsyncClient(base_url=url, timeout=120) as fresh:
                                out = await one_run(url, 2 * run + 1, fresh)
                        print(f"{case:<16} {run + 1:>3} {out['status']:>6} {out['ms']:>8.0f} "
                              f"{out['flood']!s:<28} {out['flood_s']:>7.1f} "
                              f"{out['health_p99_ms']:>13.1f}")
        finally:
            proc.terminate()
            proc.wait(timeout=20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--database-url", help="default: SQLite in a temporary directory")
    parser.add_argument("--redis-url", help="JACKPOT_REDIS_URL for the server (default: none)")
    parser.add_argument("--workers", type=int, default=1, help="server processes")
    parser.add_argument("--crowd", choices=("addresses", "accounts"), default="addresses",
                        help="300 wrong log-ins from 300 addresses, or 16 throw-away "
                        "accounts logging in with their own device cookies")
    parser.add_argument("--flood", type=int, help=argparse.SUPPRESS)  # the crowd's process
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--cookies", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.flood is not None and args.cookies:
        asyncio.run(account_flood(args.url, args.flood, args.cookies))
    elif args.flood is not None:
        asyncio.run(flood(args.url, args.flood))
    else:
        asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
