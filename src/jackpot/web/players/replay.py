"""A finished match's replay and review: every choice valued, and what each seat gave away.

A finished match's record is public (anyone may verify it), so its replay is too.
Each throw shows its options with the chance of shutting the box this turn and, where
a match is at stake, the chance to win it; "given away" is measured in the chance to
win the match (a draw counted as a share), or, in practice alone, in the chance of
shutting the box (odds_view.py's ``measure``). The walk is ``fair.match_review``'s, the
same one whose figures are stored when a match ends.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.engine import Variant
from jackpot.fair.match_review import MatchReview, ReviewStep, review_match
from jackpot.i18n import gettext, ngettext
from jackpot.i18n.formats import number
from jackpot.i18n.names import shown_name
from jackpot.strategy.match_odds import PositionOdds
from jackpot.web.base.edge.http import current_actor, db_of
from jackpot.web.base.edge.templates import render
from jackpot.web.base.errors import ApiError
from jackpot.web.base.tables.daily import daily_entries
from jackpot.web.matches import store
from jackpot.web.matches.seats import match_seats
from jackpot.web.matches.views import load_record
from jackpot.web.players.charts import Series, legend, line_chart
from jackpot.web.players.match_figures import SeatSummary, summarise
from jackpot.web.players.odds_view import Measure, board_link, measure_of, option_json, pct

router = APIRouter()


def _given(value: Fraction | None) -> dict[str, Any]:
    return {
        "given_away": None if value is None else float(value),
        "given_away_exact": None if value is None else str(value),
        "given_away_text": pct(value),
    }


def _cover_options(odds: PositionOdds | None) -> list[dict[str, Any]]:
    """The throw's covers as the replay lists them: the API's fields, with the chance
    of shutting the box as a number (``p``) and the expected score (``e``) beside."""
    if odds is None:
        return []
    return [
        {**option_json(o), "p": float(o.p_shut), "e": round(float(o.expected_score), 3)}
        for o in odds.options
    ]


def _dice_choice(step: ReviewStep) -> dict[str, Any] | None:
    """The choice of one die or two made before this throw, when it was the seat's."""
    odds = step.dice_odds
    if odds is None or odds.best is None:
        return None
    return {
        "chosen": len(step.dice),
        "best": odds.best.dice_count,
        "options": [option_json(o) for o in odds.options],
        **_given(step.dice_given_away),
    }


def step_data(step: ReviewStep, variant: Variant) -> dict[str, Any]:
    """One step as replay.js needs it, JSON-safe; ``board`` opens the position it was
    played in (the throw's dice, or before the throw) on the analysis board."""
    odds = step.cover_odds
    best = None if odds is None or odds.best is None else odds.best.tiles
    return {
        "kind": step.kind,
        "seat": step.seat,
        "round": step.round,
        "n": step.n,
        "dice": list(step.dice),
        "cover": None if step.cover is None else list(step.cover),
        "reason": step.reason,
        "open_before": list(step.open_before),
        "open_after": list(step.open_after),
        "totals": list(step.totals),
        "options": _cover_options(odds),
        "best": None if best is None else list(best),
        **_given(step.given_away),
        "dice_choice": _dice_choice(step),
        "turn_score": step.turn_score,
        "shut": step.shut,
        "board": board_link(
            variant, step.open_before, step.dice if step.kind == "throw" else None, step.stake
        )
        if step.open_before
        else None,
    }


def replay_data(review: MatchReview) -> dict[str, Any]:
    """What replay.js needs: every step with its options valued."""
    return {
        "variant": str(review.record.variant),
        "measure": measure_of(len(review.record.seats)),
        "steps": [step_data(s, review.record.variant) for s in review.steps],
    }


def _points(given_away: Fraction) -> str:
    """Match equity as percentage points with one decimal: 0.032 reads 3.2."""
    return number(float(given_away) * 100, 1)


def skill_sentence(
    names: Sequence[str], summaries: Sequence[SeatSummary], measure: Measure, you: int | None
) -> str:
    """"You gave away 3.2 points of winning chance over 14 decisions; Ana 0.8 over 12":
    every seat that made a decision, the reader's own seat first."""
    order = [s for s in range(len(summaries)) if summaries[s].skill.decisions]
    if you in order:
        order.remove(you)
        order.insert(0, you)
    if not order:
        return gettext("Nobody had a real choice to make in this match: every cover was forced.")
    parts = []
    for k, seat in enumerate(order):
        skill = summaries[seat].skill
        n, points, name = skill.decisions, _points(skill.given_away), names[seat]
        if k and measure == "match":
            parts.append(
                ngettext(
                    "%(name)s %(points)s over %(num)d decision",
                    "%(name)s %(points)s over %(num)d decisions",
                    n,
                    name=name,
                    points=points,
                )
            )
        elif seat == you and measure == "match":
            parts.append(
                ngettext(
                    "You gave away %(points)s points of winning chance over %(num)d decision",
                    "You gave away %(points)s points of winning chance over %(num)d decisions",
                    n,
                    points=points,
                )
            )
        elif measure == "match":
            parts.append(
                ngettext(
                    "%(name)s gave away %(points)s points of winning chance over %(num)d decision",
                    "%(name)s gave away %(points)s points of winning chance over %(num)d decisions",
                    n,
                    name=name,
                    points=points,
                )
            )
        elif seat == you:
            parts.append(
                ngettext(
                    "You gave away %(points)s points of the chance of shutting the box "
                    "over %(num)d decision",
                    "You gave away %(points)s points of the chance of shutting the box "
                    "over %(num)d decisions",
                    n,
                    points=points,
                )
            )
        else:
            parts.append(
                ngettext(
                    "%(name)s gave away %(points)s points of the chance of shutting the box "
                    "over %(num)d decision",
                    "%(name)s gave away %(points)s points of the chance of shutting the box "
                    "over %(num)d decisions",
                    n,
                    name=name,
                    points=points,
                )
            )
    return "; ".join(parts) + "."


def seat_view(
    summary: SeatSummary,
    name: str,
    profile: str | None,
    rec: dict[str, Any],
    seat: int,
    daily_place: int | None = None,
) -> dict[str, Any]:
    """What the replay page says of one seat. A daily entry's place is on its day's
    board (``daily_place``), and its total counts the turns it never played as 45 each."""
    skill = summary.skill
    average = skill.average
    moved = {e["seat"] for e in rec["events"] if e["type"] in ("throw", "out")}
    result = rec["result"]
    daily = "daily" in rec
    return {
        "name": name,
        "profile": profile,
        "bot": rec["seats"][seat]["bot"],
        "place": daily_place if daily else result["places"][seat],
        "total": result["total"] if daily else result["totals"][seat],
        # Still in at the end without a throw: its total of 0 is no score.
        "no_turn": seat not in moved,
        "turns": summary.turns,
        "jackpots": summary.jackpots,
        "decisions": skill.decisions,
        "best_decisions": skill.best,
        "given_away": float(skill.given_away),
        "given_away_per_decision": None if average is None else float(average),
        "totals_by_round": summary.totals_by_round,
    }


@router.get("/matches/{match_id}/replay", include_in_schema=False)
async def replay_html(match_id: str, request: Request) -> Response:
    actor = await current_actor(request)
    viewer = actor.user_id if actor else None
    async with db_of(request).read() as conn:
        await store.shown_match_row(conn, match_id, viewer)
        rec = await load_record(conn, match_id)
        profiles = [s["profile"] for s in await match_seats(conn, match_id, viewer)]
        owners = [s["user_id"] for s in await store.seat_rows(conn, match_id)]
        daily_place = await _daily_place(conn, match_id) if "daily" in rec else None
    if rec["result"] is not None and rec["server_seed"] is None and "daily" in rec:
        raise ApiError(
            409,
            "day_not_over",
            "the replay of a daily entry opens when its day ends (at midnight UTC), once "
            "the day's seed is published: until then everybody still plays the same dice",
        )
    if rec["result"] is None or rec["server_seed"] is None:
        raise ApiError(
            409,
            "match_not_finished",
            "the replay and its analysis open when the match has ended",
        )
    try:
        review = review_match(rec)
    except ValueError as exc:
        raise ApiError(
            500, "bad_record", "this match's record does not check out: %(why)s", why=str(exc)
        ) from None
    summaries = summarise(review)
    # The record keeps a guest's default name in English; the page says it the reader's way.
    names = [
        shown_name(s["name"]) or gettext("Seat %(n)s", n=i + 1) for i, s in enumerate(rec["seats"])
    ]
    you = owners.index(viewer) if viewer is not None and viewer in owners else None
    measure = measure_of(len(names))
    series = [
        Series(
            names[i],
            [(k + 1, None if v is None else float(v)) for k, v in enumerate(sr.totals_by_round)],
        )
        for i, sr in enumerate(summaries)
    ]
    seats = [
        seat_view(sr, names[i], profiles[i] if i < len(profiles) else None, rec, i, daily_place)
        for i, sr in enumerate(summaries)
    ]
    data = replay_data(review)
    data["names"] = names
    return await render(
        request,
        "replay.html",
        {
            "rec": rec,
            "seats": seats,
            "measure": measure,
            "skill_sentence": skill_sentence(names, summaries, measure, you),
            "rounds": review.rounds,
            "chart": line_chart(
                series,
                label=gettext("Running totals after each round, one line per seat"),
                x_name=gettext("round"),
                y_name=gettext("running total"),
                y_from=0,
            ),
            "legend": legend(series),
            "steps": data["steps"],
            "replay_json": json.dumps(data).replace("<", "\\u003c"),
        },
    )


async def _daily_place(conn: AsyncConnection, match_id: str) -> int | None:
    """A daily entry's final place on its day's board (None until the day closed)."""
    place: int | None = (
        await conn.execute(
            select(daily_entries.c.place).where(daily_entries.c.match_id == match_id)
        )
    ).scalar_one_or_none()
    return place
