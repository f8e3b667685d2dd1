"""Entering today's deal, and keeping an entry's result on the board when it ends.

An entry is a match made by play/'s ``new_match``: one seat, the deal's server seed
(committed to a day before), the client seed ``daily-<day>-<variant>``, no clock per
throw but the day's close as its one time limit (so the sweeper, or a move arriving
after midnight, ends it as a throw whose time ran out), and its seed hidden until
the day ends even once the entry is over (matches/disclosure.py). One entry per
account and deal is what makes a board: guests cannot enter.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot import fair
from jackpot.engine import DailyResult, Match, Variant
from jackpot.web.base.errors import conflict, forbidden
from jackpot.web.base.identity import Actor
from jackpot.web.base.tables.daily import daily_entries
from jackpot.web.daily.deals import day_of, deal_row, ping_daily
from jackpot.web.matches.news import MatchEnd
from jackpot.web.matches.origin import ON_ONES_OWN, Origin
from jackpot.web.notify.confirmations import is_confirmed
from jackpot.web.play.new_match import MatchSpec, Person, new_match

#: Where a person has the confirmation mail sent again (POST
#: /api/account/email-confirmation does it too).
RESEND_PAGE = "/account#confirm-email"


def require_account(actor: Actor | None) -> Actor:
    """The caller, who must have an account: a guest (or nobody) gets 403, since
    one entry per person is what makes a board."""
    if actor is None or actor.is_guest:
        raise forbidden(
            "the daily deal needs an account (one entry per person makes the board): "
            "sign up or log in",
            "account_required",
        )
    return actor


def first_state(variant: Variant, _seats: int) -> Match:
    return Match.new_daily(variant)


async def enter(conn: AsyncConnection, actor: Actor, variant: Variant, now: datetime) -> str:
    """``actor``'s entry in today's deal of ``variant``, made and started in the
    caller's transaction; 404 if today's deal is not made yet, 409 for a second
    entry. Returns the entry's match id."""
    if not await is_confirmed(conn, actor.user_id):
        # One entry per address: an unconfirmed one could be anybody's second account.
        raise forbidden(
            "only an account with a confirmed email address may enter the daily deal: "
            "open the link we mailed you, or have it sent again from your account page "
            "(%(resend)s)",
            "email_unconfirmed",
            resend=RESEND_PAGE,
        )
    day = day_of(now)
    deal = await deal_row(conn, day, variant)
    taken = (
        await conn.execute(
            select(daily_entries.c.match_id).where(
                daily_entries.c.day == day,
                daily_entries.c.variant == variant.value,
                daily_entries.c.user_id == actor.user_id,
            )
        )
    ).first()
    if taken is not None:
        raise already_entered()
    out = await new_match(
        conn,
        MatchSpec(
            variant,
            people=[Person(actor, client_seed=fair.daily_client_seed(day, variant))],
            deadline_seconds=None,
            server_seed=deal["server_seed"],
            seed_hidden_until=deal["closes_at"],
            first_state=first_state,
            closes_at=deal["closes_at"],
            dice=deal["dice"],
            origin=Origin("daily", f"{day}:{variant.value}"),
            rules=ON_ONES_OWN,
        ),
        now,
    )
    await conn.execute(
        insert(daily_entries).values(
            match_id=out.match_id,
            day=day,
            variant=variant.value,
            user_id=actor.user_id,
            name=actor.name,
            entered_at=now,
            finished=False,
        )
    )
    ping_daily(conn)  # a new entry on the board
    return out.match_id


def already_entered() -> Exception:
    return conflict(
        "you have entered this deal already: one entry per person and day",
        "already_entered",
    )


async def entry_ended(conn: AsyncConnection, end: MatchEnd) -> None:
    """The end listener (web/wiring.py): a daily entry that ends takes its result to
    the board, in the transaction that ends it, and the daily pages look again."""
    m = end.match
    if m is None or not m.daily or not isinstance(m.result, DailyResult):
        return
    result = m.result
    await conn.execute(
        update(daily_entries)
        .where(daily_entries.c.match_id == end.match_id)
        .values(
            finished=True,
            ending=m.out[0] or "played",
            finished_at=end.now,
            jackpots=result.jackpots,
            total=result.total,
            turn_scores=list(result.turn_scores),
        )
    )
    ping_daily(conn)
