"""Several `jackpot sweep` processes over 1,000 expiring deadlines: each timeout
is applied exactly once.

The deadlines are set up through the action functions (fast, one transaction),
then three real sweeper processes race for them. Exactly once shows in the
database: one ``out`` record entry and one ``seat_out`` event per match, and each
match's event numbers still gapless.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from sqlalchemy import func, select

from testdb import app_url

MATCHES = 1000
SWEEPERS = 3


async def _set_up(url: str) -> list[str]:
    from jackpot.web.accounts.credentials import create_guest
    from jackpot.web.base.storage.db import Database
    from jackpot.web.play.seating import create_match

    db = Database(url)
    await db.upgrade()
    ids = []
    try:
        async with db.write() as conn:
            actor, _ = await create_guest(conn)
            for _ in range(MATCHES):
                out = await create_match(
                    conn, actor, variant="jackpot", seats=2, bots_count=1, deadline_seconds=1,
                    client_seed=None, private=False, min_deadline=1, max_active=None,
                )
                ids.append(out.match_id)
    finally:
        await db.dispose()
    return ids


async def _still_due(url: str) -> int:
    from jackpot.web.base.storage.db import Database
    from jackpot.web.base.tables import core as t

    db = Database(url)
    try:
        async with db.read() as conn:
            return int(
                (
                    await conn.execute(
                        select(func.count()).where(
                            t.matches.c.due_at.is_not(None), t.matches.c.status == "playing"
                        )
                    )
                ).scalar_one()
            )
    finally:
        await db.dispose()


async def _outcome(url: str) -> tuple[Counter[str], Counter[str], dict[str, list[int]]]:
    import json

    from jackpot.web.base.storage.db import Database
    from jackpot.web.base.tables import core as t

    db = Database(url)
    try:
        async with db.read() as conn:
            outs = Counter(
                r.match_id
                for r in await conn.execute(
                    select(t.record_events.c.match_id).where(
                        t.record_events.c.kind == "out", t.record_events.c.reason == "timeout"
                    )
                )
            )
            seat_outs: Counter[str] = Counter()
            seqs: dict[str, list[int]] = {}
            for r in await conn.execute(
                select(t.match_events.c.match_id, t.match_events.c.seq, t.match_events.c.data)
                .order_by(t.match_events.c.match_id, t.match_events.c.seq)
            ):
                seqs.setdefault(r.match_id, []).append(int(r.seq))
                if json.loads(r.data)["type"] == "seat_out":
                    seat_outs[r.match_id] += 1
    finally:
        await db.dispose()
    return outs, seat_outs, seqs


def test_sweepers_apply_each_timeout_once(db_url: str, tmp_path: Path) -> None:
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
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert all(p.poll() is None for p in procs), [lp.read_text() for lp in logs]
            if asyncio.run(_still_due(url)) == 0:
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
    assert asyncio.run(_still_due(url)) == 0
    outs, seat_outs, seqs = asyncio.run(_outcome(url))
    assert set(outs) == set(ids)
    assert set(outs.values()) == {1}
    assert set(seat_outs) == set(ids)
    assert set(seat_outs.values()) == {1}
    for match_id in ids:
        assert seqs[match_id] == list(range(1, len(seqs[match_id]) + 1))
    for log_path in logs:
        assert "Traceback" not in log_path.read_text(), log_path.read_text()
