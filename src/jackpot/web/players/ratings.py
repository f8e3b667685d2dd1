"""Ratings (openskill Plackett-Luce), per-seat statistics, and their rebuild.

When a match finishes, ``match_finished`` runs inside the finishing transaction:
it stores every human seat's place (``seat_stats``) and, when two or more people
played, updates their ratings; the seats' figures from the record (turns, choices,
skill) are written by the review after the commit (reviews.py). ``rebuild`` deletes
all of it and runs the very same functions over every finished match in the order
the live ratings were computed, so a rebuild gives the same numbers as the live
updates did.

Choices made here, and why:

* Only people are rated. Bot seats are dropped from the teams and the people are
  ranked by their places, so a bot between two people changes nothing.
* The number shown is ``1000 + 30 * ordinal`` where ordinal = mu - 3 sigma (a
  rating we are 99.7% sure the player is at least). 30 points per unit of mu makes
  a 400-point gap mean about 10 to 1 odds in a two-player match, as in Elo: with
  openskill's default beta (25/6) a mu difference d gives the better player odds
  of about exp(d / 5.9), and 10:1 needs d = 13.6, i.e. 400 / 13.6 = 29.5 points.
  A new player is at 1000; a settled average player (mu 25, sigma near 3) ends
  up near 1500, a number people already read as "average".
* No-shows are not rated: a person who left (resigned or timed out) before their
  first throw is left out of the rating, and when fewer than two people threw at
  least once nobody's rating changes. Their figures (``seat_stats``) and the
  result stay as they are: the match happened, it just says nothing about skill.
* Provisional while sigma > 6.0 (it starts at 8.33). By then the variance has
  halved, which takes 10 to 20 two-player matches (``leaderboard.matches_to_settle``):
  Jackpot is mostly luck, so a handful of results says little about a player.
* Skill apart from the dice (the winning chance a person's decisions gave away,
  match_figures.py) is added up over the same matches as the rating, on the same
  row: the matches between people that moved it. Every seat's own figure is kept in
  ``seat_stats`` whatever the match, as its other figures are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.storage.db import upsert
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables import players as r
from jackpot.web.matches.news import MatchEnd
from jackpot.web.matches.store import match_row
from jackpot.web.matches.store import seat_rows as seat_rows_of
from jackpot.web.matches.views import record_rows
from jackpot.web.players.reviews import queue, review_now

MODEL = PlackettLuce()
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma
PROVISIONAL_SIGMA = 6.0
RATING_BASE = 1000
RATING_SCALE = 30


def display_rating(mu: float, sigma: float) -> int:
    """The one number shown for a rating (see the module docstring)."""
    return round(RATING_BASE + RATING_SCALE * (mu - 3 * sigma))


def is_provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def rate(priors: Sequence[tuple[float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) for people with ``priors`` who finished at ``places`` (1 = best,
    equal places are ties). Each person is a team of one."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in priors]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [(team[0].mu, team[0].sigma) for team in rated]


def outcome(seat: int, winners: Sequence[int]) -> str:
    if seat not in winners:
        return "lost"
    return "won" if len(winners) == 1 else "drew"


async def rate_ended(conn: AsyncConnection, end: MatchEnd) -> None:
    """The end listener (registered by web/wiring.py): a match that was played
    (not one called off before it started) is rated as it ends, and its review
    queued for after the commit (reviews.py)."""
    if end.match is not None:
        left = {seat for seat, why in enumerate(end.match.out) if why is not None}
        at = await match_finished(conn, end.match_id, (end.row, end.seat_rows), left=left)
        if at is not None:
            await queue(conn, end.match_id, at)


async def match_finished(
    conn: AsyncConnection,
    match_id: str,
    written: tuple[Any, Sequence[Any]] | None = None,
    rated_at: datetime | None = None,
    left: set[int] | None = None,
) -> datetime | None:
    """Store the seats' places and update the ratings of a match that just ended;
    returns the time it was rated at (None: nothing stored), for its review.

    Runs in the caller's transaction, so a rating never changes for a match that
    rolled back. Calling it twice for one match would rate it twice: the finisher
    calls it once (``rate_ended``), when the match ends, with the match row and seats
    the ending action has just ``written`` and the seats the engine says ``left`` (not
    read back: on PostgreSQL every statement here is a round trip that the moves
    batched with this one wait through). The seats' figures from the record stay at
    zero here; the review writes them (reviews.py). ``rated_at``: the time the live
    rating took for it, which a rebuild keeps.
    """
    seat_rows: Sequence[Any]
    if written is None:
        row, seat_rows = await match_row(conn, match_id), await seat_rows_of(conn, match_id)
    else:
        row, seat_rows = written
    result = row["result"]
    if not result or row["finished_at"] is None:
        return None
    if row["origin"] == "daily":
        return None  # a daily entry has no places: the day's board ranks it
    people = [s for s in seat_rows if not s["is_bot"]]
    if not any(s["user_id"] is not None for s in people):
        return None
    places: list[int] = result["places"]
    winners: list[int] = result["winners"]
    stats = [
        {
            "match_id": match_id,
            "seat": s["seat"],
            "user_id": s["user_id"],
            "variant": row["variant"],
            "finished_at": row["finished_at"],
            "seats": len(seat_rows),
            "humans": len(people),
            "place": places[s["seat"]],
            "outcome": outcome(s["seat"], winners),
            **NO_FIGURES,
        }
        for s in people
        if s["user_id"] is not None
    ]
    at = rated_at or row["finished_at"]
    rated = _rated(await _who_played(conn, match_id, people, left), stats) if row["rated"] else []
    variant = row["variant"]
    if rated:
        at, claimed = await _claim_order(conn, variant, at, [s["user_id"] for s in rated])
        for s in stats:
            s["finished_at"] = at
    await conn.execute(insert(r.seat_stats), stats)
    if rated:
        await _rate(conn, match_id, variant, at, rated, winners, claimed)
    return at


#: A seat's figures from the record before its review writes them (reviews.py).
NO_FIGURES: dict[str, Any] = {
    "turns": 0,
    "jackpots": 0,
    "score_sum": 0,
    "choices": 0,
    "best_choices": 0,
    "given_away": 0.0,
    "decisions": 0,
    "skill_given_away": 0.0,
}


async def _who_played(
    conn: AsyncConnection, match_id: str, people: Sequence[Any], left: set[int] | None
) -> tuple[set[int], set[int]]:
    """The seats whose person threw at least once, and those that left (resigned or
    timed out). A throw autoplay made is not the person's: where the seat says whether
    its person acted (every match since autoplay) that decides, and the engine's state
    says who left; a match from before autoplay, or the rebuild, reads its record."""
    if left is not None and all(s["acted"] is not None for s in people):
        return {s["seat"] for s in people if s["acted"]}, left
    events = await record_rows(conn, match_id)
    threw = {e["seat"] for e in events if e["kind"] == "throw"}
    for s in people:
        if s["acted"] is None:
            continue
        if s["acted"]:
            threw.add(s["seat"])
        else:
            threw.discard(s["seat"])
    return threw, {e["seat"] for e in events if e["kind"] == "out"}


def _rated(played: tuple[set[int], set[int]], stats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The people whose ratings this match changes: not those who left before their
    first throw, and nobody unless two people or more threw at least once."""
    threw, left = played
    if sum(1 for s in stats if s["seat"] in threw) < 2:
        return []
    return [s for s in stats if s["seat"] in threw or s["seat"] not in left]


#: PostgreSQL advisory lock key that every rating transaction takes first.
RATINGS_LOCK = 0x6A61636B72617465


@dataclass
class Claimed:
    """What ``_claim_order`` read under the lock, for ``_rate``."""

    #: Per user: opted in to the leaderboard.
    opted: dict[int, bool]
    #: Per user: their ``player_ratings`` row in the variant, if they have one.
    current: dict[int, Any]


async def _claim_order(
    conn: AsyncConnection, variant: str, at: datetime, users: list[int]
) -> tuple[datetime, Claimed]:
    """Serialise rating updates of these players, and keep finish order = rating order.

    On PostgreSQL two matches sharing a player may finish at once: the second
    waits, then reads the first's ratings instead of overwriting them. They wait on
    one advisory lock for all rating, not on the players' rows alone: a group
    commit's transaction may rate several matches, whose players no order of row
    locks can keep from crossing another process's batch (each such deadlock cost a
    second, PostgreSQL's deadlock_timeout, to the whole batch). The users' rows are
    then locked FOR NO KEY UPDATE, which, unlike FOR UPDATE, does not wait for the
    KEY SHARE locks that other batches' inserts take through their foreign keys.
    It may also be that the match finishing second started first, with the
    earlier ``finished_at``; rated in finish order, the two would come out the
    other way. So the time a match is rated at (``rating_history.at``, the seats'
    ``seat_stats.finished_at`` and ``last_match_at``) is a microsecond after the
    players' last rated match when its finish time is not later: the stored order
    is the order the ratings were computed in, and the rebuild follows it (the match
    row keeps its own finish time: it is play's). SQLite's single writer never needs
    either, and the statements are harmless there.

    The lock is held until the commit, by every process's rating, so the statements
    after it are few: on PostgreSQL each is a round trip that the batch's other
    moves wait through (docs/benchmarks.md).
    """
    if conn.dialect.name == "postgresql":
        await conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({RATINGS_LOCK})")
    opted = {
        x.id: bool(x.leaderboard)
        for x in (
            await conn.execute(
                select(t.users.c.id, t.users.c.leaderboard)
                .where(t.users.c.id.in_(users))
                .order_by(t.users.c.id)
                .with_for_update(key_share=True)
            )
        ).all()
    }
    current = {
        x.user_id: x
        for x in (
            await conn.execute(
                select(r.player_ratings).where(
                    r.player_ratings.c.variant == variant, r.player_ratings.c.user_id.in_(users)
                )
            )
        ).all()
    }
    last = max((x.last_match_at for x in current.values() if x.last_match_at), default=None)
    if last is not None and last >= at:
        at = last + timedelta(microseconds=1)
    return at, Claimed(opted, current)


#: Counts a rated match adds to a player's row; the other columns take the new values.
ADDED = ("matches", "wins", "turns", "jackpots", "score_sum")


async def _rate(
    conn: AsyncConnection,
    match_id: str,
    variant: str,
    at: datetime,
    stats: list[dict[str, Any]],
    winners: Sequence[int],
    claimed: Claimed,
) -> None:
    users = [s["user_id"] for s in stats]
    current = claimed.current
    priors = [
        (current[u].mu, current[u].sigma) if u in current else (START_MU, START_SIGMA)
        for u in users
    ]
    posts = rate(priors, [s["place"] for s in stats])
    rows = []
    history = []
    for s, (mu, sigma) in zip(stats, posts, strict=True):
        u = s["user_id"]
        shown = display_rating(mu, sigma)
        provisional = is_provisional(sigma)
        # Skill is summed here, from the row read under the lock, because the average
        # kept beside it (for the leaderboard's index) needs the new totals.
        prior = current.get(u)
        decisions = s["decisions"] + (prior.decisions if prior is not None else 0)
        given_away = (prior.skill_given_away if prior is not None else 0.0) + s[
            "skill_given_away"
        ]
        rows.append(
            {
                "user_id": u,
                "variant": variant,
                "mu": mu,
                "sigma": sigma,
                "rating": shown,
                "provisional": provisional,
                "listed": claimed.opted.get(u, False) and not provisional,
                "last_match_at": at,
                # A new row's counts; an existing row adds them to its own.
                "matches": 1,
                "wins": 1 if s["seat"] in winners else 0,
                "turns": s["turns"],
                "jackpots": s["jackpots"],
                "score_sum": s["score_sum"],
                "decisions": decisions,
                "skill_given_away": given_away,
                "skill": given_away / decisions if decisions else None,
            }
        )
        history.append(
            {
                "user_id": u,
                "variant": variant,
                "match_id": match_id,
                "at": at,
                "mu": mu,
                "sigma": sigma,
                "rating": shown,
            }
        )
    await conn.execute(upsert(conn, r.player_ratings, ("user_id", "variant"), ADDED), rows)
    await conn.execute(insert(r.rating_history), history)


async def set_listed(conn: AsyncConnection, user_id: int, opted_in: bool) -> None:
    """Keep the leaderboard's ``listed`` flag in step with the account's opt-in."""
    await conn.execute(
        update(r.player_ratings)
        .where(r.player_ratings.c.user_id == user_id)
        .values(listed=opted_in and r.player_ratings.c.provisional.is_(False))
    )


async def rebuild(conn: AsyncConnection) -> int:
    """Recompute every rating and seat figure from the stored records; returns the
    number of finished matches read. Deterministic: the order the live ratings were
    computed in (``rating_history.at``), then finish time, then id, for the rest."""
    rated_at = {
        match_id: at
        for match_id, at in (
            await conn.execute(
                select(r.rating_history.c.match_id, func.min(r.rating_history.c.at)).group_by(
                    r.rating_history.c.match_id
                )
            )
        ).all()
    }
    await conn.execute(delete(r.pending_reviews))
    await conn.execute(delete(r.rating_history))
    await conn.execute(delete(r.player_ratings))
    await conn.execute(delete(r.seat_stats))
    finished = (
        await conn.execute(
            select(t.matches.c.id, t.matches.c.finished_at).where(
                t.matches.c.status == "finished",
                t.matches.c.result.is_not(None),
                t.matches.c.finished_at.is_not(None),
            )
        )
    ).all()
    for match_id, finished_at in sorted(
        finished, key=lambda m: (rated_at.get(m.id, m.finished_at), m.id)
    ):
        if await match_finished(conn, match_id, rated_at=rated_at.get(match_id, finished_at)):
            await review_now(conn, match_id)
    return len(finished)
