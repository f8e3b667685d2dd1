"""The match page's log (static/match-log.js), run in node with the least of a page:
what it says when a match starts, alone or with others."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from js_records import NODE

LOG = Path(__file__).parents[2] / "src" / "jackpot" / "static" / "match-log.js"


def started(seats: int, joined: list[int]) -> str:
    script = (
        # Imported as without a page (English, no catalog); then the least of one.
        f"const {{ History }} = await import({json.dumps(LOG.as_uri())});\n"
        "globalThis.document = { createElement: () => ({ append() {} }) };\n"
        "const names = { seatName: (i) => `Seat ${i}`, isYou: (i) => i === 0,\n"
        f"  solo: () => {seats} === 1 }};\n"
        "const log = new History({ textContent: '', prepend() {} }, names);\n"
        f"console.log(log.add({{ type: 'started', joined: {json.dumps(joined)} }}));\n"
    )
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        capture_output=True, text=True, timeout=30, check=True,
    )
    return done.stdout.strip()


def test_alone_no_seat_is_waited_for() -> None:
    """Practice and a daily entry have one seat: "Every seat is taken" told of nobody."""
    assert started(1, [0]) == "You play alone: the first throw is yours"
    assert started(2, [0, 1]) == (
        "Every seat is taken: the match starts. "
        "The seeds drew the order of play: you throw first."
    )
