"""Several `jackpot sweep` processes over matches with one spare deadline each: every
seat uses its spare exactly once, and then goes out exactly once one deadline later.

The matches are made through new_match (fast, one transaction), with a deadline of
a second; three real sweeper processes race for them. Exactly once shows in the
database: per match one ``spare`` and one ``out`` record entry, one ``spare_used``
and one ``seat_out`` live event, and the event numbers still gapless.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from sqlalchemy import func, select

from testdb import app_url

MATCHES = 200
SWEEPERS = 3


async def _set_up(url: str) -> list[str]:
    from jackpot.engine import Variant
    from jackpot.web.accounts.credentials import create_guest
    from jackpot.web.base.clock import utcnow
    from jackpot.web.base.storage.db import Database
    from jackpot.web.play.new_match import MatchSpec, Person, new_match

    db = Database(url)
    await db.upgrade()
    ids = []
    try:
        async with db.write() as conn:
            ana, _ = await create_guest(conn)
            ben, _ = await create_guest(conn)
            for _ in range(MATCHES):
                spec = MatchSpec(
                    Variant.JACKPOT, [Person(ana, "a1"), Person(ben, "b2")], 1, spares=1
                )
                ids.append((await new_match(conn, spec, utcnow())).match_id)
    finally:
        await db.dispose()
    return ids


async def _still_playing(url: str) -> int:
    from jackpot.web.base.storage.db import Database
    from jackpot.web.base.tables import core as t

    db = Database(url)
    try:
        async with db.read() as conn:
            count = select(func.count()).where(t.matches.c.status == "playing")
            return int((await conn.execute(count)).scalar_one())
    finally:
        await db.dispose()


Tally = Counter[tuple[str, str]]


async def _outcome(url: str) -> tuple[Tally, Tally, dict[str, list[int]]]:
    from jackpot.web.base.storage.db import Database
    from jackpot.web.base.tables import core as t

    db = Database(url)
    try:
        async with db.read() as conn:
            records: Counter[tuple[str, str]] = Counter(
                (r.match_id, f"{r.kind}:{r.reason}")
                for r in await conn.execute(
                    select(t.record_events.c.match_id, t.record_events.c.kind,
                           t.record_events.c.reason).where(t.record_events.c.kind != "throw")
                )
            )
            live: Counter[tuple[str, str]] = Counter()
            seqs: dict[str, list[int]] = {}
            for r in await conn.execute(
                select(t.match_events.c.match_id, t.match_events.c.seq, t.match_events.c.data)
                .order_by(t.match_events.c.match_id, t.match_events.c.seq)
            ):
                seqs.setdefault(r.match_id, []).append(int(r.seq))
                kind = json.loads(r.data)["type"]
                if kind in ("spare_used", "seat_out"):
                    live[(r.match_id, kind)] += 1
    finally:
        await db.dispose()
    return records, live, seqs


def test_sweepers_use_each_spare_once_then_time_out_once(db_url: str, tmp_path: Path) -> None:
    url = app_url(db_url)
    ids = asyncio.run(_set_up(url))
    env = {
        **os.environ,
        "DATABASE_URL": db_url,
        "JACKPOT_VAR_DIR": str(tmp_path),
        "JACKPOT_SECRET_KEY": "multi-test-secret-0123456789abcdef",
        "JACKPOT_SWEEP_INTERVAL": "0.05",
    }
    env.pop("JACKPOT_REDIS_URL", None)
    logs = [tmp_path / f"sweep{i}.log" for i in range(SWEEPERS)]
    procs = []
    for log_path in logs:
        with open(log_path, "wb") as log:
            procs.append(
                subprocess.Popen([sys.executable, "-m", "jackpot.cli", "sweep"], env=env,
                                 stdout=log, stderr=subprocess.STDOUT)
            )
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            assert all(p.poll() is None for p in procs), [lp.read_text() for lp in logs]
            if asyncio.run(_still_playing(url)) == 0:
                break
            time.sleep(0.3)
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
    assert asyncio.run(_still_playing(url)) == 0
    records, live, seqs = asyncio.run(_outcome(url))
    for match_id in ids:
        assert records[(match_id, "spare:None")] == 1, match_id
        assert records[(match_id, "out:timeout")] == 1, match_id
        assert live[(match_id, "spare_used")] == 1, match_id
        assert live[(match_id, "seat_out")] == 1, match_id
        assert seqs[match_id] == list(range(1, len(seqs[match_id]) + 1))
    assert sum(records.values()) == 2 * MATCHES
    for log_path in logs:
        assert "Traceback" not in log_path.read_text(), log_path.read_text()
