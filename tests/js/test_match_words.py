"""The match page's sentences (static/match-words.js), run in node: English, as the
page is without a catalog."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from js_records import NODE

WORDS = Path(__file__).parents[2] / "src" / "jackpot" / "static" / "match-words.js"


def pick(dice: list[int], options: list[list[int]]) -> str:
    script = (
        f"import {{ W }} from {json.dumps(WORDS.as_uri())};\n"
        f"console.log(W.jackpotPick({json.dumps(dice)}, {json.dumps(options)}));\n"
    )
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        capture_output=True, text=True, timeout=30, check=True,
    )
    return done.stdout.strip()


def test_one_cover_on_offer_is_named_not_offered_as_a_choice() -> None:
    assert pick([4, 5], [[9]]) == "You threw 4 and 5. Cover 9."
    assert pick([4, 5], [[4, 5]]) == "You threw 4 and 5. Cover 4 + 5."
    assert pick([4, 5], [[9], [4, 5]]) == "You threw 4 and 5. Cover one of: 9 or 4 + 5."
