"""A new match: its row and seats as a feature asks for them, and its start once all are taken.

Every match is made here, whoever asks: the new-match form and the API
(seating.create_match, which checks what a person chose), a rematch, and any
feature that seats people itself (a daily entry, people paired by a seek, a
challenge accepted). A ``MatchSpec`` says what the match is: its seats (people
already seated, free seats for people to join, bots), its deadline, its server seed
(made here unless the creator was shown one already), how long that seed stays
hidden after the end, how the engine starts it, and where it comes from with the
rules that follow (rated, rematch, watch list: matches/origin.py). A match with no free seat
starts at once: the client seed is fixed, the order of play and the bots' strengths
are drawn from the seeds, and bots move if the first seat is one.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import case, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot import fair
from jackpot.engine import Match, Variant
from jackpot.web.base.errors import conflict
from jackpot.web.base.identity import Actor
from jackpot.web.base.quotas import MatchCap, check_seated
from jackpot.web.base.storage.db import publish_on_commit
from jackpot.web.base.tables import core as t
from jackpot.web.matches.origin import BETWEEN_PEOPLE, BY_PEOPLE, MatchRules, Origin
from jackpot.web.matches.store import match_row, seat_rows
from jackpot.web.matches.views import autoplay_of
from jackpot.web.play.lobby import ping_lobby
from jackpot.web.play.move_plan import MovePlan
from jackpot.web.play.outcome import Outcome
from jackpot.web.play.parts import seed_by, seed_of_parts
from jackpot.web.play.storage.match_sql import Driver, on_driver
from jackpot.web.play.transaction import changed_meanwhile, load_match, save, settle

_INSERT_EVENTS = insert(t.match_events)

#: Autoplay is on by default only where a move can wait a long time: between people,
#: an hour or more a throw (docs/autoplay.md).
AUTOPLAY_MIN_DEADLINE = 3600


@dataclass(frozen=True)
class Person:
    """A person seated when the match is made, with their part of the client seed
    (checked by the caller: parts.own_seed)."""

    actor: Actor
    client_seed: str
    #: The person sent none and the server made it (play/parts.py's ``own_seed``): the
    #: record marks the seat's part as the server's.
    seed_by_server: bool = False


@dataclass(frozen=True)
class MatchSpec:
    """What a new match is. ``people`` sit in seats 0, 1, ... in the order given (the
    first is the creator, and the joining order is theirs); ``free`` seats follow for
    people to join, then ``bots``."""

    variant: Variant
    people: Sequence[Person]
    #: Seconds for each throw; None: no clock per throw (a daily entry).
    deadline_seconds: int | None
    free: int = 0
    bots: int = 0
    private: bool = True
    #: When a match still waiting for people is called off (None: it never waits).
    expires_at: datetime | None = None
    #: The pending seed whose commitment the creator was shown (None: made here).
    server_seed: str | None = None
    #: A match made for several people at once: one part per person in joining order
    #: (play/parts.py), whose hash is the server seed; ``table``: a tournament table's
    #: round and table, hashed after the parts.
    parts: Sequence[str] = ()
    table: fair.TournamentTable | None = None
    #: Until when the seed stays hidden after the end (matches/disclosure.py).
    seed_hidden_until: datetime | None = None
    #: The engine's first state for the variant and the number of seats (None: a
    #: new match with ``spares``).
    first_state: Callable[[Variant, int], Match] | None = None
    #: When the match's one clock runs out, whatever is played (a daily entry: its
    #: day's close), for a match with no clock per throw; the sweeper and a late move
    #: end it then as they do a throw whose deadline passed.
    closes_at: datetime | None = None
    #: A daily entry's dice: "by-position" (fair.BY_POSITION) when each throw follows
    #: its turn and open tiles; None: by the throw's number, as every other match.
    dice: str | None = None
    #: What made the match, and the rules that follow (matches/origin.py).
    origin: Origin = BY_PEOPLE
    rules: MatchRules = BETWEEN_PEOPLE
    #: The cap on matches waiting or in play checked for every person seated here
    #: (None: none, for a rematch, which follows a finished match, and a daily entry,
    #: one a day).
    cap: MatchCap | None = None
    #: The spare deadlines each seat is given (0 to 5; docs/fair-play.md): a passed
    #: deadline uses one before it puts the seat out. Bots never wait for one.
    spares: int = 0

    @property
    def seats(self) -> int:
        return len(self.people) + self.free + self.bots


async def new_match(conn: AsyncConnection, spec: MatchSpec, now: datetime) -> Outcome:
    """Make the match ``spec`` describes, in the caller's transaction; it starts at
    once when no seat is free. Its live events go out once the transaction commits.
    The cap on matches (``spec.cap``) is checked here, for everyone seated, so no
    way of making a match passes it."""
    if spec.cap is not None:
        await check_seated(
            conn, [(p.actor.user_id, p.actor.name, p.actor.is_guest) for p in spec.people],
            spec.cap,
        )
    kept_parts = None
    if spec.parts:
        server_seed, kept_parts = seed_of_parts(spec.parts, spec.table)
    else:
        server_seed = spec.server_seed or secrets.token_hex(32)
    match_id = "m_" + secrets.token_hex(8)
    await conn.execute(
        insert(t.matches).values(
            id=match_id,
            variant=spec.variant.value,
            status="waiting",
            seat_count=spec.seats,
            deadline_seconds=spec.deadline_seconds,
            private=spec.private,
            creator_id=spec.people[0].actor.user_id,
            created_at=now,
            server_seed=server_seed,
            commitment=fair.commitment(server_seed),
            version=0,
            record_len=0,
            expires_at=spec.expires_at if spec.free else None,
            seed_hidden_until=spec.seed_hidden_until,
            due_at=spec.closes_at,
            origin=spec.origin.kind,
            origin_id=spec.origin.id,
            rated=spec.rules.rated,
            offers_rematch=spec.rules.offers_rematch,
            on_watch=spec.rules.on_watch,
            parts=kept_parts,
            dice=spec.dice,
            spares=spec.spares,
        )
    )
    people: list[dict[str, Any]] = [
        {
            "user_id": p.actor.user_id,
            "name": p.actor.name,
            "client_seed": p.client_seed,
            "seed_by": seed_by(p.seed_by_server),
        }
        for p in spec.people
    ]
    none: dict[str, Any] = {"client_seed": None, "seed_by": None}
    free: list[dict[str, Any]] = [{"user_id": None, "name": None, **none}] * spec.free
    bots: list[dict[str, Any]] = [
        {"user_id": None, "name": "Bot" if spec.bots == 1 else f"Bot {b + 1}", **none}
        for b in range(spec.bots)
    ]
    await conn.execute(
        insert(t.seats),
        [
            {"match_id": match_id, "seat": seat, "is_bot": seat >= spec.seats - spec.bots, **row}
            for seat, row in enumerate([*people, *free, *bots])
        ],
    )
    out = Outcome(match_id)
    if not spec.free:
        await start(conn, match_id, now, out, spec.first_state)
    elif not spec.private:
        ping_lobby(conn)  # a new match waits there
    return out


async def start(
    conn: AsyncConnection,
    match_id: str,
    now: datetime,
    out: Outcome,
    first_state: Callable[[Variant, int], Match] | None = None,
) -> None:
    """All seats are filled: fix the client seed, draw the order of play and the bots'
    strengths, and let bots move if the first seat is one. ``first_state``: the
    engine's first state (None: a new match with the spares the row gives)."""
    row = await match_row(conn, match_id)
    seats_in = await seat_rows(conn, match_id)
    client_seed = fair.combine_client_seeds(
        [s["client_seed"] for s in seats_in if not s["is_bot"]]
    )
    joined = fair.order_of_play(
        row["server_seed"],
        client_seed,
        len(seats_in),
        people=sum(1 for s in seats_in if not s["is_bot"]),
    )
    await _seat_in_order(conn, match_id, joined)
    await _autoplay_at_start(conn, row, seats_in)
    for place, index in enumerate(joined):
        if seats_in[index]["is_bot"]:
            strength = fair.bot_strength(row["server_seed"], client_seed, place)
            await conn.execute(
                update(t.seats)
                .where(t.seats.c.match_id == match_id, t.seats.c.seat == place)
                .values(strength=str(strength))
            )
    await conn.execute(
        update(t.matches)
        .where(t.matches.c.id == match_id)
        .values(status="playing", started_at=now, client_seed=client_seed)
    )
    if first_state is None:
        m = Match.new(Variant(row["variant"]), row["seat_count"], spares=row["spares"])
    else:
        m = first_state(Variant(row["variant"]), row["seat_count"])

    def first_turn(db: Driver) -> MovePlan:
        plan = MovePlan(*load_match(db, match_id, lock=False), m, now)
        plan.live.append(
            {
                "type": "started",
                "client_seed": client_seed,
                "joined": list(joined),
                "autoplay": [autoplay_of(s) for s in plan.seat_rows],
            }
        )
        plan.became_due = True
        plan.run_bots()
        if not save(db, plan):
            raise changed_meanwhile()
        return plan

    started = await settle(conn, await on_driver(conn, first_turn))
    out.events.extend(started.events)


async def _autoplay_at_start(conn: AsyncConnection, row: Any, seats_in: list[Any]) -> None:
    """Fix each person's autoplay in this match from their account's default (on unless
    they switched it off) in a match between people with an hour or more a throw; off
    in bot, solo and short matches. The match page may switch it for this match."""
    people = [s for s in seats_in if not s["is_bot"]]
    by_default = len(people) >= 2 and row["deadline_seconds"] >= AUTOPLAY_MIN_DEADLINE
    chosen = {
        u.id: (u.autoplay_throws is not False, u.autoplay_covers is not False)
        for u in (
            await conn.execute(
                select(t.users.c.id, t.users.c.autoplay_throws, t.users.c.autoplay_covers).where(
                    t.users.c.id.in_([s["user_id"] for s in people])
                )
            )
        ).all()
    }
    for s in people:
        throws, covers = chosen.get(s["user_id"], (True, True)) if by_default else (False, False)
        await conn.execute(
            update(t.seats)
            .where(t.seats.c.match_id == row["id"], t.seats.c.user_id == s["user_id"])
            .values(autoplay_throws=throws, autoplay_covers=covers, acted=False)
        )


async def _seat_in_order(conn: AsyncConnection, match_id: str, joined: tuple[int, ...]) -> None:
    """Renumber the seats to the order of play: seat p is the one whose number was
    ``joined[p]`` until now (its joining index, kept in ``joined``). Through negative
    numbers first, since both databases check the primary key row by row."""
    place = case(
        *((t.seats.c.seat == index, -1 - p) for p, index in enumerate(joined)),
        else_=t.seats.c.seat,
    )
    mine = t.seats.c.match_id == match_id
    # Both right-hand sides read the row as it was: ``joined`` takes the old number.
    await conn.execute(update(t.seats).where(mine).values(joined=t.seats.c.seat, seat=place))
    await conn.execute(update(t.seats).where(mine).values(seat=-1 - t.seats.c.seat))


async def store_events(
    conn: AsyncConnection, match_id: str, events: list[dict[str, Any]]
) -> None:
    """Keep live events of a match not yet started (the moves write theirs in their
    own statements), and send them once the transaction commits."""
    if events:
        await conn.execute(
            _INSERT_EVENTS,
            [{"match_id": match_id, "seq": e["seq"], "data": json.dumps(e)} for e in events],
        )
        publish_on_commit(conn, match_id, events)


async def next_version(conn: AsyncConnection, row: Any, **values: Any) -> None:
    """Before the start: move a match's version on by one (setting ``values`` too),
    if nobody else moved it first."""
    res = await conn.execute(
        update(t.matches)
        .where(t.matches.c.id == row["id"], t.matches.c.version == row["version"])
        .values(version=row["version"] + 1, **values)
    )
    if res.rowcount != 1:
        raise conflict("the match changed meanwhile; try again", "retry")
