"""Reading a match's live events as a page does, and applying them in the page's own
JavaScript (static/match-state.js), for tests that compare them with a fresh load."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import httpx

STATE_JS = Path(__file__).resolve().parents[2] / "src" / "jackpot" / "static" / "match-state.js"


def parse_sse(text: str) -> list[dict[str, Any]]:
    events = []
    for block in text.split("\n\n"):
        data = [line[6:] for line in block.splitlines() if line.startswith("data: ")]
        ids = [line[4:] for line in block.splitlines() if line.startswith("id: ")]
        if data:
            ev = json.loads("\n".join(data))
            assert int(ids[0]) == ev["seq"]
            events.append(ev)
    return events


def apply_in_node(state: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    script = (
        f"import {{ applyEvent }} from {json.dumps(STATE_JS.as_uri())};\n"
        "let input = '';\n"
        "process.stdin.on('data', (c) => { input += c; });\n"
        "process.stdin.on('end', () => {\n"
        "  const { state, events } = JSON.parse(input);\n"
        "  let s = state;\n"
        "  for (const ev of events) s = applyEvent(s, ev);\n"
        "  process.stdout.write(JSON.stringify(s));\n"
        "});\n"
    )
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        input=json.dumps({"state": state, "events": events}),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return dict(json.loads(out.stdout))


async def events_after(client: httpx.AsyncClient, mid: str, seq: int) -> list[dict[str, Any]]:
    r = await client.get(f"/api/matches/{mid}/events", headers={"Last-Event-ID": str(seq)})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/event-stream")
    return parse_sse(r.text)
