"""What the match page says of where a match stands (static/match-status.js), run in
node: the summary said once when the page opens, and a Classic pick's running total."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from js_records import NODE

STATUS = Path(__file__).parents[2] / "src" / "jackpot" / "static" / "match-status.js"

#: The page's `who` for a reader in seat ``me`` of a two-seat match against the bot.
WHO = """
const who = {
  seatName: (i) => (i === me ? "You" : "Bot"),
  isYou: (i) => i === me,
  mySeat: () => me,
  myTurn: () => state.status === "playing" && state.turn && state.turn.seat === me,
  iAmOut: () => false,
  solo: () => false,
  touchFirst: false,
};
"""


def run(call: str, state: dict[str, Any], me: int, past: list[dict[str, Any]] | None = None) -> str:
    script = (
        f"import {{ openingSummary, pickSaid }} from {json.dumps(STATUS.as_uri())};\n"
        f"const state = {json.dumps(state)}; const me = {me};\n"
        f"const past = {json.dumps(past or [])};\n"
        f"{WHO}\nconsole.log({call});\n"
    )
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        capture_output=True, text=True, timeout=30, check=True,
    )
    return done.stdout.strip()


def playing(
    seat: int, dice: list[int] | None = None, options: list[list[int]] | None = None
) -> dict[str, Any]:
    return {
        "status": "playing",
        "variant": "classic",
        "seats": [{"name": "Ana", "you": True}, {"name": "Bot", "bot": True}],
        "result": None,
        "turn": {"seat": seat, "open": [1, 2, 3, 4, 5, 6, 7, 8, 9], "dice": dice,
                 "options": options or [], "one_die": False, "due_at": None},
    }


STARTED = [{"type": "started"}, {"type": "turn_started", "seat": 1}]
BOT_TURN = [
    {"type": "thrown", "seat": 1, "dice": [6, 3], "options": [[9]]},
    {"type": "covered", "seat": 1, "tiles": [9]},
    {"type": "thrown", "seat": 1, "dice": [1, 1], "options": []},
    {"type": "turn_ended", "seat": 1, "score": 36, "total": 36, "shut": False},
    {"type": "turn_started", "seat": 0},
]


def test_the_bots_opening_turn_is_said_before_my_first_throw() -> None:
    said = run("openingSummary(state, who, past, '')", playing(0), 0, STARTED + BOT_TURN)
    assert said == (
        "So far: Bot threw 6 and 3 and covered 9; Bot threw 1 and 1: nothing reachable, "
        "the turn passes; Bot scores 36 points this turn (total 36). "
        "Your throw. Press Throw (or Space)."
    )


def test_only_what_happened_since_my_last_move_is_said() -> None:
    mine = [
        {"type": "turn_started", "seat": 0},
        {"type": "thrown", "seat": 0, "dice": [4, 4], "options": [[8]]},
        {"type": "covered", "seat": 0, "tiles": [8]},
        {"type": "thrown", "seat": 0, "dice": [6, 6], "options": []},
        {"type": "turn_ended", "seat": 0, "score": 37, "total": 37, "shut": False},
        {"type": "turn_started", "seat": 1},
    ]
    said = run("openingSummary(state, who, past, '')", playing(0), 0, STARTED + mine + BOT_TURN)
    assert said.startswith("Since your last move: Bot threw 6 and 3 and covered 9;")
    assert "You" not in said.split(".")[0], said  # my own turn's lines are not said again


def test_a_long_stretch_names_the_latest_moves_only() -> None:
    covers = []
    for tile in (9, 8, 7, 6, 5):
        covers += [
            {"type": "thrown", "seat": 1, "dice": [tile - 1, 1], "options": [[tile]]},
            {"type": "covered", "seat": 1, "tiles": [tile]},
        ]
    state = playing(1, [2, 2], [[4]])
    said = run("openingSummary(state, who, past, '')", state, 0, STARTED + covers)
    assert said.startswith("So far, 5 throws; the latest: Bot threw 7 and 1 and covered 8;"), said
    assert "covered 9" not in said
    assert said.endswith("Bot threw 2 and 2 and is choosing.")


def test_a_finished_match_says_its_result() -> None:
    state = {**playing(0), "status": "finished", "turn": None, "result": {"winners": [1]}}
    said = run("openingSummary(state, who, past, 'Bot wins')", state, 0, STARTED + BOT_TURN)
    assert said.endswith("(total 36). Bot wins")


def test_a_pick_says_its_running_total_and_what_is_left() -> None:
    state = playing(0, [6, 3], [[9], [1, 8], [2, 7], [3, 6], [4, 5], [1, 2, 6]])
    assert run("pickSaid(state, new Set([1]))", state, 0) == (
        "Picked 1: 1 of 9. 8 to go: add 8 or 2 + 6."
    )
    assert run("pickSaid(state, new Set([6, 1]))", state, 0) == (
        "Picked 1 and 6: 7 of 9. 2 to go: add 2."
    )
    assert run("pickSaid(state, new Set())", state, 0) == (
        "Nothing picked: pick tiles adding up to 9."
    )


def shown_due(due_at: str, deadline: int | None, now_ms: int) -> str:
    script = (
        f"import {{ shownDue }} from {json.dumps(STATUS.as_uri())};\n"
        f"console.log(shownDue({json.dumps(due_at)}, {json.dumps(deadline)}, {now_ms}));\n"
    )
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        capture_output=True, text=True, timeout=30, check=True,
    )
    return done.stdout.strip()


def test_a_throws_clock_stands_at_its_whole_deadline_until_it_starts() -> None:
    now = 1_796_000_000_000  # 2026-11-30T00:53:20Z
    later = "2030-01-01T00:00:00.000Z"
    assert shown_due(later, 60, now) == "2026-11-30T00:54:20.000Z"
    soon = "2026-11-30T00:53:40.000Z"  # 20 s from now: the clock has started
    assert shown_due(soon, 60, now) == soon


def test_a_daily_entry_shows_the_days_end_whatever_its_distance() -> None:
    closes = "2026-11-30T23:59:59.000Z"
    assert shown_due(closes, None, 1_796_000_000_000) == closes
