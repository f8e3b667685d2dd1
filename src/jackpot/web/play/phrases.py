"""A few words in a match: seated people say a phrase from a fixed list, never free text.

A phrase is a key (``good_luck``); each reader's page words it in their own language
from the catalogs, so what one says in English the other reads in Slovak, and there
is nothing to moderate. Saying one is an action of its own, one transaction: its row
goes in ``match_phrases`` (base/tables/play.py) and its ``said`` event out on the
match's channel once that commits. The event carries no ``seq``: the match's numbered
events are its version, the lock a move's save is conditional on, and a phrase must
not make a move racing it fail. So the streams pass ``said`` on unnumbered (sse.py),
a page keeps the phrases apart from the match's state, and a page that was away
reads them again with ``GET /api/matches/{id}/said``.

Limits, per seat of a match (settings): one phrase every ``phrase_gap`` seconds, at
most ``phrases_per_seat`` in all (429 past either). Said while the match is played,
and for ``phrase_after_end`` seconds after its end ("well played", "rematch?"); not
while it waits for players, whose seats the start draws again.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from jackpot.web.base.clock import iso, utcnow
from jackpot.web.base.errors import ApiError, CountedError, conflict, forbidden, invalid
from jackpot.web.base.identity import Actor
from jackpot.web.base.settings import Settings
from jackpot.web.base.storage.db import Database, publish_on_commit
from jackpot.web.base.tables import core as t
from jackpot.web.base.tables.play import match_phrases
from jackpot.web.matches.store import check_match_id, match_row

#: The phrases, in the order the page offers them. Their words are the page's
#: (static/match-phrases.js), in the reader's language.
PHRASES = (
    "good_luck",
    "have_fun",
    "well_played",
    "thanks",
    "nice_jackpot",
    "unlucky",
    "sorry",
    "must_go",
    "rematch",
)


def check_phrase(phrase: str) -> str:
    """The phrase, if it is one of the list's keys; else 422."""
    if phrase not in PHRASES:
        raise invalid(
            "phrase must be one of %(phrases)s, not %(given)s",
            "unknown_phrase",
            phrases=", ".join(PHRASES),
            given=repr(phrase[:40]),
        )
    return phrase


def _said_view(row: Any) -> dict[str, Any]:
    return {"type": "said", "seat": row.seat, "n": row.n, "phrase": row.phrase, "at": iso(row.at)}


async def said_of(conn: AsyncConnection, match_id: str) -> list[dict[str, Any]]:
    """Everything said in the match, as ``said`` events, in the order a page that
    heard them live keeps them (matches/live.py's ``add_said``): by the second they
    were said in (the API's times go to the second), then seat, then number."""
    rows = await conn.execute(select(match_phrases).where(match_phrases.c.match_id == match_id))
    return sorted((_said_view(r) for r in rows), key=lambda x: (x["at"], x["seat"], x["n"]))


async def say(
    db: Database,
    actor: Actor,
    match_id: str,
    phrase: str,
    settings: Settings,
    now: datetime | None = None,
) -> None:
    """Say ``phrase`` from the actor's seat: 403 for anybody not seated, 409 before
    the start or once the end is ``phrase_after_end`` seconds past, 429 past a limit."""
    check_match_id(match_id)
    check_phrase(phrase)
    when = now or utcnow()
    async with db.write() as conn:
        row = await match_row(conn, match_id)
        seat = (
            await conn.execute(
                select(t.seats.c.seat).where(
                    t.seats.c.match_id == match_id,
                    t.seats.c.user_id == actor.user_id,
                    t.seats.c.is_bot.is_(False),
                )
            )
        ).scalar()
        if seat is None:
            raise forbidden("only the match's players may say something in it", "not_seated")
        _check_open(row, when, settings)
        mine = (
            await conn.execute(
                select(match_phrases.c.n, match_phrases.c.at)
                .where(match_phrases.c.match_id == match_id, match_phrases.c.seat == seat)
                .order_by(match_phrases.c.n.desc())
            )
        ).all()
        if len(mine) >= settings.phrases_per_seat:
            raise CountedError(
                429,
                "too_many_phrases",
                "a seat may say at most %(num)s phrase in a match",
                "a seat may say at most %(num)s phrases in a match",
                settings.phrases_per_seat,
            )
        if mine and when < mine[0].at + timedelta(seconds=settings.phrase_gap):
            raise _too_soon(settings)
        n = (mine[0].n if mine else 0) + 1
        insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
        done = await conn.execute(
            insert(match_phrases)
            .values(match_id=match_id, seat=seat, n=n, phrase=phrase, at=when)
            .on_conflict_do_nothing(index_elements=["match_id", "seat", "n"])
        )
        if done.rowcount == 0:
            # The same seat said another at the same moment (two tabs), which took n.
            raise _too_soon(settings)
        event = {"type": "said", "seat": seat, "n": n, "phrase": phrase, "at": iso(when)}
        publish_on_commit(conn, match_id, [event])


def _too_soon(settings: Settings) -> ApiError:
    # Counted in whole seconds (a gap of 1.5 s is said as 2), so the plural form fits.
    return CountedError(
        429,
        "too_many_phrases",
        "one phrase every %(num)s second: wait a moment",
        "one phrase every %(num)s seconds: wait a moment",
        math.ceil(settings.phrase_gap),
    )


def _check_open(row: Any, when: datetime, settings: Settings) -> None:
    """409 unless the match is under way, or ended less than ``phrase_after_end`` ago."""
    if row["status"] == "waiting":
        raise conflict("the match has not started: seats are still free", "not_started")
    if row["status"] == "finished":
        ended = row["finished_at"]
        if ended is None or when >= ended + timedelta(seconds=settings.phrase_after_end):
            raise conflict("the match ended a while ago: nothing more may be said", "match_over")
