"""Play now and challenges: each person's part of the server seed, committed to before
their client seed, makes the match's seed; the records verify with both parts, and a
part that does not give its commitment is refused by both verifiers."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
from test_challenges import people
from web_helpers import play_out

from jackpot import fair

RUN_VERIFY_JS = Path(__file__).parents[2] / "js" / "run_verify.mjs"
KIND = {"variant": "jackpot", "deadline_seconds": 3600, "seats": 2}


def cli_verify(record: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "jackpot.cli", "verify", "-v", "-"],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def js_verify(record: dict[str, Any]) -> dict[str, Any]:
    done = subprocess.run(
        [shutil.which("node") or "node", "--experimental-detect-module", str(RUN_VERIFY_JS),
         "verify-lines"],
        input=json.dumps(record) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (report,) = json.loads(done.stdout)
    return dict(report)


async def commitment(client: httpx.AsyncClient) -> str:
    r = await client.post("/api/commitments")
    assert r.status_code in (200, 201), r.text
    return str(r.json()["commitment"])


async def finished_record(clients: list[httpx.AsyncClient], match_id: str) -> dict[str, Any]:
    state = (await clients[0].get(f"/api/matches/{match_id}")).json()
    await play_out(clients, state)
    r = await clients[0].get(f"/api/matches/{match_id}/record")
    assert r.status_code == 200, r.text
    return dict(r.json())


def check_parts(record: dict[str, Any], shown: list[str]) -> None:
    """The record's parts are the ones whose commitments the people were shown, in
    joining order, and they make the server seed; both verifiers agree."""
    assert record["format"] == "jackpot-record/4"
    assert [p["commitment"] for p in record["parts"]] == shown
    parts = [p["part"] for p in record["parts"]]
    for part, c in zip(parts, shown, strict=True):
        assert hashlib.sha256(part.encode()).hexdigest() == c
    assert record["server_seed"] == fair.seed_from_parts(parts)
    done = cli_verify(record)
    assert done.returncode == 0, done.stdout + done.stderr
    report = js_verify(record)
    assert report["ok"], report["problem"]
    # A part swapped for another does not give the commitment its person was shown.
    forged = json.loads(json.dumps(record))
    forged["parts"][1]["part"] = "0" * 64
    assert cli_verify(forged).returncode != 0
    assert not js_verify(forged)["ok"]


async def test_a_play_now_match_is_made_of_both_parts(make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await people(make_client, "Ana", "Ben")
    shown = [await commitment(ana), await commitment(ben)]
    first = await ana.post(
        "/api/seeks", json={**KIND, "client_seed": "ana", "commitment": shown[0]}
    )
    assert first.status_code == 201, first.text
    second = await ben.post(
        "/api/seeks", json={**KIND, "client_seed": "ben", "commitment": shown[1]}
    )
    assert second.status_code == 201, second.text
    match_id = second.json()["match"]
    # Ben's seek completed the group, so Ben joined first.
    shown.reverse()
    during = (await ana.get(f"/api/matches/{match_id}")).json()
    assert during["parts"] == [{"commitment": c, "part": None} for c in shown]
    assert during["client_seed"] == "ben.ana"
    assert all(s["seed_by"] is None for s in during["seats"])
    early = (await ana.get(f"/api/matches/{match_id}/record")).json()
    assert early["server_seed"] is None and all(p["part"] is None for p in early["parts"])
    check_parts(await finished_record([ana, ben], match_id), shown)


async def test_a_challenge_is_made_of_both_parts(make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await people(make_client, "Ana", "Ben")
    shown = [await commitment(ana), await commitment(ben)]
    r = await ana.post(
        "/api/challenges",
        json={"to": "ben", "variant": "classic", "deadline_seconds": 86400,
              "client_seed": "ana", "commitment": shown[0]},
    )
    assert r.status_code == 201, r.text
    cid = r.json()["id"]
    # A commitment is used once: the challenge took it.
    again = await ana.post(
        "/api/seeks", json={**KIND, "client_seed": "ana", "commitment": shown[0]}
    )
    assert again.status_code == 409 and again.json()["error"]["code"] == "commitment_unknown"
    accepted = await ben.post(
        f"/api/challenges/{cid}/accept", json={"client_seed": "ben", "commitment": shown[1]}
    )
    assert accepted.status_code == 200, accepted.text
    record = await finished_record([ana, ben], accepted.json()["match"])
    assert record["client_seed"] == "ana.ben"
    check_parts(record, shown)


async def test_without_a_seed_or_commitment_the_server_makes_them_and_says_so(make_client) -> None:  # type: ignore[no-untyped-def]
    ana, ben = await people(make_client, "Ana", "Ben")
    r = await ana.post("/api/challenges", json={"to": "ben", "deadline_seconds": 86400})
    assert r.status_code == 201, r.text
    accepted = await ben.post(
        f"/api/challenges/{r.json()['id']}/accept", json={"client_seed": "ben"}
    )
    assert accepted.status_code == 200, accepted.text
    record = await finished_record([ana, ben], accepted.json()["match"])
    by = {s["name"]: s.get("seed_by") for s in record["seats"]}
    assert by == {"Ana": "server", "Ben": None}
    assert len(record["parts"]) == 2
    done = cli_verify(record)
    assert done.returncode == 0, done.stdout + done.stderr
    assert js_verify(record)["ok"]
    # A malformed seed or commitment is refused, and nothing is made.
    bad = await ana.post("/api/seeks", json={**KIND, "client_seed": "no spaces"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_client_seed"
    bad = await ana.post("/api/seeks", json={**KIND, "commitment": "xyz"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_commitment"
    assert (await ana.get("/api/seeks")).json()["mine"] == []
