"""A tournament's rounds: the start, each round paired and seated, a table's end, the finish.

A round is paired from the standings (engine/pairing.py) the moment the last match of
the round before ends: the end listener ``table_ended`` (registered in web/wiring.py)
writes the table's places in the transaction that ends its match, and, when it was
the round's last, pairs the next round there too. Each table is a match made by
play/'s ``new_match``, with origin ``tournament``, its players seated in joining
order with their client seeds, and its server seed made of their parts with the
round and table (fair/parts.py). Every change to a tournament's rounds happens under
its row's lock, so two of its matches ending at once take turns.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.engine import Result, Variant, pair_round
from jackpot.fair.parts import TournamentTable, seed_from_parts
from jackpot.web.accounts.blocks import blocked_pairs
from jackpot.web.base.identity import Actor
from jackpot.web.base.tables.players import player_ratings
from jackpot.web.base.tables.tournaments import (
    tournament_apart,
    tournament_entries,
    tournament_rounds,
    tournament_tables,
    tournaments,
)
from jackpot.web.matches.news import MatchEnd
from jackpot.web.matches.origin import Origin, tournament_rules
from jackpot.web.play.new_match import MatchSpec, Person, new_match
from jackpot.web.players.ratings import START_MU, START_SIGMA, display_rating
from jackpot.web.tournaments.news import tell_seated
from jackpot.web.tournaments.store import Tournament, changed, load

#: The rating a player without one in the variant starts the tournament with.
NEWCOMER_RATING = float(display_rating(START_MU, START_SIGMA))


async def start(conn: AsyncConnection, tournament_id: str, now: datetime) -> bool:
    """Close the entries and pair round 1, under the tournament's lock; False if it
    had started already. With fewer than two entries it ends at once, unplayed."""
    t = await load(conn, tournament_id, lock=True)
    if t.row["status"] != "entering":
        return False
    e = tournament_entries
    people = [x.user_id for x in t.entries]
    ratings = {
        r.user_id: float(r.rating)
        for r in await conn.execute(
            select(player_ratings.c.user_id, player_ratings.c.rating).where(
                player_ratings.c.variant == t.row["variant"],
                player_ratings.c.user_id.in_(people),
            )
        )
    }
    if people:
        await conn.execute(
            update(e)
            .where(e.c.tournament_id == t.id, e.c.user_id == bindparam("uid"))
            .values(number=bindparam("at"), rating=bindparam("rated")),
            [
                {"uid": uid, "at": n, "rated": ratings.get(uid, NEWCOMER_RATING)}
                for n, uid in enumerate(people)
            ],
        )
    if len(people) < 2:
        await conn.execute(
            update(tournaments)
            .where(tournaments.c.id == t.id)
            .values(status="finished", started_at=now, finished_at=now, round_ends_at=None)
        )
        await changed(conn, t.id)
        return True
    await conn.execute(
        update(tournaments).where(tournaments.c.id == t.id).values(status="playing", started_at=now)
    )
    await advance(conn, tournament_id, now)
    return True


async def advance(conn: AsyncConnection, tournament_id: str, now: datetime) -> None:
    """Pair every round that can be paired now (a round nobody can play is over at
    once), or finish the tournament after its last; under the tournament's lock."""
    while True:
        t = await load(conn, tournament_id, lock=True)
        if t.row["status"] != "playing" or t.last_complete() < t.round:
            return
        if t.round >= t.row["rounds"]:
            await _finish(conn, t, now)
            return
        await _pair(conn, t, t.round + 1, now)


async def _pair(conn: AsyncConnection, t: Tournament, r: int, now: datetime) -> None:
    """Round ``r``: the pairs kept apart brought up to date, the pairing, one match
    per table, and everybody at a table told."""
    await _keep_apart(conn, t, r)
    pairing = pair_round(
        t.entrants(),
        t.played(r - 1),
        int(t.row["table_size"]),
        withdrawn=t.withdrawn_before(r),
        apart=t.apart_from(r),
    )
    ends_at = now + timedelta(seconds=int(t.row["round_seconds"]))
    await conn.execute(
        insert(tournament_rounds).values(
            tournament_id=t.id, round=r, paired_at=now, ends_at=ends_at, byes=list(pairing.byes)
        )
    )
    for number, players in enumerate(pairing.tables, start=1):
        match_id = await _seat_table(conn, t, r, number, players, now)
        await conn.execute(
            insert(tournament_tables).values(
                tournament_id=t.id,
                round=r,
                table=number,
                match_id=match_id,
                players=list(players),
                places=None,
            )
        )
        await tell_seated(conn, t.id, r, match_id, [t.entries[p].user_id for p in players], now)
    await conn.execute(
        update(tournaments).where(tournaments.c.id == t.id).values(round=r, round_ends_at=ends_at)
    )
    await changed(conn, t.id)


def table_spec(t: Tournament, r: int, table: int, players: tuple[int, ...]) -> MatchSpec:
    """The match of round ``r``'s table ``table``: the one place where a table's seats,
    seeds, deadline, spares and rules are fixed. Its players sit in joining order,
    each with their client seed; its server seed is made of their parts, in the same
    order, with the round and table. The match is given the seed alone, not the parts:
    a part serves every table its player sits at, so it stays with the tournament
    until the tournament ends, and the record shows it from there
    (matches/tournament_records.py), while the match row would show it at the
    table's end."""
    entries = [t.entries[p] for p in players]
    seed = seed_from_parts([e.part for e in entries], TournamentTable(t.id, r, table))
    return MatchSpec(
        Variant(t.row["variant"]),
        people=[
            Person(Actor(e.user_id, e.name, False), e.client_seed, e.seed_by_server)
            for e in entries
        ],
        deadline_seconds=int(t.row["deadline_seconds"]),
        spares=int(t.row["spares"]),
        private=bool(t.row["private"]),
        server_seed=seed,
        origin=Origin("tournament", t.id),
        rules=tournament_rules(bool(t.row["private"])),
    )


async def _seat_table(
    conn: AsyncConnection,
    t: Tournament,
    r: int,
    table: int,
    players: tuple[int, ...],
    now: datetime,
) -> str:
    out = await new_match(conn, table_spec(t, r, table, players), now)
    return out.match_id


async def _keep_apart(conn: AsyncConnection, t: Tournament, r: int) -> None:
    """Blocks made between entrants since the last round keep them apart from this one."""
    still_in = [e for e in t.entries if e.number not in t.withdrawn_before(r)]
    number = {e.user_id: e.number for e in still_in if e.number is not None}
    known = {frozenset((a, b)) for a, b, _ in t.apart}
    new: list[dict[str, Any]] = []
    for pair in await blocked_pairs(conn, number):
        a, b = sorted(number[u] for u in pair)
        if frozenset((a, b)) not in known:
            new.append({"tournament_id": t.id, "a": a, "b": b, "from_round": r})
            t.apart.append((a, b, r))
    if new:
        await conn.execute(insert(tournament_apart), new)


async def _finish(conn: AsyncConnection, t: Tournament, now: datetime) -> None:
    """After the last round: the final places, and the tournament finished (its parts
    are shown from now on)."""
    e = tournament_entries
    order = t.standings()
    if order:
        await conn.execute(
            update(e)
            .where(e.c.tournament_id == t.id, e.c.number == bindparam("at"))
            .values(place=bindparam("placed")),
            [{"at": s.player, "placed": s.rank} for s in order],
        )
    await conn.execute(
        update(tournaments)
        .where(tournaments.c.id == t.id)
        .values(status="finished", finished_at=now, round_ends_at=None)
    )
    await changed(conn, t.id)


async def table_ended(conn: AsyncConnection, end: MatchEnd) -> None:
    """The end listener (web/wiring.py): a tournament table that ends keeps its
    places (in joining order), and the round's last pairs the next round."""
    if end.row is None or end.row["origin"] != "tournament" or end.match is None:
        return
    result = end.match.result
    if not isinstance(result, Result):
        return
    tournament_id = str(end.row["origin_id"])
    # The lock first: two tables ending at once take turns, and the second sees the first.
    await load_lock(conn, tournament_id)
    places_by_joined = {int(s["joined"]): int(result.places[int(s["seat"])]) for s in end.seat_rows}
    tt = tournament_tables
    await conn.execute(
        update(tt)
        .where(tt.c.match_id == end.match_id)
        .values(places=[places_by_joined[j] for j in sorted(places_by_joined)])
    )
    await advance(conn, tournament_id, end.now)
    await changed(conn, tournament_id)


async def load_lock(conn: AsyncConnection, tournament_id: str) -> None:
    await conn.execute(
        select(tournaments.c.id).where(tournaments.c.id == tournament_id).with_for_update()
    )
