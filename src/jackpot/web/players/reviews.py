"""A match end's review, written after its commit: the seats' figures from its record.

What a match's end needs to be right (its result, places and ratings) is written in
the transaction that ends it (ratings.py). The review (the record read back and
walked by ``review_match``: turns, jackpots, choice accuracy and the match equity each
decision gave away) costs several milliseconds of CPU and reads the whole record;
inside the ending transaction it held the write batch, and every move batched with
it, for that long (docs/benchmarks.md, "A match end's write batch"). So the ending
transaction queues the match (``queue``) and a background step writes its figures
after the commit (``review_pass``), a pass every sweep interval: visible within a
second or so.

A pass takes the queue's oldest rows with a lease (``claim_due``), reads and reviews
them outside any write transaction, then writes each match's figures in the
transaction that deletes its row: a match's figures are added exactly once, by the
pass that still holds its claim. A pass that fails gives its claims back at once, and
one whose process died leaves them to run out (``LEASE``): either way the next pass
takes them again, until they are done. The rating rows' counts (turns, jackpots,
scores, decisions and their average) are added here too, so a player's totals are
the sum of their seats' figures, as the rebuild (ratings.py) writes them.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Float, Integer, and_, bindparam, case, delete, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.fair.match_review import review_match
from jackpot.web.base.settings import Settings
from jackpot.web.base.steps import Step
from jackpot.web.base.storage.db import Database
from jackpot.web.base.tables import players as r
from jackpot.web.matches.store import match_row, seat_rows
from jackpot.web.matches.tournament_records import with_table
from jackpot.web.matches.views import record_of, record_rows
from jackpot.web.players.match_figures import SeatSummary, summarise

log = logging.getLogger("jackpot.web.reviews")
p = r.pending_reviews

#: Matches a pass takes at most: their reviews run one after the other on the
#: loop, each yielding to it, and are written in one transaction.
BATCH = 50
#: How long a pass's claim keeps other passes off its matches; a claim left by a
#: process that died is taken again once it runs out.
LEASE = timedelta(seconds=30)


async def queue(conn: AsyncConnection, match_id: str, at: datetime) -> None:
    """In the ending transaction: the match's review is to be written after it commits.
    ``at``: the time it was rated at, which orders the reviews as the ratings were."""
    await conn.execute(insert(p).values(match_id=match_id, queued_at=at))


def figures(match_id: str, record: dict[str, Any], seats: int) -> list[SeatSummary]:
    """Each seat's figures from the match's record. A record the review cannot read
    leaves every seat's figures at zero (and says so in the log) rather than never
    letting the review be done: the result and the ratings stand without them."""
    try:
        return summarise(review_match(record))
    except Exception:
        log.exception("could not review match %s for its figures", match_id)
        return [SeatSummary() for _ in range(seats)]


async def read_record(conn: AsyncConnection, match_id: str) -> tuple[dict[str, Any], int]:
    """The match's public record as its rows hold it, and its number of seats."""
    row = await match_row(conn, match_id)
    seats = await seat_rows(conn, match_id)
    record = record_of(row, seats, await record_rows(conn, match_id))
    # A tournament table's record names its round: the one a round's end cut short
    # reads only with it.
    return await with_table(conn, row, record), len(seats)


#: One seat's figures, written over the zeros the ending transaction left.
_SEAT = (
    update(r.seat_stats)
    .where(r.seat_stats.c.match_id == bindparam("m"), r.seat_stats.c.seat == bindparam("s"))
    .values(
        turns=bindparam("turns"),
        jackpots=bindparam("jackpots"),
        score_sum=bindparam("score_sum"),
        choices=bindparam("choices"),
        best_choices=bindparam("best_choices"),
        given_away=bindparam("given_away", type_=Float),
        decisions=bindparam("decisions"),
        skill_given_away=bindparam("skill_given_away", type_=Float),
    )
)

_pr = r.player_ratings.c
_d = bindparam("d", type_=Integer)
_g = bindparam("g", type_=Float)
#: A rated seat's figures added to its player's totals in the variant, with the
#: average per decision that the leaderboard sorts by kept in step (NULL before the
#: first decision), as ratings.py's upsert leaves it.
_RATING = (
    update(r.player_ratings)
    .where(_pr.user_id == bindparam("u"), _pr.variant == bindparam("v"))
    .values(
        turns=_pr.turns + bindparam("turns", type_=Integer),
        jackpots=_pr.jackpots + bindparam("jackpots", type_=Integer),
        score_sum=_pr.score_sum + bindparam("score_sum", type_=Integer),
        decisions=_pr.decisions + _d,
        skill_given_away=_pr.skill_given_away + _g,
        skill=case((_pr.decisions + _d > 0, (_pr.skill_given_away + _g) / (_pr.decisions + _d))),
    )
)


async def write_figures(
    conn: AsyncConnection, match_id: str, summaries: Sequence[SeatSummary]
) -> None:
    """Write a reviewed match's figures: its people's seats, and the totals of those
    its end rated (``rating_history`` names them)."""
    seats = [
        {
            "m": match_id,
            "s": seat,
            "turns": sr.turns,
            "jackpots": sr.jackpots,
            "score_sum": sr.score_sum,
            "choices": sr.choices,
            "best_choices": sr.best_choices,
            "given_away": float(sr.shut_given_away),
            "decisions": sr.skill.decisions,
            "skill_given_away": float(sr.skill.given_away),
        }
        for seat, sr in enumerate(summaries)
    ]
    if not seats:
        return
    await conn.execute(_SEAT, seats)
    h, s = r.rating_history, r.seat_stats
    rated = (
        await conn.execute(
            select(h.c.user_id, h.c.variant, s.c.seat)
            .join(s, and_(s.c.match_id == h.c.match_id, s.c.user_id == h.c.user_id))
            .where(h.c.match_id == match_id)
        )
    ).all()
    totals = [
        {
            "u": user_id,
            "v": variant,
            "turns": summaries[seat].turns,
            "jackpots": summaries[seat].jackpots,
            "score_sum": summaries[seat].score_sum,
            "d": summaries[seat].skill.decisions,
            "g": float(summaries[seat].skill.given_away),
        }
        for user_id, variant, seat in rated
        if seat < len(summaries)
    ]
    if totals:
        await conn.execute(_RATING, totals)


async def review_now(conn: AsyncConnection, match_id: str) -> None:
    """Review a match and write its figures in the caller's transaction (the rebuild)."""
    record, seats = await read_record(conn, match_id)
    await write_figures(conn, match_id, figures(match_id, record, seats))


def _free(now: datetime) -> Any:
    return or_(p.c.claimed_until.is_(None), p.c.claimed_until < now)


async def claim_due(db: Database, now: datetime) -> tuple[str, list[str]]:
    """Take the oldest queued matches no live claim holds: this pass's claim token
    and the matches it now holds, oldest first."""
    async with db.read() as conn:
        due = (
            await conn.execute(
                select(p.c.match_id)
                .where(_free(now))
                .order_by(p.c.queued_at, p.c.match_id)
                .limit(BATCH)
            )
        ).scalars().all()
    if not due:
        return "", []
    token = secrets.token_hex(16)
    async with db.write() as conn:
        await conn.execute(
            update(p)
            .where(p.c.match_id.in_(due), _free(now))
            .values(claim=token, claimed_until=now + LEASE)
        )
    async with db.read() as conn:
        held = (
            await conn.execute(
                select(p.c.match_id)
                .where(p.c.claim == token)
                .order_by(p.c.queued_at, p.c.match_id)
            )
        ).scalars().all()
    return token, list(held)


async def review_pass(db: Database, now: datetime | None = None) -> int:
    """Review the oldest queued matches and write their figures; returns how many."""
    token, held = await claim_due(db, now or datetime.now(UTC))
    if not held:
        return 0
    try:
        records = []
        async with db.read() as conn:
            for match_id in held:
                records.append((match_id, *await read_record(conn, match_id)))
        reviewed = []
        for match_id, record, seats in records:
            reviewed.append((match_id, figures(match_id, record, seats)))
            await asyncio.sleep(0)  # a review is milliseconds: let the moves through
        done = 0
        async with db.write() as conn:
            for match_id, summaries in reviewed:
                mine = and_(p.c.match_id == match_id, p.c.claim == token)
                gone = await conn.execute(delete(p).where(mine))
                if gone.rowcount:
                    await write_figures(conn, match_id, summaries)
                    done += 1
        return done
    except Exception:
        # Give the claims back: the next pass takes them again at once.
        async with db.write() as conn:
            await conn.execute(
                update(p).where(p.c.claim == token).values(claim=None, claimed_until=None)
            )
        raise


def review_steps(db: Database, settings: Settings) -> list[Step]:
    """players/' background step: the ended matches' reviews, every sweep interval."""
    return [Step("match reviews", settings.sweep_interval, lambda: review_pass(db))]
