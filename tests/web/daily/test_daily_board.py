"""The day's board: best first (more jackpots, then the lower total), equal results
sharing a place, entries still played after the placed ones, pages that join up, and
the viewer's own entry wherever it stands. Entries are written straight into the
database here (as bench/daily_board.py does), so the order is tested on results
chosen to tie."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from daily_helpers import db_of, deals_made, enter, play, player
from sqlalchemy import insert, select

from jackpot import fair
from jackpot.engine import DailyResult, Match, Variant, daily_places, daily_result
from jackpot.web.base.clock import utcnow
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.daily import daily_deals, daily_entries

#: (jackpots, total) of finished entries, in the order they entered; None: still played.
RESULTS: list[tuple[int, int] | None] = [
    (1, 200),
    (2, 150),
    None,
    (1, 180),
    (2, 150),
    (0, 300),
    (2, 140),
    None,
    (1, 200),
    (3, 250),
]


def scores_for(jackpots: int, total: int) -> list[int]:
    """Ten turn scores with ``jackpots`` zeros adding up to ``total`` (spread evenly)."""
    turns = 10 - jackpots
    base, extra = divmod(total, turns)
    scores = [0] * jackpots + [base + (k < extra) for k in range(turns)]
    assert sum(scores) == total and scores.count(0) == jackpots and max(scores) <= 45
    return scores


async def seed(client: Any, day: str) -> dict[str, str]:
    """The board's entries, by name: written as their rows would be."""
    now = utcnow()
    async with db_of(client).read() as conn:
        deal = (
            (
                await conn.execute(
                    select(daily_deals).where(
                        daily_deals.c.day == day, daily_deals.c.variant == "jackpot"
                    )
                )
            )
            .mappings()
            .one()
        )
    names = {}
    async with db_of(client).write() as conn:
        for i, result in enumerate(RESULTS):
            name, match_id = f"Seeded{i}", f"m_{i + 1:016x}"
            names[name] = match_id
            state = Match.new_daily(Variant.JACKPOT).to_dict()
            done = [] if result is None else scores_for(*result)
            if result is None:
                done = [7, 0, 12][: i % 3 + 1]
                state.update(turn_scores=done, round=len(done) + 1, throws=16 * len(done))
            await conn.execute(
                insert(t.matches).values(
                    id=match_id,
                    variant="jackpot",
                    status="playing" if result is None else "finished",
                    seat_count=1,
                    deadline_seconds=None,
                    private=True,
                    created_at=now,
                    server_seed=deal["server_seed"],
                    commitment=deal["commitment"],
                    client_seed=fair.daily_client_seed(day, "jackpot"),
                    state=state,
                    version=1,
                    record_len=0,
                )
            )
            row: dict[str, Any] = {
                "match_id": match_id,
                "day": day,
                "variant": "jackpot",
                "user_id": None,
                "name": name,
                "entered_at": now + timedelta(seconds=i),
                "finished": result is not None,
            }
            if result is not None:
                r = daily_result(done)
                row.update(ending="played", jackpots=r.jackpots, total=r.total, turn_scores=done)
            await conn.execute(insert(daily_entries).values(**row))
    return names


async def test_the_board_in_order(app, make_client) -> None:  # type: ignore[no-untyped-def]
    viewer = await player(make_client, "Viewer")
    day = await deals_made(viewer)
    await seed(viewer, day)
    board = (await viewer.get(f"/api/daily/{day}/jackpot")).json()
    assert board["count"] == 10 and board["finished"] == 8
    placed = [e for e in board["entries"] if e["finished"]]
    playing = [e for e in board["entries"] if not e["finished"]]
    assert board["entries"] == placed + playing  # the entries still played come last
    assert [(e["jackpots"], e["total"]) for e in placed] == [
        (3, 250),
        (2, 140),
        (2, 150),
        (2, 150),
        (1, 180),
        (1, 200),
        (1, 200),
        (0, 300),
    ]
    assert [e["place"] for e in placed] == [1, 2, 3, 3, 5, 6, 6, 8]
    results = [DailyResult(tuple(e["turn_scores"]), e["jackpots"], e["total"]) for e in placed]
    assert [e["place"] for e in placed] == daily_places(results)
    # Equal results: the earlier entry first.
    assert [e["name"] for e in placed[2:4]] == ["Seeded1", "Seeded4"]
    assert [e["name"] for e in placed[5:7]] == ["Seeded0", "Seeded8"]
    assert [e["place"] for e in playing] == [None, None]
    assert [e["name"] for e in playing] == ["Seeded2", "Seeded7"]
    # An entry still played shows its finished turns so far.
    assert playing[0]["turn_scores"] == [7, 0, 12] and playing[0]["jackpots"] == 1
    assert playing[0]["total"] == 19
    # Nobody's dice before the day is over: no entry of others is linked.
    assert all(e["match"] is None for e in board["entries"])
    assert board["you"] is None and board["server_seed"] is None

    # Pages of any size join up into the same board, places and all.
    for size in (1, 2, 3, 4):
        joined = []
        for offset in range(0, 10, size):
            page = (
                await viewer.get(f"/api/daily/{day}/jackpot?offset={offset}&limit={size}")
            ).json()
            assert page["offset"] == offset
            joined += page["entries"]
        assert joined == board["entries"], size
    beyond = (await viewer.get(f"/api/daily/{day}/jackpot?offset=50")).json()
    assert beyond["entries"] == [] and beyond["count"] == 10

    # The viewer enters and gives up at once: 450, last of the placed, and marked.
    mid = await enter(viewer)
    await viewer.post(f"/api/matches/{mid}/resign")
    board = (await viewer.get(f"/api/daily/{day}/jackpot")).json()
    mine = [e for e in board["entries"] if e["you"]]
    assert len(mine) == 1 and mine[0]["place"] == 9 and mine[0]["total"] == 450
    assert mine[0]["match"] == mid and mine[0]["ending"] == "resigned"
    assert board["you"]["place"] == 9 and board["you"]["match"] == mid
    small = (await viewer.get(f"/api/daily/{day}/jackpot?limit=1")).json()
    assert small["you"]["place"] == 9  # wherever it stands, even off the page


async def test_a_board_page_in_the_page(app, make_client) -> None:  # type: ignore[no-untyped-def]
    viewer = await player(make_client)
    day = await deals_made(viewer)
    await seed(viewer, day)
    page = await viewer.get(f"/daily/{day}/jackpot", headers={"accept": "text/html"})
    assert page.status_code == 200
    text = page.text
    assert (
        text.index("Seeded9")
        < text.index("Seeded6")
        < text.index("Seeded5")
        < text.index("Seeded2")
    )
    daily = await viewer.get("/daily", headers={"accept": "text/html"})
    assert daily.status_code == 200 and "Seeded9" in daily.text
    assert 'id="enter-jackpot"' in daily.text
    # Today's commitments stand beside the deals, as the next days' do below them.
    today = (await viewer.get("/api/daily")).json()
    for deal in today["deals"]:
        assert f"<code>{deal['commitment']}</code>" in daily.text
    mid = await enter(viewer)
    await play(viewer, mid, turns=1)
    daily = await viewer.get("/daily", headers={"accept": "text/html"})
    assert 'id="enter-jackpot"' not in daily.text and f'href="/matches/{mid}"' in daily.text
    assert (
        await viewer.get("/daily/2026-02-30/jackpot", headers={"accept": "text/html"})
    ).status_code == 422
