"""The order of play drawn on the site: the documented vectors through the API, and
the finished records checked by both verifiers (`jackpot verify` and verify.js).

The server seed is the one docs/fair-play.md's vectors use (a test may choose it; no
player can), and the two people send the vectors' client-seed parts, so the match's
client seed is the documented ``3fa94c1de2b07a55.ana``.
"""

from __future__ import annotations

import json
import secrets
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_helpers import play_out, sign_up

from jackpot import fair

SEED = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
RUN_VERIFY_JS = Path(__file__).parents[2] / "js" / "run_verify.mjs"

#: docs/fair-play.md: the order of play for n seats with the test seeds.
VECTORS = {2: [0, 1], 3: [0, 2, 1], 4: [1, 2, 0, 3]}


@pytest.fixture
def test_server_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """New matches get the documented server seed (match ids stay random)."""
    real = secrets.token_hex

    def token_hex(nbytes: int | None = None) -> str:
        return SEED if nbytes == 32 else real(nbytes)

    monkeypatch.setattr(secrets, "token_hex", token_hex)


def verify_with_cli(record: dict[str, Any]) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "jackpot.cli", "verify", "-v", "-"],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def verify_with_js(record: dict[str, Any]) -> dict[str, Any]:
    node = shutil.which("node") or "node"
    done = subprocess.run(
        [node, "--experimental-detect-module", str(RUN_VERIFY_JS), "verify-lines"],
        input=json.dumps(record) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (report,) = json.loads(done.stdout)
    return dict(report)


@pytest.mark.parametrize("seats", [2, 3, 4])
async def test_the_documented_draw_through_the_api(
    make_client: Any, test_server_seed: None, seats: int
) -> None:
    ana, ben = await make_client(), await make_client()
    await sign_up(ana, "Ana")
    await sign_up(ben, "Ben")
    created = await ana.post(
        "/api/matches",
        json={
            "variant": "classic",
            "seats": seats,
            "bots": seats - 2,
            "deadline_seconds": 3600,
            "client_seed": "3fa94c1de2b07a55",
        },
    )
    assert created.status_code == 201, created.text
    mid = created.json()["id"]
    assert created.json()["commitment"] == fair.commitment(SEED)
    waiting = (await ana.get(f"/api/matches/{mid}/record")).json()
    assert waiting["format"] == "jackpot-record/1" and "joined" not in waiting

    r = await ben.post(f"/api/matches/{mid}/join", json={"client_seed": "ana"})
    assert r.status_code == 200, r.text
    state = r.json()
    assert state["client_seed"] == "3fa94c1de2b07a55.ana"
    joining = ["Ana", "Ben", *(["Bot"] if seats == 3 else ["Bot 1", "Bot 2"] if seats == 4 else [])]
    assert [s["name"] for s in state["seats"]] == [joining[j] for j in VECTORS[seats]]
    record = (await ana.get(f"/api/matches/{mid}/record")).json()
    assert record["format"] == "jackpot-record/3" and record["joined"] == VECTORS[seats]

    final = await play_out([ana, ben], state)
    assert final["status"] == "finished"
    record = (await ana.get(f"/api/matches/{mid}/record")).json()
    assert record["joined"] == VECTORS[seats] and record["server_seed"] == SEED
    # Bots' strengths come from their seats in the order of play.
    for p, entry in enumerate(record["seats"]):
        if entry["bot"] is not None:
            assert entry["bot"] == str(fair.bot_strength(SEED, record["client_seed"], p))
    out = verify_with_cli(record)
    assert f"order of play: {VECTORS[seats]}" in out
    report = verify_with_js(record)
    assert report["ok"], report["problem"]
    # A record whose order was not the draw's is refused by both.
    if seats > 2:
        forged = {**record, "joined": list(range(seats))}
        forged["seats"] = [record["seats"][VECTORS[seats].index(j)] for j in range(seats)]
        assert not fair.verify(forged).ok
        assert not verify_with_js(forged)["ok"]


async def test_a_guest_against_the_bot_is_drawn_too(client: httpx.AsyncClient) -> None:
    """Every match with a person is drawn; the record says how, and verifies."""
    state = (await client.post("/api/matches", json={"seats": 2, "bots": 1})).json()
    record = (await client.get(f"/api/matches/{state['id']}/record")).json()
    people = [p for p, s in enumerate(state["seats"]) if not s["bot"]]
    assert record["format"] == "jackpot-record/3"
    assert [record["joined"][p] for p in people] == [0]  # the person joined first
    await client.post(f"/api/matches/{state['id']}/resign")
    record = (await client.get(f"/api/matches/{state['id']}/record")).json()
    assert fair.verify(record).ok and verify_with_js(record)["ok"]


async def test_solo_has_nothing_to_draw(client: httpx.AsyncClient) -> None:
    state = (await client.post("/api/matches", json={"seats": 1, "bots": 0})).json()
    record = (await client.get(f"/api/matches/{state['id']}/record")).json()
    assert record["format"] == "jackpot-record/3" and record["joined"] == [0]
