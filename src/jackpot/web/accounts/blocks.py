"""Blocks and the challenge setting: whom an account will not play, and who may challenge it.

Both belong to the account (base/tables/people.py holds the rows), and they are
read below the features that seat people: play/seating.py keeps a blocked person
out of the blocker's lobby matches, and the seeks and challenges (web/people/)
never pair or seat a blocked pair. A block holds both ways: whoever blocked whom,
the two are not put at one table. A block also ends the open challenges between the
two, as the blocker's own answer would: their challenge withdrawn, the other's
declined, so the blocked player learns no more than from those answers. Challenges
are people/'s, above this package: it hears of a block through ``ACCOUNT_HOOKS``
(accounts/hooks.py), in the block's transaction.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import CompoundSelect, delete, func, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection
from starlette.requests import HTTPConnection

from jackpot.i18n import N_
from jackpot.web.accounts.hooks import ACCOUNT_HOOKS
from jackpot.web.base.edge.client import client_bucket
from jackpot.web.base.edge.http import settings_of
from jackpot.web.base.errors import CountedError, bad_request, forbidden, not_found
from jackpot.web.base.limits import counters_of, take
from jackpot.web.base.names import name_key
from jackpot.web.base.quotas import one_at_a_time
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.accounts import blocks, people_prefs

#: The most of an unknown name an answer says back.
SHOWN_NAME = 40


async def count_name_lookup(request: HTTPConnection) -> None:
    """One more account looked up by name from the request's address (429 past
    ``JACKPOT_NAME_LOOKUP_LIMIT``): each answer says whether the name is an account's,
    so nobody may run a dictionary of names through it. Profiles of players who keep
    off the leaderboard say nothing, and the sign-up form is limited alike."""
    settings = settings_of(request)
    await take(
        counters_of(request),
        "names:" + client_bucket(request),
        settings.name_lookup_limit,
        N_("too many players looked up by name from your address"),
    )


async def count_rename(request: HTTPConnection, user_id: int) -> None:
    """One more name change for the account (429 past ``JACKPOT_RENAME_LIMIT``), and one
    more name looked up from the request's address: the answer says whether the
    name is taken, as a sign-up's does, so renaming again and again is no way round
    the name-lookup limit (nor a way to confirm that players who keep their profile
    hidden exist, one name after another)."""
    await take(
        counters_of(request),
        f"rename:{int(user_id)}",
        settings_of(request).rename_limit,
        N_("too many name changes for this account"),
    )
    await count_name_lookup(request)


async def account_named(conn: AsyncConnection, name: str) -> Any:
    """The account (not a guest) called ``name``: a row with ``id`` and ``name``; 404
    when there is none (the name said back no longer than a name may be)."""
    row = (
        await conn.execute(
            select(t.users.c.id, t.users.c.name).where(
                t.users.c.name_key == name_key(name), t.users.c.is_guest.is_(False)
            )
        )
    ).first()
    if row is None:
        shown = name if len(name) <= SHOWN_NAME else name[:SHOWN_NAME] + "…"
        raise not_found("there is no player called %(name)s", name=shown)
    return row


async def blocked_among(conn: AsyncConnection, user_id: int, others: Iterable[int]) -> set[int]:
    """Those of ``others`` who blocked ``user_id`` or whom ``user_id`` blocked."""
    ids = sorted(set(others) - {user_id})
    if not ids:
        return set()
    rows = await conn.execute(
        select(blocks.c.blocker_id, blocks.c.blocked_id).where(
            or_(
                (blocks.c.blocker_id == user_id) & blocks.c.blocked_id.in_(ids),
                (blocks.c.blocked_id == user_id) & blocks.c.blocker_id.in_(ids),
            )
        )
    )
    return {r.blocked_id if r.blocker_id == user_id else r.blocker_id for r in rows}


def blocked_either_way(user_id: int) -> CompoundSelect[tuple[int]]:
    """The ids of those who blocked ``user_id`` or whom ``user_id`` blocked, as a
    subquery: a list of others' offers leaves them out on both sides."""
    return select(blocks.c.blocked_id).where(blocks.c.blocker_id == user_id).union(
        select(blocks.c.blocker_id).where(blocks.c.blocked_id == user_id)
    )


async def blocked_pairs(conn: AsyncConnection, user_ids: Iterable[int]) -> set[frozenset[int]]:
    """The pairs among ``user_ids`` where one blocked the other (one query, for a
    pairing's candidates)."""
    ids = sorted(set(user_ids))
    if len(ids) < 2:
        return set()
    rows = await conn.execute(
        select(blocks.c.blocker_id, blocks.c.blocked_id).where(
            blocks.c.blocker_id.in_(ids), blocks.c.blocked_id.in_(ids)
        )
    )
    return {frozenset((r.blocker_id, r.blocked_id)) for r in rows}


async def has_blocked(conn: AsyncConnection, blocker_id: int, blocked_id: int) -> bool:
    """Whether ``blocker_id`` blocked ``blocked_id`` (one way only: the blocker's own
    doing, which may be told to the blocker)."""
    found = await conn.execute(
        select(blocks.c.blocked_id).where(
            blocks.c.blocker_id == blocker_id, blocks.c.blocked_id == blocked_id
        )
    )
    return found.first() is not None


async def check_not_blocked(conn: AsyncConnection, user_id: int, others: Iterable[int]) -> None:
    """403 when ``user_id`` and one of ``others`` blocked each other; the answer does not
    say who blocked whom, nor that it was a block at all."""
    if await blocked_among(conn, user_id, others):
        raise forbidden("you cannot join this match", "not_allowed")


async def block(
    conn: AsyncConnection, user_id: int, name: str, now: datetime, cap: int
) -> str:
    """``user_id`` blocks the account called ``name`` (once; 429 past ``cap`` blocks);
    returns the name as stored."""
    await one_at_a_time(conn, user_id)
    other = await account_named(conn, name)
    if other.id == user_id:
        raise bad_request("you cannot block yourself", "self")
    there = (
        await conn.execute(
            select(blocks.c.blocked_id).where(
                blocks.c.blocker_id == user_id, blocks.c.blocked_id == other.id
            )
        )
    ).first()
    if there is None:
        count = (
            await conn.execute(
                select(func.count()).select_from(blocks).where(blocks.c.blocker_id == user_id)
            )
        ).scalar_one()
        if count >= cap:
            raise CountedError(
                429,
                "too_many_blocks",
                "you may block at most %(num)s player",
                "you may block at most %(num)s players",
                cap,
            )
        await conn.execute(
            insert(blocks).values(blocker_id=user_id, blocked_id=other.id, created_at=now)
        )
    for listener in ACCOUNT_HOOKS.block:
        await listener(conn, user_id, other.id)
    return str(other.name)


async def unblock(conn: AsyncConnection, user_id: int, name: str) -> None:
    """Lift ``user_id``'s block of the account called ``name`` (nothing if none)."""
    other = await account_named(conn, name)
    await conn.execute(
        delete(blocks).where(blocks.c.blocker_id == user_id, blocks.c.blocked_id == other.id)
    )


async def blocked_names(conn: AsyncConnection, user_id: int) -> list[str]:
    """The names of the accounts ``user_id`` blocked, A to Z."""
    rows = await conn.execute(
        select(t.users.c.name)
        .join(blocks, blocks.c.blocked_id == t.users.c.id)
        .where(blocks.c.blocker_id == user_id)
        .order_by(t.users.c.name_key)
    )
    return [str(r.name) for r in rows]


async def accepts_challenges(conn: AsyncConnection, user_id: int) -> bool:
    """Whether other people may challenge ``user_id`` (yes unless they said nobody)."""
    row = (
        await conn.execute(
            select(people_prefs.c.challenges).where(people_prefs.c.user_id == user_id)
        )
    ).first()
    return row is None or bool(row.challenges)


async def set_challenges(conn: AsyncConnection, user_id: int, anyone: bool) -> None:
    """Let anyone challenge ``user_id`` (True), or nobody (False)."""
    await one_at_a_time(conn, user_id)
    done = await conn.execute(
        update(people_prefs).where(people_prefs.c.user_id == user_id).values(challenges=anyone)
    )
    if done.rowcount == 0:
        await conn.execute(insert(people_prefs).values(user_id=user_id, challenges=anyone))
