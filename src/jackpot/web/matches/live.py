"""Applying a live event to a match state: the reference for static/match-state.js.

The page loads the state once, then applies each SSE event to it. The test suite
checks that the events of a whole match, applied to the first state, give exactly
what a fresh load gives; the JavaScript module mirrors this function line by line.

A ``said`` event (a phrase, play/phrases.py) is not part of the state and carries
no ``seq``: it leaves the state as it is. What was said is a list of its own, which
``add_said`` keeps as ``GET /api/matches/{id}/said`` gives it (static/match-phrases.js
mirrors it).
"""

from __future__ import annotations

import copy
from typing import Any

HIGH = {7, 8, 9}


def _one_die(variant: str, open_tiles: list[int]) -> bool:
    return variant == "classic" and not (set(open_tiles) & HIGH)


def add_said(said: list[dict[str, Any]], ev: dict[str, Any]) -> list[dict[str, Any]]:
    """The phrases said, with ``ev`` among them once (a seat's n-th phrase is one),
    in the order a fresh load lists them: by time, then seat, then number."""
    out = [x for x in said if (x["seat"], x["n"]) != (ev["seat"], ev["n"])]
    out.append(dict(ev))
    out.sort(key=lambda x: (x["at"], x["seat"], x["n"]))
    return out


def apply_event(state: dict[str, Any], ev: dict[str, Any]) -> dict[str, Any]:
    s = copy.deepcopy(state)
    kind = ev["type"]
    if kind == "said":
        return s
    seats = s["seats"]
    turn = s["turn"]
    if kind == "joined":
        seats[ev["seat"]]["name"] = ev["name"]
        seats[ev["seat"]]["seed_by"] = ev.get("seed_by")
    elif kind == "left":
        # A free seat is nobody's, the viewer's own included if they were the one who left.
        seats[ev["seat"]].update(name=None, you=False, seed_by=None)
    elif kind == "cancelled":
        s["status"] = "finished"
        s["server_seed"] = ev.get("server_seed")  # (older stored events lack it)
        s["parts"] = ev.get("parts", s.get("parts"))
    elif kind == "started":
        # The seats take their places in the order of play drawn from the seed (a
        # match started before the draw has no "joined" and keeps its seats).
        s["seats"] = [seats[j] for j in ev.get("joined", range(len(seats)))]
        for seat, auto in zip(s["seats"], ev.get("autoplay", [None] * len(seats)), strict=True):
            seat["autoplay"] = auto
        s["status"] = "playing"
        s["client_seed"] = ev["client_seed"]
        s["round"] = 1
        s["turn"] = {
            "seat": 0,
            "open": list(range(1, 10)),
            "dice": None,
            "options": [],
            "due_at": None,
            "one_die": False,
        }
    elif kind == "thrown":
        turn["dice"] = ev["dice"]
        turn["options"] = ev["options"]
        turn["one_die"] = False
    elif kind == "covered":
        turn["open"] = ev["open"]
        turn["dice"] = None
        turn["options"] = []
        turn["one_die"] = _one_die(s["variant"], ev["open"])
    elif kind == "turn_ended":
        seats[ev["seat"]]["total"] = ev["total"]
        if s.get("daily") and ev["shut"]:
            s["daily"]["jackpots"] += 1
    elif kind == "turn_started":
        # No clock until the move's "deadline" event sets the new turn's (a bot's has none).
        s["round"] = ev["round"]
        if s.get("daily"):
            s["daily"]["turn"] = ev["round"]
        s["turn"] = {
            "seat": ev["seat"],
            "open": list(range(1, 10)),
            "dice": None,
            "options": [],
            "due_at": None,
            "one_die": False,
        }
    elif kind == "seat_out":
        seats[ev["seat"]]["out"] = ev["reason"]
    elif kind == "spare_used":
        seats[ev["seat"]]["spares_left"] = ev["left"]
    elif kind == "match_ended":
        s["status"] = "finished"
        s["result"] = ev["result"]
        s["server_seed"] = ev["server_seed"]
        s["parts"] = ev.get("parts", s.get("parts"))
        s["turn"] = None
    elif kind == "autoplay":
        auto = {"throws": ev["throws"], "single_covers": ev["single_covers"]}
        seats[ev["seat"]]["autoplay"] = auto
    elif kind == "deadline" and s["turn"] is not None:
        s["turn"]["due_at"] = ev["due_at"]
    s["seq"] = ev["seq"]
    return s
