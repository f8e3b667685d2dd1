"""The countdown's words (static/countdowns.js), run in node: each range of time keeps
one form, and the step between two ranges reads as one second going by."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from js_records import NODE

COUNTDOWNS = Path(__file__).parents[2] / "src" / "jackpot" / "static" / "countdowns.js"
DUE = "2030-01-01T00:00:00Z"


def left(*seconds: float) -> list[str]:
    """What the countdown says with each of ``seconds`` to go."""
    script = (
        f"import {{ clock }} from {json.dumps(COUNTDOWNS.as_uri())};\n"
        f"const due = Date.parse({json.dumps(DUE)});\n"
        f"const said = {json.dumps(seconds)}\n"
        f"  .map((s) => clock({json.dumps(DUE)}, due - s * 1000));\n"
        "console.log(JSON.stringify(said));\n"
    )
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        capture_output=True, text=True, timeout=30, check=True,
    )
    return list(json.loads(done.stdout))


def test_a_day_left_turns_into_hours_and_minutes_not_a_bare_clock() -> None:
    assert left(86400, 86399) == ["1 day", "23 h 59 min"]


def test_days_count_with_their_hours() -> None:
    assert left(2 * 86400 + 3 * 3600 + 59, 2 * 86400, 86400 + 3600) == [
        "2 days 3 h",
        "2 days",
        "1 day 1 h",
    ]


def test_the_last_hour_is_a_ticking_clock() -> None:
    assert left(3600, 3599, 249, 60, 9.2, 0.4) == [
        "1 h 0 min", "59:59", "4:09", "1:00", "0:10", "0:01"
    ]


def test_nothing_once_the_time_has_passed() -> None:
    assert left(0, -5) == ["", ""]
