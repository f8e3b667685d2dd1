"""The analysis board's routes: ``GET /api/analysis`` and the page ``/analysis``.

Anyone may ask: a stated position involves no match and nobody's hidden dice. An
answer is a few table lookups (every table is built at start-up, ``warm_up``), so
it costs about as much as any page; a request that arrives while the tables are
still being built waits for them rather than building them on the event loop.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from jackpot.web.analysis.answer import board_answer
from jackpot.web.analysis.position import FIELDS, ONLY_IN, FieldError, read_position
from jackpot.web.base.edge.templates import render
from jackpot.web.base.errors import already_said

router = APIRouter()

#: The page's first position: a full Jackpot board before the first throw, alone.
FIRST = {"variant": "jackpot", "open": "1,2,3,4,5,6,7,8,9"}


async def _tables(request: Request) -> None:
    """Wait for the start-up's tables, if they are still being built."""
    ready = getattr(request.app.state, "tables_ready", None)
    if ready is not None and not ready.done():
        await asyncio.shield(ready)


@router.get("/api/analysis")
async def analysis_api(
    request: Request,
    variant: str | None = Query(
        None, description="jackpot or classic", json_schema_extra={"enum": ["jackpot", "classic"]}
    ),
    open_tiles: str | None = Query(
        None,
        alias="open",
        description="the open tiles, such as 1,2,5 (or 125)",
        json_schema_extra={"pattern": "^[1-9](,?[1-9]){0,8}$"},
    ),
    dice: str | None = Query(
        None,
        description="the throw, such as 3,4; one die (Classic, once 7, 8 and 9 are "
        "covered) such as 5; none for the odds before the throw",
        json_schema_extra={"pattern": "^([1-6](,?[1-6])?)?$"},
    ),
    seats: str | None = Query(
        None, description="Jackpot: the seats still in, yours included (1 to 4; 1: alone)"
    ),
    shut: str | None = Query(
        None, description="Jackpot: the seats before yours that shut the box this round"
    ),
    beat: str | None = Query(
        None, description="Classic: the lowest score among the seats before yours (1 to 45)"
    ),
    holders: str | None = Query(
        None, description="Classic: how many seats before yours are on that score (1 to 3)"
    ),
    after: str | None = Query(
        None, description="the seats still to play after yours this round (0 to 3)"
    ),
) -> dict[str, Any]:
    """The exact odds of any position, as ``GET /api/matches/{id}/odds`` gives a
    match's: the chance of shutting the box this turn (``p_shut_exact``, and per
    option ``p_exact``), the lowest expected score (``expected_score``), and where
    other seats play (``measure`` "match") the chances to win the match, of a draw
    and the equity, for the position and for each choice: the throw's covers
    (``options``) or, in Classic once 7, 8 and 9 are covered and before the throw,
    one die or two (``dice_options``), best first. Exact values are fractions such
    as "14103327415/176319369216"; the ``_text`` fields are percentages in the
    reader's language.

    Each field refused answers 422 with the code ``bad_<field>`` and a message that
    starts with the field's name.
    """
    query = {
        "variant": variant,
        "open": open_tiles,
        "dice": dice,
        "seats": seats,
        "shut": shut,
        "beat": beat,
        "holders": holders,
        "after": after,
    }
    try:
        position = read_position(query)
    except FieldError as refused:
        raise already_said(
            422, f"bad_{refused.field}", f"{refused.field}: {refused.message}"
        ) from None
    await _tables(request)
    return board_answer(position)


def page_query(request: Request) -> dict[str, str]:
    """The page's fields as the board reads them: the form sends a checkbox per open
    tile and a list per die, and both variants' fields, of which the variant's count
    (and the holders of a score to beat only with a score to beat)."""
    params = request.query_params
    if not any(params.get(f) for f in FIELDS):
        return {**dict.fromkeys(FIELDS, ""), **FIRST}
    query = {f: params.get(f) or "" for f in FIELDS}
    for listed in ("open", "dice"):
        query[listed] = ",".join(v.strip() for v in params.getlist(listed) if v.strip())
    variant = query["variant"].lower()
    for field, only in ONLY_IN.items():
        if variant in ("jackpot", "classic") and only != variant:
            query[field] = ""
    if not query["beat"]:
        # The list of how many hold the score to beat always sends a number.
        query["holders"] = ""
    return query


def form_values(query: dict[str, str]) -> dict[str, Any]:
    """What the form shows as chosen: what was asked, read leniently (a refused
    field shows as it can)."""
    digits = [c for c in query["dice"] if c.isascii() and c.isdigit()]
    return {
        **query,
        "open_set": {int(c) for c in query["open"] if c.isascii() and c.isdigit()},
        "die1": digits[0] if digits else "",
        "die2": digits[1] if len(digits) > 1 else "",
    }


@router.get("/analysis", include_in_schema=False)
async def analysis_page(request: Request) -> Response:
    query = page_query(request)
    answer = None
    error: FieldError | None = None
    try:
        position = read_position(query)
    except FieldError as refused:
        error = refused
    else:
        await _tables(request)
        answer = board_answer(position)
    return await render(
        request,
        "analysis.html",
        {"form": form_values(query), "answer": answer, "error": error},
        status=422 if error else 200,
    )
