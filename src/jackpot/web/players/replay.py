"""A finished match's replay with every choice valued, and live odds where allowed.

A finished match's record is public (anyone may verify it), so its replay is too;
odds during play are shown only where nobody can be helped against another person.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from jackpot.engine import Match, Variant
from jackpot.i18n import gettext
from jackpot.i18n.formats import percent
from jackpot.i18n.names import shown_name
from jackpot.strategy.solver import p_shut_max
from jackpot.web.base.errors import ApiError
from jackpot.web.base.http import current_actor, db_of
from jackpot.web.base.templates import render
from jackpot.web.matches import store
from jackpot.web.matches.seats import match_seats
from jackpot.web.matches.views import load_record
from jackpot.web.players.charts import Series, legend, line_chart
from jackpot.web.players.review import Review, review, value_options

router = APIRouter()


def _pct(p: Fraction | None) -> str | None:
    if p is None:
        return None
    return percent(float(p), 2)


def replay_data(rev: Review) -> dict[str, Any]:
    """What replay.js needs: every step with its options valued, JSON-safe."""
    steps = []
    for s in rev.steps:
        steps.append(
            {
                "kind": s.kind,
                "seat": s.seat,
                "round": s.round,
                "n": s.n,
                "dice": list(s.dice),
                "cover": None if s.cover is None else list(s.cover),
                "reason": s.reason,
                "open_before": list(s.open_before),
                "open_after": list(s.open_after),
                "totals": list(s.totals),
                "options": [
                    {
                        "tiles": list(o.tiles),
                        "p": float(o.p_shut),
                        "p_exact": str(o.p_shut),
                        "p_text": _pct(o.p_shut),
                        "e": round(float(o.expected_score), 3),
                    }
                    for o in s.options
                ],
                "best": None if s.best is None else list(s.best),
                "given_away": None if s.given_away is None else float(s.given_away),
                "given_away_text": _pct(s.given_away),
                "turn_score": s.turn_score,
                "shut": s.shut,
            }
        )
    return {"variant": str(rev.record.variant), "steps": steps}


@router.get("/matches/{match_id}/replay", include_in_schema=False)
async def replay_html(match_id: str, request: Request) -> Response:
    actor = await current_actor(request)
    async with db_of(request).read() as conn:
        rec = await load_record(conn, match_id)
        viewer = actor.user_id if actor else None
        profiles = [s["profile"] for s in await match_seats(conn, match_id, viewer)]
    if rec["result"] is None or rec["server_seed"] is None:
        raise ApiError(
            409,
            "match_not_finished",
            "the replay and its analysis open when the match has ended",
        )
    try:
        rev = review(rec)
    except ValueError as exc:
        raise ApiError(
            500, "bad_record", "this match's record does not check out: %(why)s", why=str(exc)
        ) from None
    # The record keeps a guest's default name in English; the page says it the reader's way.
    names = [
        shown_name(s["name"]) or gettext("Seat %(n)s", n=i + 1) for i, s in enumerate(rec["seats"])
    ]
    series = [
        Series(
            names[i],
            [(k + 1, None if v is None else float(v)) for k, v in enumerate(sr.totals_by_round)],
        )
        for i, sr in enumerate(rev.seats)
    ]
    threw = {e["seat"] for e in rec["events"] if e["type"] == "throw"}
    went_out = {e["seat"] for e in rec["events"] if e["type"] == "out"}
    seats = []
    for i, sr in enumerate(rev.seats):
        seats.append(
            {
                "name": names[i],
                "profile": profiles[i] if i < len(profiles) else None,
                "bot": rec["seats"][i]["bot"],
                "place": rec["result"]["places"][i],
                "total": rec["result"]["totals"][i],
                # Still in at the end without a throw: its total of 0 is no score.
                "no_turn": i not in threw and i not in went_out,
                "turns": sr.turns,
                "jackpots": sr.jackpots,
                "choices": sr.choices,
                "best_choices": sr.best_choices,
                "accuracy": sr.accuracy,
                "given_away_per_turn": sr.given_away_per_turn,
                "totals_by_round": sr.totals_by_round,
            }
        )
    data = replay_data(rev)
    data["names"] = names
    return await render(
        request,
        "replay.html",
        {
            "rec": rec,
            "seats": seats,
            "rounds": rev.rounds,
            "chart": line_chart(
                series,
                label=gettext("Running totals after each round, one line per seat"),
                x_name=gettext("round"),
                y_name=gettext("running total"),
            ),
            "legend": legend(series),
            "steps": data["steps"],
            "replay_json": json.dumps(data).replace("<", "\\u003c"),
        },
    )


# -- live odds in practice and bot matches -----------------------------------------


@router.get("/api/matches/{match_id}/odds")
async def odds_api(match_id: str, request: Request) -> dict[str, Any]:
    """The exact odds of the position on the board now, for the "show odds" switch.

    Only where nobody can be helped against another person: practice alone and
    matches against bots, or any match once it has ended. Between people, during
    play, it is refused.
    """
    async with db_of(request).read() as conn:
        row = await store.match_row(conn, match_id)
        seat_rows = await store.seat_rows(conn, match_id)
    people = sum(1 for s in seat_rows if not s["is_bot"])
    if people >= 2 and row["status"] != "finished":
        raise ApiError(
            403,
            "odds_hidden",
            "odds are shown during play only in practice and against the bot; "
            "between people, the replay shows them once the match has ended",
        )
    m = Match.from_dict(row["state"]) if row["state"] is not None else None
    turn = m.turn if m is not None else None
    if m is None or turn is None:
        return {"seat": None, "open": [], "dice": None, "p_shut": None, "options": []}
    variant = Variant(row["variant"])
    body: dict[str, Any] = {
        "seat": turn.seat,
        "open": sorted(turn.open),
        "dice": None if turn.dice is None else list(turn.dice),
        "p_shut": _pct(p_shut_max(variant, turn.open)),
        "options": [],
        "best": None,
    }
    if turn.dice is not None and turn.options:
        rows, best = value_options(variant, turn.open, turn.dice)
        body["best"] = list(best)
        body["options"] = [
            {"tiles": list(o.tiles), "p_text": _pct(o.p_shut), "p_exact": str(o.p_shut)}
            for o in rows
        ]
    return body
