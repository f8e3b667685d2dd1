"""Challenges: one person offers another a two-seat match, which starts when they accept.

The challenged player hears of it on their own stream (rules.tell); accepting makes
the match through play/'s ``new_match`` (the seat order drawn from the seeds, as for
every match). Whoever does not accept challenges, or blocked the challenger (or was
blocked by them), gets none: the challenger is told the same in both cases, so a
block is never revealed; a challenger who blocked the other is told so, which
reveals nothing to anyone else. A challenge not answered in time expires
(expiry.py): ten minutes for a quick match, a week for a slower one (rules.py).
A block closes the open challenges between the two (``end_between``, told of each
block by accounts/blocks.py).
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.accounts.blocks import (
    accepts_challenges,
    account_named,
    blocked_among,
    has_blocked,
)
from jackpot.web.base.clock import iso
from jackpot.web.base.errors import (
    ApiError,
    CountedError,
    bad_request,
    conflict,
    forbidden,
    not_found,
)
from jackpot.web.base.identity import Actor
from jackpot.web.base.quotas import MatchCap, check_active_matches, one_at_a_time
from jackpot.web.base.settings import Settings
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.people import challenges
from jackpot.web.matches.origin import BETWEEN_PEOPLE, Origin
from jackpot.web.people.ratings import ratings_of
from jackpot.web.people.rules import check_deadline, check_variant, tell, waits_for
from jackpot.web.play.new_match import MatchSpec, Person, new_match
from jackpot.web.play.parts import SERVER, contribution, seed_by
from jackpot.web.play.seating import check_spares

#: The challenges each list of GET /api/challenges shows at most.
LISTED = 100


def check_challenge_id(challenge_id: str) -> str:
    if not (challenge_id.startswith("c_") and len(challenge_id) == 18):
        raise not_found("there is no such challenge")
    return challenge_id


def not_accepting(name: str) -> ApiError:
    """The one answer for "does not accept challenges" and for a block either way."""
    return forbidden(
        "%(name)s does not accept challenges from you", "not_accepting", name=name
    )


async def create(
    conn: AsyncConnection,
    actor: Actor,
    settings: Settings,
    *,
    to: str,
    variant: str,
    deadline_seconds: int,
    now: datetime,
    client_seed: str | None = None,
    commitment: str | None = None,
    spares: int = 0,
) -> str:
    """``actor`` challenges the account called ``to``; returns the challenge's id. It
    keeps the challenger's client seed and part of the server seed (``commitment``'s,
    shown to them first: play/parts.py) for the match."""
    var = check_variant(variant)
    check_deadline(deadline_seconds, settings.min_deadline_seconds)
    check_spares(spares, 2)
    await one_at_a_time(conn, actor.user_id)
    other = await account_named(conn, to)
    if other.id == actor.user_id:
        raise bad_request("you cannot challenge yourself", "self")
    if await has_blocked(conn, actor.user_id, other.id):
        raise forbidden(
            "you have blocked %(name)s: unblock them on your account page to challenge them",
            "you_blocked",
            name=str(other.name),
        )
    if not await accepts_challenges(conn, other.id) or await blocked_among(
        conn, actor.user_id, [other.id]
    ):
        raise not_accepting(str(other.name))
    mine = challenges.c.from_id == actor.user_id
    still_open = (challenges.c.status == "open") & (challenges.c.expires_at > now)
    if (
        await conn.execute(
            select(challenges.c.id).where(mine, still_open, challenges.c.to_id == other.id)
        )
    ).first() is not None:
        raise conflict(
            "you have already challenged %(name)s; wait for the answer",
            "already_challenged",
            name=str(other.name),
        )
    count = select(func.count()).select_from(challenges)
    if (await conn.execute(count.where(mine, still_open))).scalar_one() >= settings.challenges_open:
        raise CountedError(
            429,
            "too_many_challenges",
            "you may have %(num)s challenge open at once; withdraw it first",
            "you may have %(num)s challenges open at once; withdraw one first",
            settings.challenges_open,
        )
    today = (
        await conn.execute(count.where(mine, challenges.c.created_at > now - timedelta(days=1)))
    ).scalar_one()
    if today >= settings.challenges_per_day:
        raise CountedError(
            429,
            "too_many_challenges",
            "you may make %(num)s challenge a day; try again tomorrow",
            "you may make %(num)s challenges a day; try again tomorrow",
            settings.challenges_per_day,
        )
    # Accepted, it is a match of the challenger's too: checked as a seek's is.
    await check_active_matches(conn, actor.user_id, False, settings.account_active_matches)
    own = await contribution(conn, client_seed, commitment, now)
    challenge_id = "c_" + secrets.token_hex(8)
    await conn.execute(
        insert(challenges).values(
            id=challenge_id,
            from_id=actor.user_id,
            to_id=other.id,
            variant=var.value,
            deadline_seconds=deadline_seconds,
            spares=spares,
            status="open",
            match_id=None,
            created_at=now,
            expires_at=now + waits_for(deadline_seconds),
            from_seed=own.client_seed,
            from_seed_by=seed_by(own.seed_by_server),
            from_part=own.part,
        )
    )
    tell(conn, other.id, {"type": "challenge", "challenge": challenge_id, "from": actor.name})
    return challenge_id


async def open_row(
    conn: AsyncConnection, challenge_id: str, user_id: int, side: str, now: datetime
) -> Any:
    """The open challenge ``user_id`` is on ``side`` of ("to_id" or "from_id"): 404 for
    anyone else's, 409 once answered, withdrawn or expired."""
    row = (
        await conn.execute(
            select(challenges).where(
                challenges.c.id == check_challenge_id(challenge_id),
                challenges.c[side] == user_id,
            )
        )
    ).first()
    if row is None:
        raise not_found("there is no such challenge")
    if row.status != "open" or row.expires_at <= now:
        raise conflict("this challenge is no longer open", "challenge_closed")
    return row


async def close(conn: AsyncConnection, row: Any, status: str, match_id: str | None = None) -> None:
    done = await conn.execute(
        update(challenges)
        .where(challenges.c.id == row.id, challenges.c.status == "open")
        .values(status=status, match_id=match_id)
    )
    if done.rowcount != 1:
        raise conflict("this challenge is no longer open", "challenge_closed")


async def accept(
    conn: AsyncConnection,
    actor: Actor,
    settings: Settings,
    challenge_id: str,
    now: datetime,
    *,
    client_seed: str | None = None,
    commitment: str | None = None,
) -> str:
    """The challenged player accepts: the two-seat match is made and started; both
    hear of it. Returns the match's id. Its server seed is made of the challenger's
    part and the accepting player's (``commitment``'s, shown to them before they chose
    ``client_seed``: play/parts.py)."""
    row = await open_row(conn, challenge_id, actor.user_id, "to_id", now)
    challenger = (
        await conn.execute(select(t.users.c.name).where(t.users.c.id == row.from_id))
    ).scalar_one()
    if await blocked_among(conn, actor.user_id, [row.from_id]):
        # A block ends the challenge (accounts/blocks.py); one made while this
        # request ran is answered the same way, never as a block.
        raise conflict("this challenge is no longer open", "challenge_closed")
    own = await contribution(conn, client_seed, commitment, now)
    # A challenge made before challenges kept them: the challenger's seed and part are
    # made now, as the server's.
    people = [
        Person(
            Actor(row.from_id, str(challenger), False),
            row.from_seed or secrets.token_hex(8),
            row.from_seed is None or row.from_seed_by == SERVER,
        ),
        Person(actor, own.client_seed, own.seed_by_server),
    ]
    parts = [row.from_part or secrets.token_hex(32), own.part]
    # Public, as a match made in the lobby is by default: it shows on /watch.
    spec = MatchSpec(
        check_variant(row.variant),
        people,
        row.deadline_seconds,
        private=False,
        origin=Origin("challenge", row.id),
        rules=BETWEEN_PEOPLE,
        # The challenger's count too: made a while ago, the challenge may find them full.
        cap=MatchCap(settings.account_active_matches, actor.user_id),
        parts=parts,
        spares=row.spares,
    )
    out = await new_match(conn, spec, now)
    await close(conn, row, "accepted", out.match_id)
    event = {"type": "accepted", "challenge": row.id, "match": out.match_id}
    tell(conn, row.from_id, event)
    tell(conn, actor.user_id, event)
    return out.match_id


async def decline(conn: AsyncConnection, actor: Actor, challenge_id: str, now: datetime) -> None:
    row = await open_row(conn, challenge_id, actor.user_id, "to_id", now)
    await close(conn, row, "declined")
    tell(conn, row.from_id, {"type": "declined", "challenge": row.id})


async def withdraw(conn: AsyncConnection, actor: Actor, challenge_id: str, now: datetime) -> None:
    row = await open_row(conn, challenge_id, actor.user_id, "from_id", now)
    await close(conn, row, "withdrawn")
    tell(conn, row.to_id, {"type": "withdrawn", "challenge": row.id})


async def listed(conn: AsyncConnection, user_id: int, now: datetime) -> dict[str, Any]:
    """The open challenges to and from ``user_id``, newest first, each with the other
    player's name and rating in the challenge's variant."""
    out: dict[str, Any] = {}
    for key, mine, theirs in (("incoming", "to_id", "from_id"), ("outgoing", "from_id", "to_id")):
        rows = (
            await conn.execute(
                select(challenges, t.users.c.name)
                .join(t.users, t.users.c.id == challenges.c[theirs])
                .where(
                    challenges.c[mine] == user_id,
                    challenges.c.status == "open",
                    challenges.c.expires_at > now,
                )
                .order_by(challenges.c.created_at.desc())
                .limit(LISTED)
            )
        ).all()
        shown = []
        for r in rows:
            who = r._mapping[theirs]
            rating = (await ratings_of(conn, [who], r.variant))[who]
            shown.append(
                {
                    "id": r.id,
                    "player": r.name,
                    "rating": rating["rating"],
                    "provisional": rating["provisional"],
                    "variant": r.variant,
                    "deadline_seconds": r.deadline_seconds,
                    "spares": r.spares,
                    "created_at": iso(r.created_at),
                    "expires_at": iso(r.expires_at),
                }
            )
        out[key] = shown
    return out


async def end_between(conn: AsyncConnection, blocker: int, blocked: int) -> None:
    """A block's listener (accounts/blocks.py): close the open challenges between the
    two as the blocker would answer them (withdrawn, declined): the blocked player
    hears that, never of the block, and the blocker's other pages drop it from their
    lists.

    The rows are locked first, both directions in one statement, in the order of
    their ids: two players blocking each other at once then lock them in the same
    order. Closing one direction and then the other locked them in opposite orders
    in the two transactions, and PostgreSQL broke the deadlock with a 500."""
    pair = (
        (challenges.c.from_id == blocker) & (challenges.c.to_id == blocked)
    ) | ((challenges.c.from_id == blocked) & (challenges.c.to_id == blocker))
    rows = (
        await conn.execute(
            select(challenges.c.id, challenges.c.from_id)
            .where(pair, challenges.c.status == "open")
            .order_by(challenges.c.id)
            .with_for_update()
        )
    ).all()
    for row in rows:
        status = "withdrawn" if row.from_id == blocker else "declined"
        await conn.execute(
            update(challenges)
            .where(challenges.c.id == row.id, challenges.c.status == "open")
            .values(status=status)
        )
        event = {"type": status, "challenge": row.id}
        for user_id in (blocked, blocker):
            tell(conn, user_id, event)
